import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { DEFAULT_GATE, gateFamily } from './gate.js';

describe('the built-in refusal gate', () => {
  it('is the lexical calibration run recorded in calibration/lexical.json', () => {
    const run = JSON.parse(readFileSync(new URL('../calibration/lexical.json', import.meta.url), 'utf8'));
    expect(run).toMatchObject({ schema: 'pinpoint.gate/1', mode: 'lexical', embedder: null, reranker: null });
    expect(DEFAULT_GATE.models).toEqual(run.models);
  });

  it('judges Japanese and Chinese questions with the CJK model, others with the Latin one', () => {
    expect(gateFamily('梅雨の期間はどのくらいか？')).toBe('cjk');
    expect(gateFamily('哪一年成立？')).toBe('cjk');
    expect(gateFamily('What is the NSF?')).toBe('latin');
    expect(gateFamily('What does 梅雨 mean in English?')).toBe('latin');
    expect(gateFamily('MonoDevelop目前支持的语言有哪些？')).toBe('cjk');
    expect(gateFamily('1842年，潘仕成做了什么事情？')).toBe('cjk');
  });
});
