import type { Generator, Reranker } from '@pinpoint/core';

/** The prompt: numbered passages, one "n: score" line each back, 0–10. */
function buildRerankPrompt(query: string, texts: string[]): string {
  const passages = texts.map((t, i) => `[${i + 1}] ${t.replace(/\s+/g, ' ').slice(0, 1200)}`).join('\n\n');
  return [
    'Rate how well each passage answers the question, from 0 (unrelated) to 10 (answers it directly).',
    'Reply with one line per passage, exactly "n: score", and nothing else.',
    '',
    `Question: ${query}`,
    '',
    passages,
  ].join('\n');
}

export function parseRerankScores(reply: string, count: number): number[] {
  const scores = new Array<number>(count).fill(0);
  for (const m of reply.matchAll(/\[?(\d+)\]?\s*[:=-]\s*(\d+(?:\.\d+)?)/g)) {
    const n = Number(m[1]);
    if (n >= 1 && n <= count) scores[n - 1] = Math.min(10, Number(m[2]));
  }
  return scores;
}

/** Listwise scoring by the configured generator, in one call per batch of candidates. */
export function createLlmReranker(generator: Generator, batchSize = 20): Reranker {
  return {
    id: `llm:${generator.id}`,
    async rerank(query, candidates, signal) {
      const out: { chunk_id: string; score: number }[] = [];
      for (let i = 0; i < candidates.length; i += batchSize) {
        const batch = candidates.slice(i, i + batchSize);
        const reply = await generator.complete(
          buildRerankPrompt(
            query,
            batch.map((c) => c.text),
          ),
          signal,
        );
        const scores = parseRerankScores(reply, batch.length);
        for (const [j, c] of batch.entries()) out.push({ chunk_id: c.chunk_id, score: scores[j] ?? 0 });
      }
      // Stable: equal scores keep the incoming (fused) order.
      return out
        .map((x, i) => ({ ...x, i }))
        .sort((a, b) => b.score - a.score || a.i - b.i)
        .map(({ chunk_id, score }) => ({ chunk_id, score }));
    },
  };
}
