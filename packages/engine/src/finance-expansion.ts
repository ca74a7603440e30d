import { expandFinanceTerms } from '@pinpoint/analysis';
import type { LexicalIndex, SearchFilter } from '@pinpoint/core';

/**
 * Statement pages by the words people use (issue 38 item 5): the question's financial-statement
 * terms ("capital expenditure") also search for their standard names ("purchases of property,
 * plant and equipment", 設備投資) at the lexicon's lower weight. The expansion's BM25 score, times
 * that weight, is added to the question's own; a chunk only the expansion finds enters the list
 * at that share of its score. The question's own score stays what the gate reads.
 */
export interface ExpandedHit {
  chunk_id: string;
  score: number;
}

/** The expansion queries of a question, one per weight (same language, other languages). */
function expansionQueries(question: string): { query: string; weight: number }[] {
  const byWeight = new Map<number, string[]>();
  for (const e of expandFinanceTerms(question)) byWeight.set(e.weight, [...(byWeight.get(e.weight) ?? []), e.term]);
  return [...byWeight].map(([weight, terms]) => ({ query: terms.join(' ; '), weight }));
}

/** The question's hits reordered by their score plus the weighted scores of its expansion queries. */
export async function withFinanceExpansion(
  index: LexicalIndex,
  question: string,
  hits: ExpandedHit[],
  options: { k: number; filter?: SearchFilter },
): Promise<ExpandedHit[]> {
  const queries = expansionQueries(question);
  if (queries.length === 0) return hits;
  const own = new Map(hits.map((h) => [h.chunk_id, h.score]));
  const extra = new Map<string, number>();
  for (const { query, weight } of queries) {
    for (const h of await index.search(query, options)) extra.set(h.chunk_id, (extra.get(h.chunk_id) ?? 0) + weight * h.score);
  }
  const ids = new Set([...own.keys(), ...extra.keys()]);
  const ranked = [...ids].map((id) => ({ id, total: (own.get(id) ?? 0) + (extra.get(id) ?? 0) }));
  ranked.sort((a, b) => b.total - a.total);
  return ranked.slice(0, options.k).map(({ id, total }) => ({ chunk_id: id, score: own.get(id) ?? total }));
}
