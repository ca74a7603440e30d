import type { Embedder, LexicalHit, Reranker, SearchFilter, VectorStore } from '@pinpoint/core';

/** Rank (1-based) and score a chunk got at each stage; absent where the stage did not see it. */
export interface StageNumbers {
  lexical?: number;
  dense?: number;
  fused?: number;
  rerank?: number;
}

export interface FusedCandidate {
  chunk_id: string;
  ranks: StageNumbers & { fused: number };
  scores: StageNumbers & { fused: number };
}

export interface FusionOptions {
  /** The RRF constant: score = Σ 1 / (k + rank). 60 unless measured otherwise (README). */
  k?: number;
  /** Per-list weights (default 1 each). */
  weights?: { lexical?: number; dense?: number };
}

export const DEFAULT_RRF_K = 60;

type Entry = FusedCandidate & { best: number; order: number };

function entry(byId: Map<string, Entry>, chunkId: string, rank: number): Entry {
  let c = byId.get(chunkId);
  if (!c) {
    c = { chunk_id: chunkId, ranks: { fused: 0 }, scores: { fused: 0 }, best: rank, order: byId.size };
    byId.set(chunkId, c);
  }
  c.best = Math.min(c.best, rank);
  return c;
}

/**
 * Reciprocal-rank fusion by rank, not score: either list can add a chunk the other missed.
 * `extra` lists (e.g. the hits of query rewrites) add to the fused score without a stage of their own.
 * Ties keep the better best-rank, then first appearance, so the result is deterministic.
 */
export function fuseRanks(
  lists: { lexical?: LexicalHit[]; dense?: LexicalHit[]; extra?: LexicalHit[][] },
  options: FusionOptions = {},
): FusedCandidate[] {
  const k = options.k ?? DEFAULT_RRF_K;
  const byId = new Map<string, Entry>();
  for (const stage of ['lexical', 'dense'] as const) {
    const weight = options.weights?.[stage] ?? 1;
    for (const [i, hit] of (lists[stage] ?? []).entries()) {
      const c = entry(byId, hit.chunk_id, i + 1);
      if (c.ranks[stage] !== undefined) continue;
      c.ranks[stage] = i + 1;
      c.scores[stage] = hit.score;
      c.scores.fused += weight / (k + i + 1);
    }
  }
  for (const list of lists.extra ?? []) {
    const seen = new Set<string>();
    for (const [i, hit] of list.entries()) {
      if (seen.has(hit.chunk_id)) continue;
      seen.add(hit.chunk_id);
      entry(byId, hit.chunk_id, i + 1).scores.fused += 1 / (k + i + 1);
    }
  }
  const fused = [...byId.values()].sort((a, b) => b.scores.fused - a.scores.fused || a.best - b.best || a.order - b.order);
  return fused.map(({ best: _b, order: _o, ...c }, i) => ({ ...c, ranks: { ...c.ranks, fused: i + 1 } }));
}

/** Dense candidates for a query: embed it and search the vector store (empty without an embedder). */
export async function denseCandidates(
  ports: { embedder?: Embedder | null; vectors?: VectorStore | null },
  query: string,
  options: { k: number; filter?: SearchFilter; signal?: AbortSignal },
): Promise<LexicalHit[]> {
  if (!ports.embedder || !ports.vectors) return [];
  const vector = await ports.embedder.embedQuery(query, options.signal);
  return ports.vectors.search(vector, { k: options.k, ...(options.filter ? { filter: options.filter } : {}) });
}

/**
 * Reorders the first `top` fused candidates by the reranker's scores (the rest keep their fused
 * order after them) and records each one's rerank rank and score.
 */
export async function rerankFused(
  reranker: Reranker | null | undefined,
  query: string,
  fused: FusedCandidate[],
  textOf: (chunkId: string) => string | undefined,
  options: { top?: number; signal?: AbortSignal } = {},
): Promise<FusedCandidate[]> {
  if (!reranker || fused.length === 0) return fused;
  const head = fused.slice(0, options.top ?? 20);
  const candidates = head.flatMap((c) => {
    const text = textOf(c.chunk_id);
    return text === undefined ? [] : [{ chunk_id: c.chunk_id, text }];
  });
  const scored = await reranker.rerank(query, candidates, options.signal);
  const byId = new Map(head.map((c) => [c.chunk_id, c]));
  const reranked = scored.flatMap((s, i) => {
    const c = byId.get(s.chunk_id);
    if (!c) return [];
    byId.delete(s.chunk_id);
    return [{ ...c, ranks: { ...c.ranks, rerank: i + 1 }, scores: { ...c.scores, rerank: s.score } }];
  });
  return [...reranked, ...byId.values(), ...fused.slice(head.length)];
}
