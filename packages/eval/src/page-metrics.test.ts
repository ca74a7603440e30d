import { describe, expect, it } from 'vitest';
import { computePageMetrics, rankedPages } from './page-metrics.js';

const gold = [{ file: '3M_2018_10K.pdf', page_index: 59 }];

describe('page metrics', () => {
  it('ranks pages by the first chunk that reaches them', () => {
    const pages = rankedPages([
      { file: 'a.pdf', page_index: 1 },
      { file: 'a.pdf', page_index: 1 },
      { file: 'a.pdf', page_index: 2 },
    ]);
    expect(pages).toEqual([
      { file: 'a.pdf', page_index: 1 },
      { file: 'a.pdf', page_index: 2 },
    ]);
  });

  it('counts the right document first, the evidence page in the first five pages, and answered', () => {
    const m = computePageMetrics([
      // Right document first, evidence page third among distinct pages (five chunks, three pages).
      {
        answerable: true,
        refused: false,
        gold,
        retrieved: [
          { file: '3M_2018_10K.pdf', page_index: 3 },
          { file: '3M_2018_10K.pdf', page_index: 3 },
          { file: 'VERIZON_2022_10K.pdf', page_index: 40 },
          { file: 'VERIZON_2022_10K.pdf', page_index: 40 },
          { file: '3M_2018_10K.pdf', page_index: 59 },
        ],
      },
      // Wrong document first, evidence page never reached, refused.
      { answerable: true, refused: true, gold, retrieved: [{ file: 'VERIZON_2022_10K.pdf', page_index: 40 }] },
      // Unanswerable questions do not count.
      { answerable: false, refused: true, gold: [], retrieved: [] },
    ]);
    expect(m).toEqual({ 'doc@1': 0.5, 'page_hit@5': 0.5, 'page_mrr@10': round(1 / 3 / 2), answered: 0.5 });
  });

  it('is absent when no gold gives a page', () => {
    expect(computePageMetrics([{ answerable: true, refused: false, gold: [{ file: 'a.txt' }], retrieved: [] }])).toBeUndefined();
  });
});

function round(x: number): number {
  return Math.round(x * 10000) / 10000;
}
