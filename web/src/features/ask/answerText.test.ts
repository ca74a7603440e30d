import { describe, expect, it } from 'vitest';
import { en } from '../../i18n/messages/en.js';
import { answerSegments, formatScore, gateReasonMessage, refusalReasonMessage } from './answerText.js';

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

describe('refusalReasonMessage', () => {
  it('words known reason codes from the catalogue and leaves others to the caller', () => {
    expect(en[refusalReasonMessage('weak-evidence') ?? 'app.loading']).toMatch(/enough evidence/);
    expect(refusalReasonMessage('custom words')).toBeNull();
    expect(refusalReasonMessage(undefined)).toBeNull();
  });
});

describe('gateReasonMessage', () => {
  it('turns the gate’s code and params into a catalogue message with its values and words', () => {
    expect(gateReasonMessage({ reason_code: 'partial', reason_params: { coverage: 0.4, words: ['賞与'] } })).toEqual({
      id: 'reason.partial',
      values: { coverage: 0.4 },
      words: ['賞与'],
    });
    expect(gateReasonMessage({ reason_code: 'answered', reason_params: { coverage: 1, words: [] } })?.id).toBe('reason.answered');
    expect(gateReasonMessage({ reason_code: 'answered', reason_params: { coverage: 1, words: ['a'] } })?.id).toBe(
      'reason.answeredIncluding',
    );
    expect(gateReasonMessage({ reason_code: 'table', reason_params: { file: 'a.xlsx', other: 'b.csv' } })).toMatchObject({
      id: 'reason.tableOther',
      values: { file: 'a.xlsx', other: 'b.csv' },
    });
  });

  it('leaves an unknown code or an older answer (English line only) to the English line', () => {
    expect(gateReasonMessage({ reason: 'Answered: …' })).toBeNull();
    expect(gateReasonMessage({ reason_code: 'a-newer-code', reason: 'x' })).toBeNull();
    expect(gateReasonMessage(undefined)).toBeNull();
  });
});
