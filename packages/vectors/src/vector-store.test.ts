import { randomUUID } from 'node:crypto';
import { existsSync, writeFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { analyze } from '@pinpoint/analysis';
import { vectorStoreConformance } from '@pinpoint/conformance';
import type { SearchFilter } from '@pinpoint/core';
import { type FakeQdrant, startFakeQdrant } from '@pinpoint/testing';
import fc from 'fast-check';
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

describe('embedded store: a filter repeated between questions', () => {
  for (const [path, annThreshold] of [
    ['exact scan', Number.POSITIVE_INFINITY],
    ['index thread', 0],
  ] as const) {
    it(`${path}: each search sees exactly the versions it names now, however often the same list came before`, async () => {
      const store = openEmbeddedVectorStore({ path: ':memory:', dimensions: 2, annThreshold });
      const entry = (chunk_id: string, version_id: string, x: number) => ({
        chunk_id,
        version_id,
        document_id: `d-${version_id}`,
        collection_id: 'c',
        vector: Float32Array.of(x, 1 - x),
      });
      await store.upsert([entry('a1', 'va', 0.9), entry('b1', 'vb', 0.8)]);
      const q = Float32Array.of(1, 0);
      const ids = async (versionIds: string[]) =>
        (await store.search(q, { k: 10, filter: { versionIds } })).map((h) => h.chunk_id).sort();
      const onlyA = ['va'];
      expect(await ids(onlyA)).toEqual(['a1']);
      expect(await ids(onlyA)).toEqual(['a1']);
      expect(await ids(['vb'])).toEqual(['b1']);
      expect(await ids(['va'])).toEqual(['a1']);
      // the caller's own list changed in place: the search follows it, not the copy held since
      onlyA.push('vb');
      expect(await ids(onlyA)).toEqual(['a1', 'b1']);
      onlyA.splice(0, 2, 'vb');
      expect(await ids(onlyA)).toEqual(['b1']);
      // entries added since the filter was last counted are found under it
      await store.upsert([entry('b2', 'vb', 0.7)]);
      expect(await ids(onlyA)).toEqual(['b1', 'b2']);
      await store.deleteVersion('vb');
      expect(await ids(onlyA)).toEqual([]);
      expect(await ids(['va'])).toEqual(['a1']);
      await store.close();
    });
  }
});

describe('embedded store: no search sees past its filter (property)', () => {
  const VERSIONS = ['v0', 'v1', 'v2', 'v3', 'v4', 'v5'];
  const collectionOf = (v: string) => `c${Number(v.slice(1)) % 3}`;
  // A few lists that repeat, so that searches hit the filter the store or its thread already holds and
  // consecutive filters often differ in one field only.
  const filterArb: fc.Arbitrary<SearchFilter> = fc
    .record({
      versionIds: fc.constantFrom(undefined, ['v0', 'v1'], ['v0', 'v1', 'v2', 'v3'], []),
      collectionIds: fc.constantFrom(undefined, ['c0'], ['c1', 'c2']),
      pageIndexes: fc.constantFrom(undefined, [0]),
    })
    .map((f) => Object.fromEntries(Object.entries(f).filter(([, v]) => v !== undefined)) as SearchFilter);
  const stepArb = fc.oneof(
    fc.record({ op: fc.constant('search' as const), filter: filterArb, again: fc.nat(3) }),
    // the previous search's filter with one field changed: what a cache keyed on the wrong fields would miss
    fc.record({
      op: fc.constant('vary' as const),
      filter: filterArb,
      field: fc.constantFrom('versionIds', 'collectionIds', 'pageIndexes'),
    }),
    fc.record({ op: fc.constant('add' as const), version: fc.constantFrom(...VERSIONS), n: fc.integer({ min: 1, max: 4 }) }),
    fc.record({ op: fc.constant('delete' as const), version: fc.constantFrom(...VERSIONS) }),
  );
  for (const [path, annThreshold] of [
    ['exact scan', Number.POSITIVE_INFINITY],
    ['index thread', 0],
  ] as const) {
    it(`${path}: every hit passes the filter of its own search, and none that passes is missing`, async () => {
      // One store (one index thread) for every run: each run's versions are its own, and what the
      // store holds from the runs before (filters, deleted entries) is part of what is tested.
      const store = openEmbeddedVectorStore({ path: ':memory:', dimensions: 3, annThreshold });
      await store.upsert([
        { chunk_id: 'seed', version_id: 'seed', document_id: 'seed', collection_id: 'c0', vector: Float32Array.of(1, 0, 0) },
      ]);
      let run = 0;
      try {
        await fc.assert(
          fc.asyncProperty(fc.array(stepArb, { minLength: 1, maxLength: 25 }), async (steps) => {
            const r = `r${run++}-`;
            const live = new Map<string, { version_id: string; collection_id: string; page_index: number }>();
            let next = 0;
            let previous: SearchFilter | undefined;
            try {
              for (const step of steps) {
                if (step.op === 'add') {
                  const records = Array.from({ length: step.n }, () => {
                    const i = next++;
                    const meta = { version_id: r + step.version, collection_id: collectionOf(step.version), page_index: i % 2 };
                    live.set(`${r}x${i}`, meta);
                    return {
                      ...meta,
                      chunk_id: `${r}x${i}`,
                      document_id: `d-${step.version}`,
                      vector: Float32Array.of(1, i % 5, i % 3),
                    };
                  });
                  await store.upsert(records);
                } else if (step.op === 'delete') {
                  await store.deleteVersion(r + step.version);
                  for (const [id, m] of live) if (m.version_id === r + step.version) live.delete(id);
                } else {
                  // `again` 0 reuses the previous search's filter object: the lists a store may compare by content
                  const drawn: SearchFilter = {
                    ...step.filter,
                    ...(step.filter.versionIds ? { versionIds: step.filter.versionIds.map((v) => r + v) } : {}),
                  };
                  let filter = drawn;
                  if (step.op === 'vary' && previous) {
                    const { [step.field]: _, ...rest } = previous;
                    filter = drawn[step.field] ? { ...rest, [step.field]: drawn[step.field] } : rest;
                  } else if (step.op === 'search' && step.again === 0 && previous) filter = previous;
                  previous = filter;
                  const hits = await store.search(Float32Array.of(1, 0.5, 0.5), { k: 100, filter });
                  const mine = hits.map((h) => h.chunk_id).filter((id) => id.startsWith(r) || !filter.versionIds);
                  expect(mine.length, 'a hit of another run under a version filter').toBe(hits.length);
                  const expected = [...live]
                    .filter(
                      ([, m]) =>
                        (!filter.versionIds || filter.versionIds.includes(m.version_id)) &&
                        (!filter.collectionIds || filter.collectionIds.includes(m.collection_id)) &&
                        (!filter.pageIndexes || filter.pageIndexes.includes(m.page_index)),
                    )
                    .map(([id]) => id)
                    .sort();
                  const got = hits.map((h) => h.chunk_id).filter((id) => id.startsWith(r));
                  expect(got.sort()).toEqual(expected);
                }
              }
            } finally {
              for (const v of VERSIONS) await store.deleteVersion(r + v);
            }
          }),
          { numRuns: 60, seed: 7 },
        );
      } finally {
        await store.close();
      }
    }, 120_000);
  }
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
  it('keeps its graph across a clean restart, ignores a stale one, and removes an earlier release’s HNSW files', async () => {
    const path = join(dir, 'graph.db');
    for (const old of ['hnsw', 'hnsw.json', 'hnsw.0']) writeFileSync(`${path}.${old}`, 'an earlier release');
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
    expect(existsSync(`${path}.usearch`) && existsSync(`${path}.usearch.json`)).toBe(true);
    expect(['hnsw', 'hnsw.json', 'hnsw.0'].filter((old) => existsSync(`${path}.${old}`))).toEqual([]);
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

  it('refuses a page_index its index cannot hold, before writing anything', async () => {
    const store = openEmbeddedVectorStore({ path: join(dir, 'pages.db'), dimensions: 2 });
    const rec = (page_index: number) => ({
      chunk_id: `p${page_index}`,
      version_id: 'v',
      document_id: 'd',
      collection_id: 'c',
      page_index,
      vector: Float32Array.of(1, 0),
    });
    for (const page of [1.5, -1, 2 ** 31])
      await expect(store.upsert([rec(0), rec(page)])).rejects.toMatchObject({ code: 'PP_VALIDATION' });
    expect(await store.search(Float32Array.of(1, 0), { k: 5 })).toEqual([]);
    await store.upsert([rec(2 ** 31 - 1)]);
    expect(await store.search(Float32Array.of(1, 0), { k: 5, filter: { pageIndexes: [2 ** 31 - 1] } })).toHaveLength(1);
    await store.close();
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
    // stored as half floats: the score is within 10⁻³ of the exact cosine
    expect(hit?.score).toBeCloseTo(1, 3);
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
