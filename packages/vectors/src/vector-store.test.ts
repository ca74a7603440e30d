import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { analyze } from '@pinpoint/analysis';
import { vectorStoreConformance } from '@pinpoint/conformance';
import { type FakeQdrant, startFakeQdrant } from '@pinpoint/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openEmbeddedVectorStore } from './embedded-store.js';
import { collectionNameFor, createVectorStore } from './factory.js';
import { QdrantVectorStore } from './qdrant-store.js';

let dir: string;
let fake: FakeQdrant;
// PINPOINT_TEST_QDRANT_URL runs the same suite against a real Qdrant instead of the local fake.
const realQdrant = process.env.PINPOINT_TEST_QDRANT_URL;
const qdrantUrl = () => realQdrant ?? fake.url;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'pp-vectors-'));
  fake = await startFakeQdrant();
});
afterAll(async () => {
  await fake.close();
  await rm(dir, { recursive: true, force: true });
});

describe('embedded store (exact scan)', () => {
  vectorStoreConformance(async (dimensions) => openEmbeddedVectorStore({ path: join(dir, `${randomUUID()}.db`), dimensions }));
});

describe('embedded store (HNSW path)', () => {
  vectorStoreConformance(async (dimensions) => openEmbeddedVectorStore({ path: ':memory:', dimensions, annThreshold: 0 }));
});

describe('Qdrant store', () => {
  const opened: string[] = [];
  vectorStoreConformance(async (dimensions) => {
    const collection = `pp_test_${randomUUID().slice(0, 8)}`;
    opened.push(collection);
    return QdrantVectorStore.open({ url: qdrantUrl(), collection, dimensions, analyze });
  });

  it('keeps named dense + sparse vectors and fuses them by RRF on the server', async () => {
    const store = await QdrantVectorStore.open({
      url: qdrantUrl(),
      collection: `pp_test_${randomUUID().slice(0, 8)}`,
      dimensions: 2,
      analyze,
    });
    const base = { version_id: 'v1', document_id: 'd1', collection_id: 'c' };
    await store.upsert([
      { ...base, chunk_id: 'dense-only', vector: Float32Array.of(1, 0), text: 'nothing about the subject' },
      { ...base, chunk_id: 'lexical-only', vector: Float32Array.of(0, 1), text: 'part number XJ-9000 replacement valve' },
      { ...base, chunk_id: 'both', vector: Float32Array.of(0.9, 0.1), text: 'the XJ-9000 valve manual' },
    ]);
    const sparse = await store.searchSparse('XJ-9000 valve', { k: 5 });
    expect(sparse.map((h) => h.chunk_id).sort()).toEqual(['both', 'lexical-only']);
    const fused = await store.hybridSearch(Float32Array.of(1, 0), 'XJ-9000 valve', { k: 3 });
    expect(fused[0]?.chunk_id).toBe('both');
    expect(fused.map((h) => h.chunk_id)).toContain('lexical-only');
    if (!realQdrant) expect(fake.calls).toContain(`PUT /collections/${store.id.split(':')[1]?.split('@')[0]}/index`);
  });

  it('reports an unreachable server as PP_PROVIDER_UNAVAILABLE', async () => {
    await expect(QdrantVectorStore.open({ url: 'http://127.0.0.1:9', collection: 'x', dimensions: 2 })).rejects.toMatchObject({
      code: 'PP_PROVIDER_UNAVAILABLE',
    });
  });
});

describe('embedded store persistence', () => {
  it('keeps its HNSW graph across a clean restart and ignores a stale one', async () => {
    const path = join(dir, 'hnsw.db');
    const rec = (id: string, v: number[]) => ({
      chunk_id: id,
      version_id: 'v',
      document_id: 'd',
      collection_id: 'c',
      vector: Float32Array.from(v),
    });
    const a = openEmbeddedVectorStore({ path, dimensions: 3, annThreshold: 2 });
    await a.upsert([rec('x', [1, 0, 0]), rec('y', [0, 1, 0]), rec('z', [0, 0, 1]), rec('w', [1, 1, 0])]);
    await a.close();
    expect(existsSync(`${path}.hnsw`) && existsSync(`${path}.hnsw.json`)).toBe(true);
    const b = openEmbeddedVectorStore({ path, dimensions: 3, annThreshold: 2 });
    expect((await b.search(Float32Array.of(0, 0, 1), { k: 1 }))[0]?.chunk_id).toBe('z');
    // A write after the snapshot (and no clean close) makes it stale: the next open rebuilds.
    await b.upsert([rec('z', [0, 1, 0.1])]);
    const c = openEmbeddedVectorStore({ path, dimensions: 3, annThreshold: 2 });
    expect((await c.search(Float32Array.of(0, 0, 1), { k: 1 }))[0]?.chunk_id).toBe('z');
    expect((await c.search(Float32Array.of(0, 1, 0), { k: 2 })).map((h) => h.chunk_id).sort()).toEqual(['y', 'z']);
    await c.close();
    await b.close();
  });

  it('empties itself when opened for another embedding space', async () => {
    const path = join(dir, 'space.db');
    const a = openEmbeddedVectorStore({ path, dimensions: 2, space: 'model-a@2' });
    await a.upsert([{ chunk_id: 'x', version_id: 'v', document_id: 'd', collection_id: 'c', vector: Float32Array.of(1, 0) }]);
    await a.close();
    const same = openEmbeddedVectorStore({ path, dimensions: 2, space: 'model-a@2' });
    expect(await same.search(Float32Array.of(1, 0), { k: 1 })).toHaveLength(1);
    await same.close();
    const other = openEmbeddedVectorStore({ path, dimensions: 2, space: 'model-b@2' });
    expect(await other.search(Float32Array.of(1, 0), { k: 1 })).toEqual([]);
    await other.close();
  });

  it('reloads vectors from its SQLite file', async () => {
    const path = join(dir, 'persist.db');
    const a = openEmbeddedVectorStore({ path, dimensions: 2 });
    await a.upsert([{ chunk_id: 'x', version_id: 'v', document_id: 'd', collection_id: 'c', vector: Float32Array.of(3, 4) }]);
    await a.close();
    const b = openEmbeddedVectorStore({ path, dimensions: 2 });
    const [hit] = await b.search(Float32Array.of(0.6, 0.8), { k: 1 });
    expect(hit?.chunk_id).toBe('x');
    expect(hit?.score).toBeCloseTo(1, 5);
    await b.close();
  });
});

describe('createVectorStore', () => {
  it('opens either adapter from plain config; one Qdrant collection per embedder', async () => {
    const embedded = await createVectorStore({ kind: 'embedded', path: ':memory:', dimensions: 4 });
    expect(embedded.id).toBe('embedded-cosine@4');
    await embedded.close();
    const collection = collectionNameFor('pinpoint', 'onnx:multilingual-e5-small#0a1b2c3d4e5f@384');
    expect(collection).toBe('pinpoint_onnx_multilingual_e5_small_0a1b2c3d4e5f_384');
    const qdrant = await createVectorStore({ kind: 'qdrant', url: qdrantUrl(), collection, dimensions: 4 });
    expect(qdrant.id).toBe(`qdrant:${collection}@4`);
    await qdrant.close();
  });
});
