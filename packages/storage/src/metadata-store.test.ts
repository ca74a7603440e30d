import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Chunk, Element, Recipe } from '@pinpoint/core';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { SqliteMetadataStore } from './metadata-store.js';

const recipe: Recipe = { parser: 'md@1', chunker: 'c@1', analyzer: 'a@1', options: {} };
const sha = (c: string): string => c.repeat(64);

function element(id: string, text: string): Element {
  return {
    element_id: id,
    type: 'paragraph',
    section_path: [],
    text,
    anchor: { kind: 'text', artifact: 'original', unit: 'codepoint', start: 0, end: text.length, text_sha256: sha('a') },
  };
}

function chunk(versionId: string, ordinal: number, ids: { documentId: string; collectionId: string }): Chunk {
  return {
    chunk_id: `${versionId}:c${ordinal}`,
    chunk_set_id: 'c1',
    version_id: versionId,
    document_id: ids.documentId,
    collection_id: ids.collectionId,
    ordinal,
    elements: [{ element_id: 'e000000', start: 0, end: 2 }],
    text: 'hi',
    retrieval_text: 'hi',
    section_path: [],
  };
}

describe('SqliteMetadataStore', () => {
  let dir: string;
  let store: SqliteMetadataStore;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'pp-meta-'));
    store = new SqliteMetadataStore(join(dir, 'meta.db'));
  });
  afterEach(async () => {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('dedupes same bytes, numbers new bytes, and always creates on reprocess', async () => {
    const col = await store.createCollection('c');
    const doc = await store.findOrCreateDocument(col.collection_id, 'a.md');
    expect((await store.findOrCreateDocument(col.collection_id, 'a.md')).document_id).toBe(doc.document_id);
    const base = {
      document_id: doc.document_id,
      collection_id: col.collection_id,
      original_name: 'a.md',
      declared_mime: null,
      size: 3,
      recipe,
    };
    const v1 = await store.createVersion({ ...base, source_sha256: sha('1') });
    const again = await store.createVersion({ ...base, source_sha256: sha('1') });
    const v2 = await store.createVersion({ ...base, source_sha256: sha('2') });
    const v3 = await store.createVersion({ ...base, source_sha256: sha('2'), reprocess_of: v2.version.version_id });
    expect([v1.created, again.created, v2.created, v3.created]).toEqual([true, false, true, true]);
    expect(again.version.version_id).toBe(v1.version.version_id);
    expect([v1.version.number, v2.version.number, v3.version.number]).toEqual([1, 2, 3]);
    expect(await store.listVersions({ documentId: doc.document_id })).toHaveLength(3);
  });

  it('gives the newest ready versions anew after any write, by this connection or another', async () => {
    const col = await store.createCollection('c');
    const other = await store.createCollection('o');
    const ready = async (collectionId: string, name: string, bytes: string) => {
      const doc = await store.findOrCreateDocument(collectionId, name);
      const base = {
        document_id: doc.document_id,
        collection_id: collectionId,
        original_name: name,
        declared_mime: null,
        size: 1,
        recipe,
      };
      const { version } = await store.createVersion({ ...base, source_sha256: sha(bytes) });
      await store.updateVersion(version.version_id, { state: 'ready' });
      return version.version_id;
    };
    const a1 = await ready(col.collection_id, 'a.md', '1');
    const b1 = await ready(other.collection_id, 'b.md', '2');
    expect(await store.latestReadyVersionIds(col.collection_id)).toEqual([a1]);
    // the port gives no order: a1 and b1 may share a creation millisecond, and then their random ids decide
    expect((await store.latestReadyVersionIds()).sort()).toEqual([a1, b1].sort());
    // asked again with nothing written: the same answer, and a copy the caller may change
    const first = await store.latestReadyVersionIds();
    const again = await store.latestReadyVersionIds();
    again.pop();
    expect(await store.latestReadyVersionIds()).toEqual(first);
    const a2 = await ready(col.collection_id, 'a.md', '3');
    expect(await store.latestReadyVersionIds(col.collection_id)).toEqual([a2]);
    // a second connection to the same file retires the newest version
    const second = new SqliteMetadataStore(join(dir, 'meta.db'));
    await second.updateVersion(a2, { state: 'failed' });
    await second.close();
    expect(await store.latestReadyVersionIds(col.collection_id)).toEqual([a1]);
    expect((await store.latestReadyVersionIds()).sort()).toEqual([a1, b1].sort());
  });

  it('reports the newest ready version per document and replaces content atomically', async () => {
    const col = await store.createCollection('c');
    const doc = await store.findOrCreateDocument(col.collection_id, 'a.md');
    const base = {
      document_id: doc.document_id,
      collection_id: col.collection_id,
      original_name: 'a.md',
      declared_mime: null,
      size: 3,
      recipe,
    };
    const { version: v1 } = await store.createVersion({ ...base, source_sha256: sha('1') });
    const { version: v2 } = await store.createVersion({ ...base, source_sha256: sha('2') });
    await store.updateVersion(v1.version_id, { state: 'ready' });
    expect(await store.latestReadyVersionIds(col.collection_id)).toEqual([v1.version_id]);
    const updated = await store.updateVersion(v2.version_id, { state: 'ready', stats: { chunks: 1 }, format: 'md' });
    expect(updated.format).toBe('md');
    expect(await store.latestReadyVersionIds()).toEqual([v2.version_id]);

    const ids = { documentId: doc.document_id, collectionId: col.collection_id };
    await store.replaceVersionContent(v2.version_id, [element('e000000', 'hi')], [chunk(v2.version_id, 0, ids)]);
    await store.replaceVersionContent(
      v2.version_id,
      [element('e000000', 'hi')],
      [chunk(v2.version_id, 0, ids), chunk(v2.version_id, 1, ids)],
    );
    expect(await store.listChunks(v2.version_id)).toHaveLength(2);
    expect((await store.getElements(v2.version_id, ['e000000']))[0]?.text).toBe('hi');
    const got = await store.getChunks([`${v2.version_id}:c1`, 'missing', `${v2.version_id}:c0`]);
    expect(got.map((c) => c.ordinal)).toEqual([1, 0]);
    await store.deleteVersionContent(v2.version_id);
    expect(await store.listChunks(v2.version_id)).toEqual([]);
  });

  it('stores artifacts and survives reopening', async () => {
    const col = await store.createCollection('c');
    const doc = await store.findOrCreateDocument(col.collection_id, 'a.md');
    const { version } = await store.createVersion({
      document_id: doc.document_id,
      collection_id: col.collection_id,
      original_name: 'a.md',
      declared_mime: 'text/markdown',
      size: 3,
      recipe,
      source_sha256: sha('1'),
    });
    const art = {
      version_id: version.version_id,
      kind: 'original' as const,
      name: 'a.md',
      sha256: sha('1'),
      size: 3,
      mime: 'text/markdown',
      blob_key: 'k',
    };
    await store.putArtifact(art);
    await store.close();
    store = new SqliteMetadataStore(join(dir, 'meta.db'));
    expect(await store.getArtifact(version.version_id, 'original')).toEqual(art);
    expect(await store.listArtifacts(version.version_id)).toHaveLength(1);
    expect((await store.getVersion(version.version_id))?.declared_mime).toBe('text/markdown');
    await expect(store.findOrCreateDocument('col_missing', 'x')).rejects.toMatchObject({ code: 'PP_NOT_FOUND' });
  });
});
