import { describe, expect, it } from 'vitest';
import { termsOf } from './candidates.js';
import type { GateFeatures } from './gate.js';
import { explainGate, gateReasonText, type ReasonInput } from './gate-reason.js';

const features = (patch: Partial<GateFeatures>): GateFeatures =>
  new Proxy(patch as GateFeatures, { get: (target, key) => (target as unknown as Record<string | symbol, number>)[key] ?? 0 });

/** A question whose every term the index knows (weight 1) unless named in `unseen` (weight 0). */
function input(
  question: string,
  patch: Partial<GateFeatures>,
  window: string,
  refused = true,
  unseen: string[] = [],
): ReasonInput {
  const zero = new Set(unseen.flatMap(termsOf));
  return {
    question,
    refused,
    features: features({ type_ok: 1, known: 1, ...patch }),
    queryTerms: termsOf(question).map((term) => ({ term, weight: zero.has(term) ? 0 : 1 })),
    windowTerms: new Set(termsOf(window)),
  };
}

describe('the gate’s reason, as a code with params and as English', () => {
  it('names what the cited passage holds when it answered', () => {
    const detail = explainGate(
      input('What is the annual salary of the chief executive?', { cov_all: 0.75 }, 'chief executive salary', false),
    );
    expect(detail).toEqual({ code: 'answered', params: { coverage: 0.75, words: ['salary', 'chief executive'] } });
    expect(gateReasonText(detail)).toBe(
      'Answered: the cited passage holds 75% of the question, including “salary” and “chief executive”.',
    );
  });

  it('names the words no document mentions', () => {
    const detail = explainGate(
      input('What is the bonus of the chief executive?', { cov_all: 0.6, known: 0.5 }, 'chief executive', true, ['bonus']),
    );
    expect(detail).toEqual({ code: 'unseen', params: { words: ['bonus'] } });
    expect(gateReasonText(detail)).toBe('Nothing in your documents mentions “bonus”.');
  });

  it('names the words the closest passage lacks, for a Japanese question too', () => {
    const detail = explainGate(input('社長の賞与はいくらですか', { cov_all: 0.3 }, '社長'));
    expect(detail.code).toBe('partial');
    expect(detail.params).toMatchObject({ coverage: 0.3 });
    expect((detail.params as { words: string[] }).words.join('')).toContain('賞与');
  });

  it('gives the feature that refused when every word is there', () => {
    const q = 'Which year did the company not grow?';
    expect(explainGate(input(q, { cov_all: 1, negation_mismatch: 1 }, q)).code).toBe('negation');
    expect(explainGate(input(q, { cov_all: 1, number_mismatch: 1 }, q)).code).toBe('number');
    expect(explainGate(input(q, { cov_all: 1, type_ok: 0 }, q))).toEqual({ code: 'type', params: {} });
    expect(explainGate(input(q, { cov_all: 1 }, q)).code).toBe('echo');
  });
});
