import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { IndexedChunk } from '@pinpoint/core';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { searchLexical } from './search.js';
import { openLexicalIndex } from './sqlite-index.js';

const chunk = (id: string, text: string, extra: Partial<IndexedChunk> = {}): IndexedChunk => ({
  chunk_id: id,
  version_id: 'v1',
  document_id: 'd1',
  collection_id: 'c1',
  retrieval_text: text,
  ...extra,
});

const dir = mkdtempSync(join(tmpdir(), 'pp-lex-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('SqliteLexicalIndex', () => {
  it('ranks the chunk that matches the rare query terms first', async () => {
    const index = openLexicalIndex(':memory:');
    await index.upsert([
      chunk('a', 'The steam engine uses cylinders and pistons.'),
      chunk('b', 'Olympic class ocean liners used triple expansion steam engines.'),
      chunk('c', 'Harvard University is in Cambridge.'),
    ]);
    const { hits } = await searchLexical(index, 'What class of ships were large passenger liners?', { k: 3 });
    expect(hits[0]?.chunk_id).toBe('b');
    expect(hits[0]?.stages.lexical.rank).toBe(1);
    expect(hits.map((h) => h.chunk_id)).not.toContain('c');
    await index.close();
  });

  it('finds Traditional Chinese chunks with a Simplified query', async () => {
    const index = openLexicalIndex(':memory:');
    await index.upsert([chunk('a', '負責管理馬祖國家風景區的單位為交通部觀光局。'), chunk('b', '網球比賽的主裁判坐在高椅上。')]);
    expect((await index.search('马祖国家风景区', { k: 1 }))[0]?.chunk_id).toBe('a');
    await index.close();
  });

  it('filters by collection, document, version and page', async () => {
    const index = openLexicalIndex(':memory:');
    await index.upsert([
      chunk('a', 'refund policy for taxis', { page_index: 0 }),
      chunk('b', 'refund policy for taxis', { page_index: 3, version_id: 'v2', document_id: 'd2' }),
      chunk('c', 'refund policy for taxis', { collection_id: 'c2' }),
    ]);
    const ids = async (filter: object): Promise<string[]> =>
      (await index.search('taxi refund', { k: 5, filter })).map((h) => h.chunk_id).sort();
    expect(await ids({ collectionIds: ['c1'] })).toEqual(['a', 'b']);
    expect(await ids({ documentIds: ['d2'] })).toEqual(['b']);
    expect(await ids({ versionIds: ['v1'] })).toEqual(['a', 'c']);
    expect(await ids({ pageIndexes: [3] })).toEqual(['b']);
    await index.close();
  });

  it('upserts by chunk id, deletes a version and persists across reopen', async () => {
    const path = join(dir, 'lex.sqlite');
    const index = openLexicalIndex(path);
    await index.upsert([chunk('a', 'alpha beta'), chunk('b', 'gamma delta', { version_id: 'v2' })]);
    await index.upsert([chunk('a', 'epsilon zeta')]);
    expect(await index.search('alpha', { k: 5 })).toEqual([]);
    await index.close();
    const reopened = openLexicalIndex(path);
    expect((await reopened.search('epsilon', { k: 5 })).map((h) => h.chunk_id)).toEqual(['a']);
    await reopened.deleteVersion('v2');
    expect(await reopened.search('gamma', { k: 5 })).toEqual([]);
    expect((await reopened.search('zeta', { k: 5 })).map((h) => h.chunk_id)).toEqual(['a']);
    await reopened.close();
  });

  it('gives the same hits from segments, the tail and after reopening, and forgets deleted chunks in segments', async () => {
    const words = ['harbour', 'lighthouse', 'ferry', 'tide', 'pier', 'crane', 'cargo', 'storm', 'anchor', 'quay'];
    const chunks = Array.from({ length: 60 }, (_, i) =>
      chunk(`c${i}`, Array.from({ length: 3 + (i % 5) }, (_, j) => words[(i * 7 + j * 3) % words.length]).join(' '), {
        version_id: `v${i % 6}`,
        page_index: i % 3,
      }),
    );
    const path = join(dir, 'segments.sqlite');
    const segmented = openLexicalIndex(path, { segmentChunks: 8 });
    const single = openLexicalIndex(':memory:');
    for (let i = 0; i < chunks.length; i += 5) {
      await segmented.upsert(chunks.slice(i, i + 5));
      await single.upsert(chunks.slice(i, i + 5));
    }
    await segmented.deleteVersion('v2');
    await single.deleteVersion('v2');
    const queries = ['harbour ferry', 'storm anchor quay', 'tide', 'crane cargo pier lighthouse'];
    const filter = { versionIds: ['v0', 'v1', 'v2', 'v3'], pageIndexes: [0, 1] };
    const run = async (index: typeof single) =>
      Promise.all(queries.flatMap((q) => [index.search(q, { k: 7 }), index.search(q, { k: 50, filter }), index.queryTerms(q)]));
    const expected = await run(single);
    expect(expected[0]?.length).toBe(7);
    expect(await run(segmented)).toEqual(expected);
    await segmented.close();
    const reopened = openLexicalIndex(path, { segmentChunks: 8 });
    expect(await run(reopened)).toEqual(expected);
    await reopened.close();
    await single.close();
  });

  it('MaxScore pruning gives the exhaustive top k (same chunks, same scores, same tie order) on random queries', async () => {
    // a seeded generator: skewed word frequencies (common words in most chunks, rare ones in few), repeated words, ties
    let s = 42;
    const rnd = () => {
      s = (s * 1103515245 + 12345) % 2 ** 31;
      return s / 2 ** 31;
    };
    const vocabulary = Array.from({ length: 400 }, (_, i) => `w${i.toString(36)}x`);
    const word = () => vocabulary[Math.floor(vocabulary.length * rnd() ** 3)] as string;
    const path = join(dir, 'pruning.db');
    const pruned = openLexicalIndex(path, { segmentChunks: 700 });
    const chunks = Array.from({ length: 3000 }, (_, i) =>
      chunk(`c${i}`, Array.from({ length: 3 + Math.floor(rnd() * 40) }, word).join(' '), {
        version_id: `v${i % 7}`,
        document_id: `d${i % 13}`,
        page_index: i % 5,
      }),
    );
    for (let i = 0; i < chunks.length; i += 250) await pruned.upsert(chunks.slice(i, i + 250));
    await pruned.deleteVersion('v3');
    await pruned.upsert([chunk('c5', 'w1x w2x w3x'), chunk('late', 'w0x w0x wax')]);
    const filters = [undefined, { versionIds: ['v1', 'v2', 'v5'] }, { documentIds: ['d4'], pageIndexes: [0, 2] }];
    const queries = Array.from({ length: 300 }, (_, q) => {
      const filter = filters[q % filters.length];
      const text = Array.from({ length: 1 + Math.floor(rnd() * 8) }, word).join(' ');
      return { text, options: { k: [1, 3, 10, 50][q % 4] as number, ...(filter ? { filter } : {}) } };
    });
    // the newest chunks are still in the tail here; the exhaustive reader reopens the same file after
    const expected = queries.map((q) => pruned.searchSync(q.text, q.options));
    await pruned.close();
    const exhaustive = openLexicalIndex(path, { segmentChunks: 700, pruning: false });
    for (const [i, q] of queries.entries()) expect(exhaustive.searchSync(q.text, q.options)).toEqual(expected[i]);
    expect(expected.reduce((n, hits) => n + hits.length, 0)).toBeGreaterThan(3000);
    await exhaustive.close();
  });

  it('moves an index of the row-per-posting layout into the new one', async () => {
    const path = join(dir, 'v1.sqlite');
    const db = new Database(path);
    db.exec(`CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
      CREATE TABLE chunks (doc INTEGER PRIMARY KEY, chunk_id TEXT NOT NULL UNIQUE, version_id TEXT NOT NULL,
        document_id TEXT NOT NULL, collection_id TEXT NOT NULL, page_index INTEGER, len INTEGER NOT NULL, terms TEXT NOT NULL);
      CREATE TABLE postings (term TEXT NOT NULL, doc INTEGER NOT NULL, tf INTEGER NOT NULL, PRIMARY KEY (term, doc)) WITHOUT ROWID;
      INSERT INTO chunks VALUES (1, 'a', 'v1', 'd1', 'c1', 0, 3, '["ferri","tide"]'), (2, 'b', 'v1', 'd1', 'c1', 1, 1, '["tide"]');
      INSERT INTO postings VALUES ('ferri', 1, 2), ('tide', 1, 1), ('tide', 2, 1);`);
    db.close();
    const index = openLexicalIndex(path);
    expect((await index.search('ferry', { k: 5 })).map((h) => h.chunk_id)).toEqual(['a']);
    expect((await index.search('tide', { k: 5, filter: { pageIndexes: [1] } })).map((h) => h.chunk_id)).toEqual(['b']);
    await index.close();
  });
});
