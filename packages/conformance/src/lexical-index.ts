import type { IndexedChunk, LexicalIndex } from '@pinpoint/core';
import { describe, expect, it } from 'vitest';
import type { PortFactory } from './fixture.js';

function chunk(id: string, version: string, text: string, extra: Partial<IndexedChunk> = {}): IndexedChunk {
  return {
    chunk_id: id,
    version_id: version,
    document_id: `doc-${version}`,
    collection_id: 'col-a',
    retrieval_text: text,
    ...extra,
  };
}

const CORPUS: IndexedChunk[] = [
  chunk('v1:c0', 'v1', 'Travel policy: the reimbursement limit for hotels is 2500 dollars per trip.', { page_index: 0 }),
  chunk('v1:c1', 'v1', 'Holiday calendar and office opening hours for the whole year.', { page_index: 1 }),
  chunk('v2:c0', 'v2', 'Expense forms go to finance. Finance answers within a week.', { page_index: 0 }),
  chunk('v3:c0', 'v3', 'Hotel reimbursement in the other collection.', { collection_id: 'col-b' }),
];

export interface LexicalIndexTraits {
  /**
   * Whether BM25 statistics come from the filter's collections only (false: the store computes
   * them over everything it holds, as Qdrant's `modifier: idf` does).
   */
  scopedStatistics: boolean;
}

/** The LexicalIndex port's semantics: ranking, upsert by chunk id, version deletion, filters, k. */
export function describeLexicalIndexConformance(
  name: string,
  factory: PortFactory<LexicalIndex>,
  traits: LexicalIndexTraits = { scopedStatistics: true },
): void {
  const use = (fn: (index: LexicalIndex) => Promise<void>) => async () => {
    const fixture = await factory();
    try {
      await fn(fixture.port);
    } finally {
      await fixture.dispose();
    }
  };
  const ids = (hits: { chunk_id: string }[]) => hits.map((h) => h.chunk_id);

  describe(`LexicalIndex conformance: ${name}`, () => {
    it(
      'ranks the chunk that matches the query best first, scores descending, and finds nothing for absent words',
      use(async (index) => {
        await index.upsert(CORPUS);
        const hits = await index.search('hotel reimbursement limit', { k: 10 });
        expect(hits[0]?.chunk_id).toBe('v1:c0');
        expect(ids(hits)).not.toContain('v1:c1');
        expect(hits.map((h) => h.score)).toEqual([...hits.map((h) => h.score)].sort((a, b) => b - a));
        expect(await index.search('zeppelin', { k: 10 })).toEqual([]);
        expect(await index.search('', { k: 10 })).toEqual([]);
        expect(await index.search('hotel reimbursement', { k: 1 })).toHaveLength(1);
      }),
    );

    it(
      'upsert replaces a chunk by id (its old words are forgotten)',
      use(async (index) => {
        await index.upsert(CORPUS);
        await index.upsert([chunk('v1:c1', 'v1', 'Parking garage rules.', { page_index: 1 })]);
        expect(ids(await index.search('holiday calendar', { k: 10 }))).toEqual([]);
        expect(ids(await index.search('parking garage', { k: 10 }))).toEqual(['v1:c1']);
      }),
    );

    it(
      'deleteVersion takes every chunk of the version out of search, and only those',
      use(async (index) => {
        await index.upsert(CORPUS);
        await index.deleteVersion('v1');
        await index.deleteVersion('v-missing');
        const left = ids(await index.search('reimbursement hotel holiday finance', { k: 10 }));
        expect(left.sort()).toEqual(['v2:c0', 'v3:c0']);
      }),
    );

    it(
      'gives the query terms in first-seen order with their IDF weights: rare > common > absent = 0',
      use(async (index) => {
        await index.upsert(CORPUS);
        expect(await index.queryTerms('')).toEqual([]);
        const terms = await index.queryTerms('finance zeppelin hotel finance');
        expect(new Set(terms.map((t) => t.term)).size).toBe(terms.length);
        const [finance, zeppelin, hotel] = terms;
        expect(finance?.term).toMatch(/^financ/);
        expect(zeppelin?.term).toBe('zeppelin');
        expect(hotel?.term).toBe('hotel');
        // BM25 IDF over 4 chunks: "finance" is in 1 of them, "hotel" in 2.
        expect(finance?.weight).toBeCloseTo(Math.log(1 + 3.5 / 1.5), 4);
        expect(hotel?.weight).toBeCloseTo(Math.log(1 + 2.5 / 2.5), 4);
        expect(zeppelin?.weight).toBe(0);
        await index.deleteVersion('v2');
        expect((await index.queryTerms('finance'))[0]?.weight).toBe(0);
      }),
    );

    it(
      'filters by collection, document, version and page',
      use(async (index) => {
        await index.upsert(CORPUS);
        const q = 'reimbursement hotel finance holiday';
        expect(ids(await index.search(q, { k: 10, filter: { collectionIds: ['col-b'] } }))).toEqual(['v3:c0']);
        expect(ids(await index.search(q, { k: 10, filter: { documentIds: ['doc-v2'] } }))).toEqual(['v2:c0']);
        expect(ids(await index.search(q, { k: 10, filter: { versionIds: ['v1'], pageIndexes: [1] } }))).toEqual(['v1:c1']);
        expect(ids(await index.search(q, { k: 10, filter: { versionIds: [] } }))).toEqual([]);
      }),
    );

    it(
      traits.scopedStatistics
        ? "scores and term weights within a set of collections ignore every other collection's chunks"
        : 'scores and term weights come from the whole index, whatever the filter (the documented limit of this store)',
      async () => {
        const own = [
          ...CORPUS.filter((c) => c.collection_id === 'col-a'),
          chunk('v4:c0', 'v4', 'Hotel hotel finance.', { collection_id: 'col-c' }),
        ];
        // Foreign chunks that would shift N, avgdl and every df: the query's words, many times, long.
        const foreign = Array.from({ length: 12 }, (_, i) =>
          chunk(`f${i}:c0`, `f${i}`, `hotel finance reimbursement ${'limit travel week '.repeat(i * 3)}`, {
            collection_id: i % 2 ? 'col-x' : 'col-y',
          }),
        );
        const alone = await factory();
        const crowded = await factory();
        try {
          await alone.port.upsert(own);
          // interleaved, so the foreign chunks are written between the caller's
          for (const [i, c] of own.entries()) await crowded.port.upsert([c, ...foreign.slice(i * 3, i * 3 + 3)]);
          const q = 'hotel reimbursement finance limit';
          for (const filter of [
            { collectionIds: ['col-a'] },
            { collectionIds: ['col-a', 'col-c'] },
            { collectionIds: ['col-c', 'col-unknown'] },
          ]) {
            const a = await alone.port.search(q, { k: 10, filter });
            const b = await crowded.port.search(q, { k: 10, filter });
            expect(a.length).toBeGreaterThan(0);
            const terms = [await crowded.port.queryTerms(q, { filter }), await alone.port.queryTerms(q, { filter })];
            if (traits.scopedStatistics) {
              expect(b).toEqual(a);
              expect(terms[0]).toEqual(terms[1]);
            } else {
              expect(b.map((h) => h.chunk_id).sort()).toEqual(a.map((h) => h.chunk_id).sort());
              expect(terms[0]).not.toEqual(terms[1]);
            }
          }
          // without a collection filter the statistics are the whole index's: the foreign chunks count
          const all = await crowded.port.queryTerms('hotel');
          expect(all[0]?.weight).not.toBe((await alone.port.queryTerms('hotel'))[0]?.weight);
        } finally {
          await alone.dispose();
          await crowded.dispose();
        }
      },
    );
  });
}
