import { analyze, splitSentences } from '@pinpoint/analysis';
import type { Chunk, Element } from '@pinpoint/core';
import { sliceCodepoints } from '@pinpoint/core';

/** A chunk from the store with what the answerer needs to cite it. */
export interface RankedChunk {
  chunk: Chunk;
  /** At least the elements the chunk covers. */
  elements: Element[];
  /** Original file name of the document. */
  file: string;
  /** 1-based rank in the retrieved list. */
  rank: number;
  score: number;
  page_label?: string;
}

export interface QueryTermWeight {
  term: string;
  weight: number;
}

/** A sentence of a retrieved chunk: its element and codepoint range in the element's text. */
export interface Candidate {
  source: RankedChunk;
  element: Element;
  start: number;
  end: number;
  text: string;
  terms: Set<string>;
  /** Position within the chunk, for windows. */
  position: number;
}

export function chunkSentences(source: RankedChunk): Candidate[] {
  const out: Candidate[] = [];
  for (const ref of source.chunk.elements) {
    const element = source.elements.find((e) => e.element_id === ref.element_id);
    if (!element) continue;
    const covered = sliceCodepoints(element.text, ref.start, ref.end);
    for (const r of splitSentences(covered)) {
      const text = sliceCodepoints(covered, r.start, r.end);
      if (!/[\p{L}\p{N}]/u.test(text)) continue;
      out.push({
        source,
        element,
        start: ref.start + r.start,
        end: ref.start + r.end,
        text,
        terms: new Set(analyze(text)),
        position: out.length,
      });
    }
  }
  return out;
}

/** Query terms with weights; without index statistics every distinct term weighs 1. */
export function queryWeights(question: string, given: QueryTermWeight[] | undefined): QueryTermWeight[] {
  if (given && given.length > 0) return given.filter((t) => t.weight > 0);
  return [...new Set(analyze(question))].map((term) => ({ term, weight: 1 }));
}

/** IDF-weighted share of the query found in a set of terms (0..1). */
export function coverage(query: QueryTermWeight[], terms: Set<string> | ((t: string) => boolean)): number {
  const has = typeof terms === 'function' ? terms : (t: string) => terms.has(t);
  let total = 0;
  let found = 0;
  for (const q of query) {
    total += q.weight;
    if (has(q.term)) found += q.weight;
  }
  return total === 0 ? 0 : found / total;
}
