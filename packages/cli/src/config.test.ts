import { describe, expect, it } from 'vitest';
import { loadCliConfig } from './config.js';

describe('CLI configuration', () => {
  it('takes --mode lexical and records it', () => {
    const cfg = loadCliConfig(['eval', 'dir', '--mode', 'lexical'], {});
    expect(cfg.flags.mode).toBe('lexical');
  });

  it('refuses a mode it cannot run rather than recording it in the run file', () => {
    expect(() => loadCliConfig(['eval', 'dir', '--mode', 'hybrid'], {})).toThrow(/lexical mode only/);
  });

  it('names the invalid setting', () => {
    expect(() => loadCliConfig(['status'], { PINPOINT_OCR: 'abbyy' })).toThrow(/PINPOINT_OCR/);
  });
});
