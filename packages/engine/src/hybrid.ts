import type { FusedCandidate, GeneratedAnswer, SentenceSupport, StageNumbers } from '@pinpoint/answering';
import { denseCandidates, fuseRanks, rerankFused } from '@pinpoint/answering';
import type { Citation, SearchFilter } from '@pinpoint/core';
import type { EnginePorts } from './config.js';

/** A candidate in stage order with the rank and score each stage gave it. */
export interface StagedHit {
  chunk_id: string;
  ranks: StageNumbers;
  scores: StageNumbers;
}

const ms = (t0: number): number => Math.round((performance.now() - t0) * 100) / 100;

/**
 * Lexical hits alone, or — with an embedder and a vector store — lexical ∪ dense fused by
 * reciprocal rank, so either side can add candidates (DESIGN §5).
 */
export async function stagedCandidates(
  ports: EnginePorts,
  query: string,
  lexical: { chunk_id: string; score: number }[],
  options: { k: number; filter: SearchFilter },
  timings: Record<string, number>,
): Promise<StagedHit[]> {
  if (!(ports.embedder && ports.vectors) && !ports.reranker) {
    return lexical.map((h, i) => ({ chunk_id: h.chunk_id, ranks: { lexical: i + 1 }, scores: { lexical: h.score } }));
  }
  const t0 = performance.now();
  const dense = await denseCandidates(ports, query, options);
  if (ports.embedder && ports.vectors) timings.dense = ms(t0);
  return fuseRanks({ lexical, dense });
}

/** Reorders the head of the fused candidates with the configured reranker (none: unchanged). */
export async function rerankStaged(
  ports: EnginePorts,
  query: string,
  staged: StagedHit[],
  textOf: (chunkId: string) => string | undefined,
  timings: Record<string, number>,
): Promise<StagedHit[]> {
  if (!ports.reranker) return staged;
  const t0 = performance.now();
  const out = await rerankFused(ports.reranker, query, staged as FusedCandidate[], textOf);
  timings.rerank = ms(t0);
  return out;
}

/** The parts of a generated answer that go into the engine's Answer. */
export function generatedFields(g: GeneratedAnswer): {
  answer: string;
  refused: boolean;
  refusal_reason?: string;
  citations: Citation[];
  sentences: SentenceSupport[];
  generator: string;
} {
  return {
    answer: g.answer,
    refused: g.refused,
    ...(g.refusal_reason ? { refusal_reason: g.refusal_reason } : {}),
    citations: g.citations,
    sentences: g.sentences,
    generator: g.generator,
  };
}
