import { describe, expect, it } from 'vitest';
import { fuseRanks, rerankFused } from './fusion.js';

const hits = (...ids: string[]) => ids.map((chunk_id, i) => ({ chunk_id, score: 10 - i }));

describe('reciprocal-rank fusion', () => {
  it('fuses by rank and lets either side add candidates', () => {
    const fused = fuseRanks({ lexical: hits('a', 'b', 'c'), dense: hits('b', 'd') });
    expect(fused.map((f) => f.chunk_id)).toEqual(['b', 'a', 'd', 'c']);
    const b = fused[0];
    expect(b?.ranks).toEqual({ lexical: 2, dense: 1, fused: 1 });
    expect(b?.scores.fused).toBeCloseTo(1 / 62 + 1 / 61, 10);
    expect(b?.scores.lexical).toBe(9);
    expect(fused.find((f) => f.chunk_id === 'd')?.ranks).toEqual({ dense: 2, fused: 3 });
    expect(fused.find((f) => f.chunk_id === 'c')?.ranks.dense).toBeUndefined();
  });

  it('ignores scores (only ranks count) and works with one side alone', () => {
    const a = fuseRanks({
      lexical: [
        { chunk_id: 'x', score: 1000 },
        { chunk_id: 'y', score: 0.1 },
      ],
      dense: [{ chunk_id: 'y', score: 0.99 }],
    });
    expect(a.map((f) => f.chunk_id)).toEqual(['y', 'x']);
    expect(fuseRanks({ dense: hits('p', 'q') }).map((f) => f.chunk_id)).toEqual(['p', 'q']);
    expect(fuseRanks({})).toEqual([]);
  });

  it('reranks the head and keeps per-stage numbers', async () => {
    const fused = fuseRanks({ lexical: hits('a', 'b', 'c') });
    const reranker = {
      id: 'r',
      rerank: async (_q: string, cs: { chunk_id: string }[]) => cs.map((c, i) => ({ chunk_id: c.chunk_id, score: i })).reverse(),
    };
    const out = await rerankFused(reranker, 'q', fused, (id) => `text ${id}`, { top: 2 });
    expect(out.map((c) => c.chunk_id)).toEqual(['b', 'a', 'c']);
    expect(out[0]?.ranks).toEqual({ lexical: 2, fused: 2, rerank: 1 });
    expect(out[0]?.scores.rerank).toBe(1);
    expect(out[2]?.ranks.rerank).toBeUndefined();
  });
});

describe('fusion with rewrite lists', () => {
  it('lets the hits of paraphrases add candidates and weight without a stage of their own', () => {
    const fused = fuseRanks({ lexical: hits('a', 'b'), extra: [hits('c', 'b'), hits('b')] });
    expect(fused.map((f) => f.chunk_id)).toEqual(['b', 'a', 'c']);
    expect(fused[0]?.ranks).toEqual({ lexical: 2, fused: 1 });
    expect(fused[2]?.ranks).toEqual({ fused: 3 });
  });
});
