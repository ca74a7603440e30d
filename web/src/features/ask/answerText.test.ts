import { describe, expect, it } from 'vitest';
import { answerSegments, formatScore, refusalReasonText } from './answerText.js';

describe('answerSegments', () => {
  it('turns known citation markers into pills and keeps the rest as text', () => {
    expect(answerSegments('梅雨は5月から7月。[1] 雨季の一種。[2][7]', new Set([1, 2]))).toEqual([
      { kind: 'text', text: '梅雨は5月から7月。' },
      { kind: 'cite', n: 1 },
      { kind: 'text', text: ' 雨季の一種。' },
      { kind: 'cite', n: 2 },
      { kind: 'text', text: '[7]' },
    ]);
  });

  it('returns plain text when there are no citations', () => {
    expect(answerSegments('no sources', new Set())).toEqual([{ kind: 'text', text: 'no sources' }]);
    expect(answerSegments('', new Set())).toEqual([]);
  });
});

describe('formatScore', () => {
  it('formats by magnitude', () => {
    expect(formatScore(undefined)).toBe('—');
    expect(formatScore(Number.NaN)).toBe('—');
    expect(formatScore(12.345)).toBe('12.35');
    expect(formatScore(0.0325)).toBe('0.0325');
    expect(formatScore(123.45)).toBe('123.5');
    expect(formatScore(0.00001)).toBe('1.0e-5');
  });
});

describe('refusalReasonText', () => {
  it('explains known reasons and passes others through', () => {
    expect(refusalReasonText('weak-evidence')).toMatch(/enough evidence/);
    expect(refusalReasonText('custom words')).toBe('custom words');
    expect(refusalReasonText(undefined)).toBeNull();
  });
});
