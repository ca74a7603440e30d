import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { writeTinyCrossEncoder, writeTinyEncoder } from '@pinpoint/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const run = promisify(execFile);
const bin = fileURLToPath(new URL('../bin/pinpoint.mjs', import.meta.url));

const DOCS = {
  'refunds.md': '# Refunds\n\nTaxi fares are refunded up to fifty dollars per trip when a receipt is attached.\n',
  'parking.md': '# Parking\n\nParking permits are issued monthly by the facilities office.\n',
};
const QUESTIONS = [
  { id: 'q1', question: 'Are taxi fares refunded?', answerable: true, answers: ['fifty dollars'], file: 'refunds.md' },
  { id: 'q2', question: 'Who issues parking permits?', answerable: true, answers: ['facilities office'], file: 'parking.md' },
  { id: 'q3', question: 'What is the dress code?', answerable: false, answers: [], file: '' },
];
const WORDS =
  'taxi fares are refunded up to fifty dollars per trip when a receipt is attached parking permits issued monthly by the facilities office who what dress code refunds query passage :'.split(
    ' ',
  );

describe('pinpoint eval --mode dense|hybrid|hybrid+rerank with local ONNX models', () => {
  let dir: string;
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'pp-cli-modes-'));
    mkdirSync(join(dir, 'set', 'docs'), { recursive: true });
    for (const [name, text] of Object.entries(DOCS)) writeFileSync(join(dir, 'set', 'docs', name), text);
    const lines = QUESTIONS.map(({ file, ...q }) =>
      JSON.stringify({ ...q, lang: 'en', gold: file ? [{ file, quote: DOCS[file as keyof typeof DOCS].split('\n')[2] }] : [] }),
    );
    writeFileSync(join(dir, 'set', 'questions.jsonl'), `${lines.join('\n')}\n`);
    await writeTinyEncoder(join(dir, 'model'), WORDS, 16);
    await writeTinyCrossEncoder(join(dir, 'rerank'), WORDS, { taxi: 3, parking: 2 });
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  /** The server's variables with the tiny ONNX embedder (and whatever else a test adds). */
  const withModels = (extra: Record<string, string> = {}): NodeJS.ProcessEnv => ({
    ...process.env,
    INIT_CWD: dir,
    PINPOINT_PARSE_ISOLATE: 'false',
    PINPOINT_EMBEDDER: 'onnx',
    PINPOINT_ONNX_MODEL_DIR: join(dir, 'model'),
    ...extra,
  });

  const evalRun = async (mode: string) => {
    const out = join(dir, `${mode}.json`);
    await run(process.execPath, [bin, 'eval', 'set', '--mode', mode, '--out', out, '--json'], {
      cwd: dir,
      env: withModels({ PINPOINT_RERANKER: 'onnx', PINPOINT_RERANKER_MODEL_DIR: join(dir, 'rerank') }),
    });
    return JSON.parse(readFileSync(out, 'utf8'));
  };

  it.each(['hybrid', 'dense'])(
    'runs --mode %s and records the mode, the embedder and dense scores',
    async (mode) => {
      const r = await evalRun(mode);
      expect(r.config).toMatchObject({ mode, embedder: expect.stringMatching(/^onnx:/), reranker: null });
      const items = r.questions.flatMap((q: { retrieved: { scores: Record<string, number> }[] }) => q.retrieved);
      expect(items.length).toBeGreaterThan(0);
      for (const item of items) expect(typeof item.scores.dense).toBe('number');
      if (mode === 'dense') for (const item of items) expect(item.scores.lexical).toBeUndefined();
    },
    60_000,
  );

  it('runs --mode hybrid+rerank with the configured reranker and records its id', async () => {
    const r = await evalRun('hybrid+rerank');
    expect(r.config).toMatchObject({ mode: 'hybrid+rerank', reranker: expect.stringMatching(/onnx/) });
    expect(typeof r.questions[0].retrieved[0].scores.rerank).toBe('number');
  }, 60_000);

  it('ingest and search use the configured embedder, as the server does on the same data folder', async () => {
    const env = withModels({ PINPOINT_DATA_DIR: join(dir, 'data') });
    await run(process.execPath, [bin, 'ingest', 'set/docs/refunds.md', 'set/docs/parking.md', '--json'], { cwd: dir, env });
    const { stdout } = await run(process.execPath, [bin, 'search', 'who issues parking permits', '--json'], { cwd: dir, env });
    const hits = (JSON.parse(stdout) as { hits: { file: string; scores: Record<string, number> }[] }).hits;
    expect(hits[0]?.file).toBe('parking.md');
    for (const h of hits) expect(typeof h.scores.dense).toBe('number');
  }, 60_000);

  it('calibrates the gate for a mode, and eval and ask run with the calibrated gate file', async () => {
    const env = withModels();
    const { stdout } = await run(
      process.execPath,
      [bin, 'calibrate', 'set', '--mode', 'hybrid', '--out', 'gate.json', '--min-answered', '0.5'],
      { cwd: dir, env },
    );
    expect(stdout).toMatch(/set\s+latin\s+answered/);
    const gate = JSON.parse(readFileSync(join(dir, 'gate.json'), 'utf8'));
    expect(gate).toMatchObject({ schema: 'pinpoint.gate/1', mode: 'hybrid', embedder: expect.stringMatching(/^onnx:/) });
    expect(gate.datasets[0]).toMatchObject({ family: 'latin', questions: 3 });
    const out = join(dir, 'calibrated.json');
    await run(process.execPath, [bin, 'eval', 'set', '--mode', 'hybrid', '--out', out], {
      cwd: dir,
      env: withModels({ PINPOINT_GATE_FILE: 'gate.json' }),
    });
    const r = JSON.parse(readFileSync(out, 'utf8'));
    expect(r.config.gate_calibration).toMatchObject({ mode: 'hybrid', file: join(dir, 'gate.json') });
    for (const q of r.questions) expect(q.gate.threshold).toBe(gate.models.latin.threshold);
  }, 90_000);
});
