import { describe, expect, it } from 'vitest';
import { CodepointIndex, codepointLength, sliceCodepoints } from './codepoints.js';

describe('codepoints', () => {
  const text = 'a𠮷b\u0301c😀';
  it('counts codepoints, not UTF-16 units', () => {
    expect(text.length).toBe(8);
    expect(codepointLength(text)).toBe(6);
    expect([...text].length).toBe(6);
  });
  it('round-trips every offset', () => {
    const idx = new CodepointIndex(text);
    const cps = [...text];
    for (let cp = 0; cp <= cps.length; cp++) {
      const u = idx.toUtf16(cp);
      expect(text.slice(0, u)).toBe(cps.slice(0, cp).join(''));
      expect(idx.toCodepoint(u)).toBe(cp);
    }
  });
  it('maps an offset inside a surrogate pair to the pair', () => {
    const idx = new CodepointIndex(text);
    expect(idx.toCodepoint(2)).toBe(1);
  });
  it('slices by codepoints', () => {
    expect(sliceCodepoints(text, 1, 3)).toBe('𠮷b');
    expect(sliceCodepoints(text, 5, 6)).toBe('😀');
  });
  it('rejects out-of-range offsets', () => {
    expect(() => new CodepointIndex('ab').toUtf16(3)).toThrow(RangeError);
  });
});
