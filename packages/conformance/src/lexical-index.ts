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

/** The LexicalIndex port's semantics: ranking, upsert by chunk id, version deletion, filters, k. */
export function describeLexicalIndexConformance(name: string, factory: PortFactory<LexicalIndex>): void {
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
  });
}
