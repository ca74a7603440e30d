import type { FusedCandidate, GeneratedAnswer, QueryRewrite, SentenceSupport, StageNumbers } from '@pinpoint/answering';
import { denseCandidates, fuseRanks, mergeAnswers, rerankFused, rewriteQuery } from '@pinpoint/answering';
import type { Citation, LexicalHit, SearchFilter } from '@pinpoint/core';
import type { EnginePorts } from './config.js';

/** A candidate in stage order with the rank and score each stage gave it. */
export interface StagedHit {
  chunk_id: string;
  ranks: StageNumbers;
  scores: StageNumbers;
}

const ms = (t0: number): number => Math.round((performance.now() - t0) * 100) / 100;

/** The dense side's hits, on their way (wrapped: an async function would wait for them). */
export interface PendingDense {
  hits: Promise<LexicalHit[]>;
}

/**
 * Starts the dense side of a question before its lexical search: the question is embedded (the
 * encoder runs off this thread) and its search sent to the vector store at once, so the embedded
 * store's index thread walks its graph while the lexical search holds this thread, instead of after
 * it. `dense` is timed from the start to the hits' arrival. Without an embedder and a vector store
 * there is no dense side.
 */
export async function startDense(
  ports: EnginePorts,
  query: string,
  options: { k: number; filter: SearchFilter },
  timings: Record<string, number>,
): Promise<PendingDense> {
  const { embedder, vectors } = ports;
  if (!embedder || !vectors) return { hits: Promise.resolve([]) };
  const t0 = performance.now();
  const vector = await embedder.embedQuery(query);
  const hits = vectors.search(vector, { k: options.k, filter: options.filter }).then((h) => {
    timings.dense = ms(t0);
    return h;
  });
  // awaited after the lexical search; a failure meanwhile is not an unhandled rejection
  hits.catch(() => undefined);
  return { hits };
}

/**
 * Lexical hits alone, or — with an embedder and a vector store — lexical ∪ dense fused by
 * reciprocal rank, so either side can add candidates (DESIGN §5).
 */
export async function stagedCandidates(
  ports: EnginePorts,
  lexical: { chunk_id: string; score: number }[],
  dense: PendingDense,
  extra: { chunk_id: string; score: number }[][] = [],
): Promise<StagedHit[]> {
  if (!(ports.embedder && ports.vectors) && !ports.reranker && extra.length === 0) {
    return lexical.map((h, i) => ({ chunk_id: h.chunk_id, ranks: { lexical: i + 1 }, scores: { lexical: h.score } }));
  }
  return fuseRanks({ lexical, dense: await dense.hits, extra });
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

const NO_REWRITE: QueryRewrite = { paraphrases: [], parts: [] };

/** With rewriting on and a generator: two paraphrases and the parts of a compound question (one generator call). */
export async function rewriteFor(
  ports: EnginePorts,
  enabled: boolean | undefined,
  question: string,
  timings: Record<string, number>,
): Promise<QueryRewrite> {
  if (!enabled || !ports.generator) return NO_REWRITE;
  const t0 = performance.now();
  // A failed rewrite costs recall, never the answer.
  const rewrite = await rewriteQuery(ports.generator, question).catch(() => NO_REWRITE);
  timings.rewrite = ms(t0);
  return rewrite;
}

/** The lexical and dense hits of each paraphrase, as extra lists for the fusion. */
export async function paraphraseHits(
  ports: EnginePorts,
  paraphrases: string[],
  lexicalSearch: (query: string) => Promise<{ chunk_id: string; score: number }[]>,
  options: { k: number; filter: SearchFilter },
): Promise<{ chunk_id: string; score: number }[][]> {
  const lists = await Promise.all(
    paraphrases.map(async (p) => [await lexicalSearch(p), await denseCandidates(ports, p, options)]),
  );
  return lists.flat().filter((l) => l.length > 0);
}

interface PartAnswer<R> {
  answer: string;
  refused: boolean;
  citations: Citation[];
  sentences?: SentenceSupport[] | undefined;
  generator?: string | undefined;
  retrieved: R[];
}

/** One answer from the answers to a compound question's parts (citations renumbered per source; retrieved interleaved). */
export function mergePartAnswers<R extends { chunk_id: string }>(
  parts: PartAnswer<R>[],
  generator: string,
): PartAnswer<R> & { refusal_reason?: string } {
  const merged = mergeAnswers(
    parts.map((a) => ({
      refused: a.refused,
      answer: a.answer,
      citations: a.citations,
      sources: [],
      sentences: a.sentences ?? [],
      generator: a.generator ?? generator,
    })),
  );
  const retrieved: R[] = [];
  const seen = new Set<string>();
  for (let i = 0; retrieved.length < 10 && parts.some((p) => i < p.retrieved.length); i++) {
    for (const p of parts) {
      const r = p.retrieved[i];
      if (r && !seen.has(r.chunk_id) && retrieved.length < 10) {
        seen.add(r.chunk_id);
        retrieved.push(r);
      }
    }
  }
  return { ...generatedFields(merged), retrieved };
}
