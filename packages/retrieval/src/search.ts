import type { LexicalIndex, QueryTerm, SearchFilter } from '@pinpoint/core';

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
  /** Analysed query terms with their IDF weights from the index (for the answer gate). */
  query_terms: QueryTerm[];
  timings_ms: { lexical: number };
}

/** Query → top-k chunk ids, with the rank and score of every stage that produced them. */
export async function searchLexical(
  index: LexicalIndex,
  query: string,
  options: { k: number; filter?: SearchFilter },
): Promise<SearchResult> {
  const t0 = performance.now();
  const [hits, queryTerms] = await Promise.all([
    index.search(query, options),
    index.queryTerms(query, options.filter ? { filter: options.filter } : {}),
  ]);
  const lexical = performance.now() - t0;
  return {
    hits: hits.map((h, i) => ({
      chunk_id: h.chunk_id,
      rank: i + 1,
      score: h.score,
      stages: { lexical: { rank: i + 1, score: h.score } },
    })),
    query_terms: queryTerms,
    timings_ms: { lexical },
  };
}
