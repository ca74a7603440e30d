/**
 * BM25 term weights as a sparse vector for Qdrant (`modifier: idf` supplies the IDF part on the
 * server). Terms are the analyzer's tokens hashed to uint32 ids with FNV-1a; collisions only merge
 * two rare terms' weights.
 */
export interface SparseVector {
  indices: number[];
  values: number[];
}

export function termId(term: string): number {
  let h = 2166136261;
  for (const ch of term) {
    const cp = ch.codePointAt(0) ?? 0;
    h = Math.imul(h ^ (cp & 0xff), 16777619);
    if (cp > 0xff) h = Math.imul(h ^ (cp >>> 8), 16777619);
  }
  return h >>> 0;
}

export interface Bm25Params {
  k1?: number;
  b?: number;
  /** Average document length in tokens (a corpus statistic the client cannot see; 120 fits our chunks). */
  avgDocLength?: number;
}

function counts(tokens: string[]): Map<number, number> {
  const tf = new Map<number, number>();
  for (const t of tokens) tf.set(termId(t), (tf.get(termId(t)) ?? 0) + 1);
  return tf;
}

/** Document side: saturated, length-normalised term frequency. */
export function documentSparse(tokens: string[], params: Bm25Params = {}): SparseVector {
  const { k1 = 1.2, b = 0.75, avgDocLength = 120 } = params;
  const norm = k1 * (1 - b + (b * tokens.length) / avgDocLength);
  const entries = [...counts(tokens)].sort((x, y) => x[0] - y[0]);
  return { indices: entries.map(([id]) => id), values: entries.map(([, tf]) => (tf * (k1 + 1)) / (tf + norm)) };
}

/** Query side: each distinct term once, at its kind's weight (the server multiplies in the IDF). */
export function querySparse(tokens: string[], termWeight: (term: string) => number = () => 1): SparseVector {
  const byId = new Map<number, number>();
  for (const t of new Set(tokens)) byId.set(termId(t), Math.max(byId.get(termId(t)) ?? 0, termWeight(t)));
  const entries = [...byId].sort((x, y) => x[0] - y[0]);
  return { indices: entries.map(([id]) => id), values: entries.map(([, w]) => w) };
}
