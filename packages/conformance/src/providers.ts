import type { Generator, Reranker } from '@pinpoint/core';
import type { FakeServer } from '@pinpoint/testing';
import { expect, it } from 'vitest';

const SOURCES = [
  { n: 1, file: 'atlas.pdf', page_label: 'iv', text: 'Paris is the capital of France.' },
  { n: 2, file: 'notes.md', text: 'Lyon is known for its food.' },
];

/**
 * The Generator port's conformance suite (call inside a describe). The fake server must answer a
 * prompt containing "Question: conformance" with `expected`, and a refusal question with a reply
 * starting with the refusal marker.
 */
export function generatorConformance(make: () => Generator, server: () => FakeServer, expected: string): void {
  it('streams the answer in pieces that concatenate to the whole', async () => {
    const g = make();
    expect(g.id).toMatch(/\S/);
    const pieces: string[] = [];
    for await (const p of g.generate({ question: 'conformance: what is the capital?', sources: SOURCES, language: 'en' }))
      pieces.push(p);
    expect(pieces.join('')).toBe(expected);
    expect(pieces.length).toBeGreaterThan(1);
  });

  it('puts every numbered source with its file and page label into the prompt', async () => {
    const g = make();
    server().requests.length = 0;
    for await (const _ of g.generate({ question: 'conformance?', sources: SOURCES, language: 'ja' }));
    const body = JSON.stringify(server().requests.at(-1)?.body);
    expect(body).toContain('[1] atlas.pdf, page iv');
    expect(body).toContain('[2] notes.md');
    expect(body).toContain('Japanese');
    expect(body).toContain('NO_ANSWER:');
  });

  it('completes free-form prompts', async () => {
    expect(typeof (await make().complete('conformance: say something'))).toBe('string');
  });

  it('maps an exhausted rate limit to PP_PROVIDER_RATE_LIMITED', async () => {
    server().failures.push(429, 429, 429, 429, 429);
    await expect(make().complete('x')).rejects.toMatchObject({ code: 'PP_PROVIDER_RATE_LIMITED' });
    server().failures.length = 0;
  });
}

/** The Reranker port's conformance suite (call inside a describe). `relevant` must score above `other` for `query`. */
export function rerankerConformance(make: () => Promise<Reranker>, query: string, relevant: string, other: string): void {
  it('returns one score per candidate, best first, ids preserved', async () => {
    const r = await make();
    expect(r.id).toMatch(/\S/);
    const out = await r.rerank(query, [
      { chunk_id: 'other', text: other },
      { chunk_id: 'relevant', text: relevant },
    ]);
    expect(out.map((x) => x.chunk_id)).toEqual(['relevant', 'other']);
    expect(out[0]?.score).toBeGreaterThan(out[1]?.score ?? 0);
  });

  it('returns nothing for no candidates', async () => {
    expect(await (await make()).rerank(query, [])).toEqual([]);
  });
}
