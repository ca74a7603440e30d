import { describe, expect, it } from 'vitest';
import { loadCliConfig } from './config.js';

/** An ONNX embedder and reranker configured, as on the server. */
const env = {
  PINPOINT_EMBEDDER: 'onnx',
  PINPOINT_ONNX_MODEL_DIR: '/m',
  PINPOINT_RERANKER: 'onnx',
  PINPOINT_RERANKER_MODEL_DIR: '/r',
};

describe('CLI configuration', () => {
  it('takes --mode lexical and records it', () => {
    const cfg = loadCliConfig(['eval', 'dir', '--mode', 'lexical'], {});
    expect(cfg.flags.mode).toBe('lexical');
  });

  it('takes a note for the recorded figures', () => {
    expect(loadCliConfig(['eval', 'dir', '--record', '--note', 'p95 of three runs: 44-55 ms'], {}).flags.note).toBe(
      'p95 of three runs: 44-55 ms',
    );
    expect(loadCliConfig(['eval', 'dir', '--record'], {}).flags.note).toBeUndefined();
  });

  it('refuses a mode whose model is not configured, naming the variable to set', () => {
    expect(() => loadCliConfig(['eval', 'dir', '--mode', 'hybrid'], {})).toThrow(/PINPOINT_EMBEDDER/);
    expect(() => loadCliConfig(['eval', 'dir', '--mode', 'dense'], {})).toThrow(/PP_CONFIG_INVALID|PINPOINT_EMBEDDER/);
    const onnx = { PINPOINT_EMBEDDER: 'onnx', PINPOINT_ONNX_MODEL_DIR: '/m' };
    expect(() => loadCliConfig(['eval', 'dir', '--mode', 'hybrid+rerank'], onnx)).toThrow(/PINPOINT_RERANKER/);
    expect(() => loadCliConfig(['eval', 'dir', '--mode', 'fuzzy'], {})).toThrow(/Unknown --mode/);
  });

  it('runs each mode with only the models it needs', () => {
    expect(loadCliConfig(['eval', 'dir', '--mode', 'lexical'], env).models.embedder.kind).toBe('none');
    const dense = loadCliConfig(['eval', 'dir', '--mode', 'dense'], env);
    expect([dense.models.embedder.kind, dense.models.reranker.kind, dense.engine.retrieval.lexical]).toEqual([
      'onnx',
      'none',
      false,
    ]);
    expect(loadCliConfig(['eval', 'dir', '--mode', 'hybrid+rerank'], env).models.reranker.kind).toBe('onnx');
  });

  it('ingests, asks and searches with every configured model, as the server does', () => {
    for (const command of ['ingest', 'ask', 'search']) {
      const { models } = loadCliConfig([command, 'x'], env);
      expect([models.embedder.kind, models.reranker.kind]).toEqual(['onnx', 'onnx']);
    }
  });

  it('takes --min-answered for every set and SET=SHARE for one set', () => {
    expect(loadCliConfig(['calibrate', 'a'], {}).flags).toMatchObject({ minAnswered: 0.91, minAnsweredSets: {} });
    const argv = ['calibrate', 'a', '--min-answered', '0.9', '--min-answered', 'financebench-dev=0.85'];
    expect(loadCliConfig(argv, {}).flags).toMatchObject({ minAnswered: 0.9, minAnsweredSets: { 'financebench-dev': 0.85 } });
    expect(() => loadCliConfig(['calibrate', 'a', '--min-answered', 'financebench-dev=2'], {})).toThrow(/SET=SHARE/);
    expect(() => loadCliConfig(['calibrate', 'a', '--min-answered', '=0.5'], {})).toThrow(/SET=SHARE/);
  });

  it('names the invalid setting', () => {
    expect(() => loadCliConfig(['status'], { PINPOINT_OCR: 'abbyy' })).toThrow(/PINPOINT_OCR/);
  });
});
