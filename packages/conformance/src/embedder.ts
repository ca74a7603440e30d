import type { Embedder } from '@pinpoint/core';
import { expect, it } from 'vitest';

function cosine(a: Float32Array, b: Float32Array): number {
  let dot = 0;
  for (let i = 0; i < a.length; i++) dot += (a[i] ?? 0) * (b[i] ?? 0);
  return dot;
}

/** The Embedder port's conformance suite; every adapter runs it. Call inside a describe(). */
export function embedderConformance(make: () => Embedder | Promise<Embedder>): void {
  it('has an id and returns unit vectors of its dimensions, in input order', async () => {
    const e = await make();
    expect(e.id).toMatch(/\S/);
    const texts = ['the refund policy allows thirty days', 'parking permits are issued monthly', 'refund within thirty days'];
    const vs = await e.embedDocuments(texts);
    expect(vs).toHaveLength(3);
    for (const v of vs) {
      expect(v).toBeInstanceOf(Float32Array);
      expect(v.length).toBe(e.dimensions);
      expect(Math.abs(cosine(v, v) - 1)).toBeLessThan(1e-4);
    }
    const [a, b, c] = vs as [Float32Array, Float32Array, Float32Array];
    expect(cosine(a, c)).toBeGreaterThan(cosine(a, b));
    const again = await e.embedDocuments([texts[2] as string]);
    expect(Array.from(again[0] ?? [])).toEqual(Array.from(c).map((x) => expect.closeTo(x, 5)));
  });

  it('embeds a query into the same space', async () => {
    const e = await make();
    const q = await e.embedQuery('refund thirty days');
    const [doc, other] = await e.embedDocuments(['refund policy: thirty days', 'parking permits']);
    expect(q.length).toBe(e.dimensions);
    expect(cosine(q, doc as Float32Array)).toBeGreaterThan(cosine(q, other as Float32Array));
  });

  it('returns nothing for no texts', async () => {
    const e = await make();
    expect(await e.embedDocuments([])).toEqual([]);
  });
}
