import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { IndexedChunk } from '@pinpoint/core';
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
});
