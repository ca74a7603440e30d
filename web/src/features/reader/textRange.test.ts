import { describe, expect, it } from 'vitest';
import { codepointRangeToUtf16, lineOfOffset, splitAtCodepoints } from './textRange.js';

describe('codepointRangeToUtf16', () => {
  it('is the identity on BMP-only text', () => {
    expect(codepointRangeToUtf16('梅雨は五月から', 2, 4)).toEqual({ start: 2, end: 4 });
  });

  it('shifts past astral characters (each is two UTF-16 units, one codepoint)', () => {
    const text = '𠮷野家で𩸽を食べた';
    // codepoints: 𠮷 野 家 で 𩸽 を 食 べ た → "𩸽を" is [4, 6)
    const r = codepointRangeToUtf16(text, 4, 6);
    expect(r).toEqual({ start: 5, end: 8 });
    expect(text.slice(r.start, r.end)).toBe('𩸽を');
  });

  it('counts combining marks as codepoints of their own', () => {
    const text = 'Cafe\u0301 ok 👍🏽 done';
    // C a f e ◌́ ␠ o k ␠ 👍 🏽 ␠ d o n e
    expect(text.slice(...Object.values(codepointRangeToUtf16(text, 0, 5)))).toBe('Cafe\u0301');
    const emoji = codepointRangeToUtf16(text, 9, 11);
    expect(text.slice(emoji.start, emoji.end)).toBe('👍🏽');
    const after = codepointRangeToUtf16(text, 12, 16);
    expect(text.slice(after.start, after.end)).toBe('done');
  });

  it('rejects ranges that do not fit, instead of guessing', () => {
    expect(() => codepointRangeToUtf16('abc', 2, 4)).toThrow(RangeError);
    expect(() => codepointRangeToUtf16('abc', 2, 1)).toThrow(RangeError);
    expect(() => codepointRangeToUtf16('abc', -1, 1)).toThrow(RangeError);
    expect(() => codepointRangeToUtf16('𠮷', 0, 2)).toThrow(RangeError);
  });
});

describe('splitAtCodepoints', () => {
  it('marks the cited occurrence of a sentence that appears twice', () => {
    const sentence = '雨季の一種である。';
    const text = `${sentence}𠮷は例外。${sentence}`;
    // second occurrence starts after 9 + 5 codepoints
    const parts = splitAtCodepoints(text, 14, 23);
    expect(parts.marked).toBe(sentence);
    expect(parts.before).toBe(`${sentence}𠮷は例外。`);
    expect(parts.after).toBe('');
    // the first occurrence is a different range
    const first = splitAtCodepoints(text, 0, 9);
    expect(first.marked).toBe(sentence);
    expect(first.range.start).not.toBe(parts.range.start);
    expect(parts.range).toEqual({ start: 15, end: 24 });
  });

  it('keeps before + marked + after equal to the text', () => {
    const text = 'a👍b\u0301c';
    for (let s = 0; s <= 5; s++) {
      for (let e = s; e <= 5; e++) {
        const p = splitAtCodepoints(text, s, e);
        expect(p.before + p.marked + p.after).toBe(text);
      }
    }
  });
});

describe('lineOfOffset', () => {
  it('counts lines up to an offset', () => {
    expect(lineOfOffset('a\nb\nc', 0)).toBe(1);
    expect(lineOfOffset('a\nb\nc', 4)).toBe(3);
  });
});
