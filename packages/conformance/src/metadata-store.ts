import type { Artifact, MetadataStore } from '@pinpoint/core';
import { sha256Hex } from '@pinpoint/core';
import { describe, expect, it } from 'vitest';
import type { PortFactory, PortTest } from './fixture.js';
import { newVersionInput, sampleChunks, sampleElements, withFreshPort } from './fixture.js';
import { describeIdentity } from './metadata-identity.js';

type Use = PortTest<MetadataStore>;

async function seedDocument(store: MetadataStore, name = 'notes.txt') {
  const collection = await store.createCollection(`c-${name}`);
  const document = await store.findOrCreateDocument(collection.collection_id, name);
  return { collection, document };
}

/** The MetadataStore port's semantics; every adapter (SQLite, PostgreSQL…) must pass it. */
export function describeMetadataStoreConformance(name: string, factory: PortFactory<MetadataStore>): void {
  const use = withFreshPort(factory);
  describe(`MetadataStore conformance: ${name}`, () => {
    describeCatalog(use);
    describeVersions(use);
    describeArtifacts(use);
    describeContent(use);
    describeIdentity(use);
  });
}

function describeCatalog(use: Use): void {
  it(
    'creates, gets and lists collections and documents; same collection + name = same document',
    use(async (store) => {
      const a = await store.createCollection('Alpha');
      const b = await store.createCollection('Beta');
      expect(await store.getCollection(a.collection_id)).toEqual(a);
      expect(await store.getCollection('col_missing')).toBeNull();
      expect((await store.listCollections()).map((c) => c.collection_id).sort()).toEqual(
        [a.collection_id, b.collection_id].sort(),
      );
      const d1 = await store.findOrCreateDocument(a.collection_id, 'policy.pdf');
      const again = await store.findOrCreateDocument(a.collection_id, 'policy.pdf');
      const other = await store.findOrCreateDocument(b.collection_id, 'policy.pdf');
      expect(again.document_id).toBe(d1.document_id);
      expect(other.document_id).not.toBe(d1.document_id);
      expect(await store.getDocument(d1.document_id)).toEqual(d1);
      expect(await store.getDocument('doc_missing')).toBeNull();
      expect((await store.listDocuments(a.collection_id)).map((d) => d.document_id)).toEqual([d1.document_id]);
      expect(await store.listDocuments()).toHaveLength(2);
    }),
  );

  it(
    'findOrCreateDocument is atomic under concurrent calls',
    use(async (store) => {
      const c = await store.createCollection('Concurrent');
      const docs = await Promise.all(Array.from({ length: 8 }, () => store.findOrCreateDocument(c.collection_id, 'same.md')));
      expect(new Set(docs.map((d) => d.document_id)).size).toBe(1);
    }),
  );
}

function describeVersions(use: Use): void {
  it(
    'createVersion dedupes by source_sha256 (created=false) and numbers versions 1, 2, 3',
    use(async (store) => {
      const { collection, document } = await seedDocument(store);
      const first = await store.createVersion(newVersionInput(document.document_id, collection.collection_id, 'one'));
      expect(first.created).toBe(true);
      expect(first.version).toMatchObject({ number: 1, state: 'queued', error_code: null, diagnostics: [], format: null });
      const same = await store.createVersion(newVersionInput(document.document_id, collection.collection_id, 'one'));
      expect(same).toEqual({ version: first.version, created: false });
      const second = await store.createVersion(newVersionInput(document.document_id, collection.collection_id, 'two'));
      const third = await store.createVersion(newVersionInput(document.document_id, collection.collection_id, 'three'));
      expect([second.created, second.version.number, third.version.number]).toEqual([true, 2, 3]);
      expect(await store.getVersion(second.version.version_id)).toEqual(second.version);
      expect(await store.getVersion('ver_missing')).toBeNull();
    }),
  );

  it(
    'createVersion with reprocess_of always creates a new version, and dedupe then returns the newest',
    use(async (store) => {
      const { collection, document } = await seedDocument(store);
      const input = newVersionInput(document.document_id, collection.collection_id, 'same bytes');
      const v1 = (await store.createVersion(input)).version;
      const v2 = await store.createVersion({ ...input, reprocess_of: v1.version_id });
      expect([v2.created, v2.version.number, v2.version.source_sha256]).toEqual([true, 2, v1.source_sha256]);
      expect(await store.createVersion(input)).toEqual({ version: v2.version, created: false });
    }),
  );

  it(
    'createVersion is atomic: concurrent same bytes create one version, different bytes get distinct numbers',
    use(async (store) => {
      const { collection, document } = await seedDocument(store);
      const same = await Promise.all(
        Array.from({ length: 6 }, () =>
          store.createVersion(newVersionInput(document.document_id, collection.collection_id, 'x')),
        ),
      );
      expect(same.filter((r) => r.created)).toHaveLength(1);
      expect(new Set(same.map((r) => r.version.version_id)).size).toBe(1);
      const distinct = await Promise.all(
        ['a', 'b', 'c', 'd'].map((s) => store.createVersion(newVersionInput(document.document_id, collection.collection_id, s))),
      );
      expect(distinct.map((r) => r.version.number).sort()).toEqual([2, 3, 4, 5]);
    }),
  );

  it(
    'updateVersion patches fields, keeps the rest, bumps updated_at; unknown id is PP_NOT_FOUND',
    use(async (store) => {
      const { collection, document } = await seedDocument(store);
      const { version } = await store.createVersion(newVersionInput(document.document_id, collection.collection_id, 'v'));
      await new Promise((r) => setTimeout(r, 5));
      const diagnostics = [{ rule_id: 'ocr-low', reason: 'Low OCR confidence', severity: 'warning' as const, page_index: 2 }];
      const updated = await store.updateVersion(version.version_id, {
        state: 'failed',
        error_code: 'PP_PARSE_CORRUPT',
        error_message: 'truncated',
        diagnostics,
        stats: { pages: 3, chunks: 0 },
        format: 'txt',
        sniffed_mime: 'text/plain',
      });
      expect(updated).toMatchObject({
        state: 'failed',
        error_code: 'PP_PARSE_CORRUPT',
        error_message: 'truncated',
        diagnostics,
        stats: { pages: 3, chunks: 0 },
        format: 'txt',
        sniffed_mime: 'text/plain',
      });
      expect(updated.source_sha256).toBe(version.source_sha256);
      expect(updated.recipe).toEqual(version.recipe);
      expect(updated.updated_at > version.updated_at).toBe(true);
      const cleared = await store.updateVersion(version.version_id, { state: 'ready', error_code: null, error_message: null });
      expect(cleared).toMatchObject({ state: 'ready', error_code: null, error_message: null, diagnostics });
      expect(await store.getVersion(version.version_id)).toEqual(cleared);
      await expect(store.updateVersion('ver_missing', { state: 'ready' })).rejects.toMatchObject({ code: 'PP_NOT_FOUND' });
    }),
  );

  it(
    'listVersions filters by document, collection and state',
    use(async (store) => {
      const a = await seedDocument(store, 'a.txt');
      const b = await seedDocument(store, 'b.txt');
      const va = await store.createVersion(newVersionInput(a.document.document_id, a.collection.collection_id, 'a1'));
      await store.createVersion(newVersionInput(a.document.document_id, a.collection.collection_id, 'a2'));
      await store.createVersion(newVersionInput(b.document.document_id, b.collection.collection_id, 'b1'));
      await store.updateVersion(va.version.version_id, { state: 'ready' });
      expect(await store.listVersions()).toHaveLength(3);
      expect(await store.listVersions({ documentId: a.document.document_id })).toHaveLength(2);
      expect(await store.listVersions({ collectionId: b.collection.collection_id })).toHaveLength(1);
      expect((await store.listVersions({ state: 'ready' })).map((v) => v.version_id)).toEqual([va.version.version_id]);
    }),
  );

  it(
    'latestReadyVersionIds returns the newest ready version of each document',
    use(async (store) => {
      const a = await seedDocument(store, 'a.txt');
      const b = await seedDocument(store, 'b.txt');
      const a1 = (await store.createVersion(newVersionInput(a.document.document_id, a.collection.collection_id, 'a1'))).version;
      const a2 = (await store.createVersion(newVersionInput(a.document.document_id, a.collection.collection_id, 'a2'))).version;
      const a3 = (await store.createVersion(newVersionInput(a.document.document_id, a.collection.collection_id, 'a3'))).version;
      const b1 = (await store.createVersion(newVersionInput(b.document.document_id, b.collection.collection_id, 'b1'))).version;
      expect(await store.latestReadyVersionIds()).toEqual([]);
      await store.updateVersion(a1.version_id, { state: 'ready' });
      await store.updateVersion(a2.version_id, { state: 'ready' });
      await store.updateVersion(a3.version_id, { state: 'processing' });
      await store.updateVersion(b1.version_id, { state: 'ready' });
      expect((await store.latestReadyVersionIds()).sort()).toEqual([a2.version_id, b1.version_id].sort());
      expect(await store.latestReadyVersionIds(a.collection.collection_id)).toEqual([a2.version_id]);
      await store.updateVersion(a3.version_id, { state: 'ready' });
      expect(await store.latestReadyVersionIds(a.collection.collection_id)).toEqual([a3.version_id]);
    }),
  );
}

function describeArtifacts(use: Use): void {
  it(
    'stores artifacts by (version, kind, name); putting the same key again replaces it',
    use(async (store) => {
      const { collection, document } = await seedDocument(store);
      const { version } = await store.createVersion(newVersionInput(document.document_id, collection.collection_id, 'art'));
      const original: Artifact = {
        version_id: version.version_id,
        kind: 'original',
        name: 'notes.txt',
        sha256: sha256Hex('o'),
        size: 1,
        mime: 'text/plain',
        blob_key: 'k/original',
      };
      const page0: Artifact = {
        version_id: version.version_id,
        kind: 'page-image',
        name: '0',
        sha256: sha256Hex('p0'),
        size: 2,
        mime: 'image/png',
        blob_key: 'k/p0',
      };
      const page1: Artifact = { ...page0, name: '1', blob_key: 'k/p1' };
      await store.putArtifact(original);
      await store.putArtifact(page0);
      await store.putArtifact(page1);
      await store.putArtifact({ ...page1, size: 3 });
      expect(await store.listArtifacts(version.version_id)).toHaveLength(3);
      expect(await store.getArtifact(version.version_id, 'original')).toEqual(original);
      expect(await store.getArtifact(version.version_id, 'page-image', '1')).toEqual({ ...page1, size: 3 });
      expect(await store.getArtifact(version.version_id, 'pdf')).toBeNull();
    }),
  );
}

function describeContent(use: Use): void {
  it(
    'replaceVersionContent round-trips elements and chunks, and re-running it replaces (no duplicates)',
    use(async (store) => {
      const { collection, document } = await seedDocument(store);
      const { version } = await store.createVersion(newVersionInput(document.document_id, collection.collection_id, 'content'));
      const ids = [version.version_id, document.document_id, collection.collection_id] as const;
      const elements = sampleElements(5);
      const chunks = sampleChunks(...ids, 5);
      await store.replaceVersionContent(version.version_id, elements, chunks);
      await store.replaceVersionContent(version.version_id, elements, chunks);
      expect(await store.getElements(version.version_id)).toEqual(elements);
      expect(await store.listChunks(version.version_id)).toEqual(chunks);
      const picked = await store.getElements(version.version_id, [elements[3]?.element_id ?? '', elements[1]?.element_id ?? '']);
      expect(picked.map((e) => e.element_id).sort()).toEqual([elements[1]?.element_id, elements[3]?.element_id].sort());
      const got = await store.getChunks([chunks[4]?.chunk_id ?? '', 'missing:c000001']);
      expect(got).toEqual([chunks[4]]);
      await store.replaceVersionContent(version.version_id, sampleElements(2), sampleChunks(...ids, 2));
      expect(await store.getElements(version.version_id)).toHaveLength(2);
      expect(await store.listChunks(version.version_id)).toHaveLength(2);
      await store.deleteVersionContent(version.version_id);
      expect(await store.getElements(version.version_id)).toEqual([]);
      expect(await store.listChunks(version.version_id)).toEqual([]);
    }),
  );

  it(
    'replaceVersionContent is transactional: a failing replace leaves the previous content intact',
    use(async (store) => {
      const { collection, document } = await seedDocument(store);
      const { version } = await store.createVersion(newVersionInput(document.document_id, collection.collection_id, 'tx'));
      const good = sampleChunks(version.version_id, document.document_id, collection.collection_id, 3);
      await store.replaceVersionContent(version.version_id, sampleElements(3), good);
      const duplicate = sampleChunks(version.version_id, document.document_id, collection.collection_id, 4);
      const bad = [...duplicate, { ...duplicate[0], text: 'dup' } as (typeof duplicate)[number]];
      await expect(store.replaceVersionContent(version.version_id, sampleElements(4), bad)).rejects.toThrow();
      expect(await store.listChunks(version.version_id)).toEqual(good);
      expect(await store.getElements(version.version_id)).toHaveLength(3);
    }),
  );

  it(
    'content of one version never touches another version',
    use(async (store) => {
      const { collection, document } = await seedDocument(store);
      const v1 = (await store.createVersion(newVersionInput(document.document_id, collection.collection_id, '1'))).version;
      const v2 = (await store.createVersion(newVersionInput(document.document_id, collection.collection_id, '2'))).version;
      await store.replaceVersionContent(
        v1.version_id,
        sampleElements(2),
        sampleChunks(v1.version_id, document.document_id, collection.collection_id, 2),
      );
      await store.replaceVersionContent(
        v2.version_id,
        sampleElements(3),
        sampleChunks(v2.version_id, document.document_id, collection.collection_id, 3),
      );
      await store.deleteVersionContent(v2.version_id);
      expect(await store.listChunks(v1.version_id)).toHaveLength(2);
      expect(await store.getElements(v1.version_id)).toHaveLength(2);
    }),
  );

  it(
    'deleteDocument removes its versions, artifacts and content, and names the blobs nothing else refers to',
    use(async (store) => {
      const { collection, document } = await seedDocument(store, 'gone.txt');
      const kept = await store.findOrCreateDocument(collection.collection_id, 'kept.txt');
      const v1 = (await store.createVersion(newVersionInput(document.document_id, collection.collection_id, 'g1'))).version;
      const v2 = (await store.createVersion(newVersionInput(document.document_id, collection.collection_id, 'g2'))).version;
      const k1 = (await store.createVersion(newVersionInput(kept.document_id, collection.collection_id, 'g1'))).version;
      const artifact = (versionId: string, key: string): Artifact => ({
        version_id: versionId,
        kind: 'original',
        name: 'x',
        sha256: sha256Hex(key),
        size: 1,
        mime: 'text/plain',
        blob_key: key,
      });
      await store.putArtifact(artifact(v1.version_id, 'k/shared'));
      await store.putArtifact(artifact(v2.version_id, 'k/own'));
      await store.putArtifact(artifact(k1.version_id, 'k/shared'));
      const ids = [v1.version_id, document.document_id, collection.collection_id] as const;
      await store.replaceVersionContent(v1.version_id, sampleElements(2), sampleChunks(...ids, 2));
      const removed = await store.deleteDocument(document.document_id);
      expect(removed).toEqual({ version_ids: [v1.version_id, v2.version_id], orphan_blob_keys: ['k/own'] });
      expect(await store.getDocument(document.document_id)).toBeNull();
      expect(await store.getVersion(v1.version_id)).toBeNull();
      expect(await store.listArtifacts(v2.version_id)).toEqual([]);
      expect(await store.listChunks(v1.version_id)).toEqual([]);
      expect(await store.getElements(v1.version_id)).toEqual([]);
      expect((await store.listDocuments(collection.collection_id)).map((d) => d.name)).toEqual(['kept.txt']);
      expect(await store.getArtifact(k1.version_id, 'original')).toMatchObject({ blob_key: 'k/shared' });
      expect(await store.deleteDocument(document.document_id)).toBeNull();
      const again = await store.findOrCreateDocument(collection.collection_id, 'gone.txt');
      expect(again.document_id).not.toBe(document.document_id);
    }),
  );
}
