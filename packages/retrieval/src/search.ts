import type { LexicalIndex, SearchFilter } from '@pinpoint/core';
import { SqliteLexicalIndex } from './sqlite-index.js';

export interface StageScore {
  rank: number;
  score: number;
}

export interface SearchHit {
  chunk_id: string;
  /** 1-based rank in the final list. */
  rank: number;
  score: number;
  stages: { lexical: StageScore };
}

export interface SearchResult {
  hits: SearchHit[];
  /** Analysed query terms with their IDF weights, when the index can tell (for the answer gate). */
  query_terms: { term: string; weight: number }[];
  timings_ms: { lexical: number };
}

/** Query → top-k chunk ids, with the rank and score of every stage that produced them. */
export async function searchLexical(
  index: LexicalIndex,
  query: string,
  options: { k: number; filter?: SearchFilter },
): Promise<SearchResult> {
  const t0 = performance.now();
  const hits = await index.search(query, options);
  const lexical = performance.now() - t0;
  return {
    hits: hits.map((h, i) => ({
      chunk_id: h.chunk_id,
      rank: i + 1,
      score: h.score,
      stages: { lexical: { rank: i + 1, score: h.score } },
    })),
    query_terms: index instanceof SqliteLexicalIndex ? index.queryTerms(query) : [],
    timings_ms: { lexical },
  };
}
