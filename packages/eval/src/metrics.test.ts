import { describe, expect, it } from 'vitest';
import { computeMetrics } from './metrics.js';
import { isRelevant } from './relevance.js';

describe('isRelevant', () => {
  const gold = [{ file: 'a.pdf', page_index: 2, quote: 'The fee is $2,500 for each   claim filed.' }];
  it('normalises whitespace, width and case before matching', () => {
    expect(isRelevant({ file: 'a.pdf', page_index: 2, text: 'THE FEE IS ＄2,500 for each claim' }, gold, ['$2,500'])).toBe(true);
  });
  it('requires the gold file, page, answer and a 12-codepoint shared substring', () => {
    const text = 'the fee is $2,500 for each claim';
    expect(isRelevant({ file: 'b.pdf', page_index: 2, text }, gold, ['$2,500'])).toBe(false);
    expect(isRelevant({ file: 'a.pdf', page_index: 1, text }, gold, ['$2,500'])).toBe(false);
    expect(isRelevant({ file: 'a.pdf', page_index: 2, text }, gold, ['$3,000'])).toBe(false);
    expect(isRelevant({ file: 'a.pdf', page_index: 2, text: 'fee $2,500' }, gold, ['$2,500'])).toBe(false);
  });
});

describe('computeMetrics', () => {
  it('scores a tiny hand-made run', () => {
    const m = computeMetrics([
      { answerable: true, refused: false, relevant: [true, false], latency_ms: 1 },
      { answerable: true, refused: false, relevant: [false, false, true], latency_ms: 2 },
      { answerable: true, refused: true, relevant: [false], latency_ms: 3 },
      { answerable: false, refused: true, relevant: [], latency_ms: 4 },
    ]);
    expect(m['hit@1']).toBeCloseTo(1 / 3, 3);
    expect(m['hit@3']).toBeCloseTo(2 / 3, 3);
    expect(m['mrr@10']).toBeCloseTo((1 + 1 / 3) / 3, 3);
    expect(m['ndcg@10']).toBeCloseTo((1 + 0.5) / 3, 3);
    expect(m.refusal_precision).toBe(0.5);
    expect(m.refusal_recall).toBe(1);
    expect(m.answerable_recall).toBeCloseTo(2 / 3, 3);
    expect(m.latency_ms.p50).toBe(2);
    expect(m.latency_ms.p95).toBe(4);
  });
});
