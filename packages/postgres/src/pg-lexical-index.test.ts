import { randomUUID } from 'node:crypto';
import { ANALYZER_ID, analyze, termKind } from '@pinpoint/analysis';
import { describeLexicalIndexConformance } from '@pinpoint/conformance';
import type { IndexedChunk } from '@pinpoint/core';
import { DEFAULT_BM25 } from '@pinpoint/retrieval';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PgLexicalIndex } from './pg-lexical-index.js';
import { dropSchema } from './schema.js';

const DATABASE_URL = 'postgres://postgres@127.0.0.1:5432/test';
const analyzer = { id: 'words@test', analyze: (t: string) => t.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [] };

function chunk(id: string, version: string, text: string, page?: number): IndexedChunk {
  return {
    chunk_id: id,
    version_id: version,
    document_id: `d-${version}`,
    collection_id: 'c1',
    retrieval_text: text,
    ...(page === undefined ? {} : { page_index: page }),
  };
}

describe('PgLexicalIndex', () => {
  const schema = `pp_test_${randomUUID().replaceAll('-', '').slice(0, 16)}`;
  let index: PgLexicalIndex;
  beforeAll(async () => {
    index = await PgLexicalIndex.open({ connectionString: DATABASE_URL, schema, analyzer });
  });
  afterAll(async () => {
    await index.close();
    await dropSchema(DATABASE_URL, schema);
  });

  it('ranks by BM25, upserts by chunk id, filters, and forgets a deleted version', async () => {
    await index.upsert([
      chunk('v1:c0', 'v1', 'Travel policy: the reimbursement limit is 2500 dollars', 0),
      chunk('v1:c1', 'v1', 'Holiday calendar and office hours', 1),
      chunk('v2:c0', 'v2', 'Reimbursement forms go to finance; reimbursement takes a week'),
    ]);
    await index.upsert([chunk('v1:c1', 'v1', 'Holiday calendar, office hours and reimbursement deadlines', 1)]);
    const hits = await index.search('reimbursement limit', { k: 10 });
    expect(hits.map((h) => h.chunk_id)).toEqual(['v1:c0', 'v2:c0', 'v1:c1']);
    expect(hits[0]?.score).toBeGreaterThan(hits[1]?.score ?? Infinity);
    expect(
      (await index.search('reimbursement', { k: 10, filter: { versionIds: ['v1'], pageIndexes: [1] } })).map((h) => h.chunk_id),
    ).toEqual(['v1:c1']);
    expect(await index.search('reimbursement', { k: 1 })).toHaveLength(1);
    await index.deleteVersion('v1');
    expect((await index.search('reimbursement holiday', { k: 10 })).map((h) => h.chunk_id)).toEqual(['v2:c0']);
    expect(await index.search('  ', { k: 10 })).toEqual([]);
  });

  it('does the same work for a scoped search whatever other collections hold (plan and rows read)', async () => {
    const scoped = await PgLexicalIndex.open({ connectionString: DATABASE_URL, schema: `${schema}_w`, analyzer });
    try {
      scoped.explainWork = true;
      const mine = (id: string, text: string): IndexedChunk => ({ ...chunk(id, `mv${id}`, text), collection_id: 'mine' });
      await scoped.upsert([
        mine('m1', 'The harbour ledger records mooring fees for the quarter'),
        mine('m2', 'Quarterly figures of the orchard cooperative'),
        mine('m3', 'Mooring fees rose after the storm'),
      ]);
      const observe = async () => {
        const hits = await scoped.search('harbour ledger mooring fees quarter', { k: 10, filter: { collectionIds: ['mine'] } });
        return {
          hits,
          work: scoped.lastWork,
          terms: await scoped.queryTerms('harbour ledger', { filter: { collectionIds: ['mine'] } }),
        };
      };
      const before = await observe();
      expect(before.work?.rows).toBeGreaterThan(0);
      const foreign = Array.from({ length: 3000 }, (_, i) => ({
        ...chunk(`f${i}`, `fv${i % 40}`, `${'harbour ledger mooring fees quarter '.repeat(1 + (i % 5))} extra${i}`),
        collection_id: `foreign${i % 3}`,
      }));
      for (let i = 0; i < foreign.length; i += 500) await scoped.upsert(foreign.slice(i, i + 500));
      const pool = (scoped as unknown as { pool: { query(sql: string): Promise<unknown> } }).pool;
      await pool.query('ANALYZE lex_postings');
      await pool.query('ANALYZE lex_chunks');
      const after = await observe();
      expect(after).toEqual(before);
      const unscoped = await scoped.search('harbour ledger', { k: 10 });
      expect(unscoped.length).toBe(10);
      expect(scoped.lastWork?.rows).toBeGreaterThan(before.work?.rows ?? 0);
    } finally {
      await scoped.close();
      await dropSchema(DATABASE_URL, `${schema}_w`);
    }
  }, 60_000);

  it('refuses to open an index built with another analyzer', async () => {
    await expect(
      PgLexicalIndex.open({ connectionString: DATABASE_URL, schema, analyzer: { ...analyzer, id: 'other@1' } }),
    ).rejects.toMatchObject({
      code: 'PP_CONFIG_INVALID',
    });
  });
});

describeLexicalIndexConformance('PgLexicalIndex', async () => {
  const schema = `pp_test_${randomUUID().replaceAll('-', '').slice(0, 16)}`;
  const index = await PgLexicalIndex.open({
    connectionString: DATABASE_URL,
    schema,
    analyzer: { id: ANALYZER_ID, analyze },
    termWeight: (term) => DEFAULT_BM25.weights[termKind(term)],
  });
  return {
    port: index,
    dispose: async () => {
      await index.close();
      await dropSchema(DATABASE_URL, schema);
    },
  };
});
