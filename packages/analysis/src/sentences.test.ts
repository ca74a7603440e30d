import { sliceCodepoints } from '@pinpoint/core';
import { describe, expect, it } from 'vitest';
import { splitSentences } from './sentences.js';

const pieces = (text: string): string[] => splitSentences(text).map((r) => sliceCodepoints(text, r.start, r.end));

describe('splitSentences', () => {
  it('keeps abbreviations, initials and decimals inside Latin sentences', () => {
    expect(pieces('Dr. Smith paid $2.50 in the U.S. yesterday. He left! J. R. Tolkien wrote "Hi." And so on')).toEqual([
      'Dr. Smith paid $2.50 in the U.S. yesterday.',
      'He left!',
      'J. R. Tolkien wrote "Hi."',
      'And so on',
    ]);
  });

  it('splits Japanese and Chinese on 。！？ keeping closing brackets', () => {
    expect(pieces('梅雨は5月から7月にかけて来る。雨季の一種である！「はい。」そうです')).toEqual([
      '梅雨は5月から7月にかけて来る。',
      '雨季の一種である！',
      '「はい。」',
      'そうです',
    ]);
  });

  it('returns codepoint ranges across astral characters', () => {
    const text = '𠮷野家は有名。次の文。';
    expect(splitSentences(text)).toEqual([
      { start: 0, end: 7 },
      { start: 7, end: 11 },
    ]);
  });

  it('breaks at blank lines and trims whitespace', () => {
    expect(pieces('  One line\nstill one\n\nNext  ')).toEqual(['One line\nstill one', 'Next']);
  });
});
