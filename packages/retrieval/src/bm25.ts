import { termKind } from '@pinpoint/analysis';

/** BM25 parameters; term weights by analyzer term kind (CJK bigrams vs dictionary words). */
export interface Bm25Params {
  k1: number;
  b: number;
  weights: { word: number; bigram: number; unigram: number; pair: number };
}

export const DEFAULT_BM25: Readonly<Bm25Params> = Object.freeze({
  k1: 1.2,
  b: 0.75,
  weights: Object.freeze({ word: 1, bigram: 1, unigram: 1, pair: 0.5 }),
});

export function idf(df: number, n: number): number {
  return Math.log(1 + (n - df + 0.5) / (df + 0.5));
}

/**
 * A term's BM25 score in a chunk of length `len`: its weight `w` (idf and kind) times its saturated
 * frequency. Every path scores with this one expression, so exhaustive, block-max and term-at-a-time
 * sums agree bit for bit.
 */
export function bm25Term(w: number, tf: number, len: number, k1: number, b: number, avg: number): number {
  return (w * tf * (k1 + 1)) / (tf + k1 * (1 - b + (b * len) / avg));
}

export function termWeight(term: string, p: Bm25Params): number {
  return p.weights[termKind(term)];
}

/** A query term's weight by its kind with the default parameters (for the PostgreSQL and Qdrant adapters). */
export function defaultTermWeight(term: string): number {
  return termWeight(term, DEFAULT_BM25);
}

/** Query terms with their counts, in first-seen order. */
export function countTerms(terms: string[]): Map<string, number> {
  const m = new Map<string, number>();
  for (const t of terms) m.set(t, (m.get(t) ?? 0) + 1);
  return m;
}
