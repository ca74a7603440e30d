import type { VectorRecord, VectorStore } from '@pinpoint/core';
import { expect, it } from 'vitest';

const DIMS = 8;

function basis(i: number, noise = 0): Float32Array {
  const v = new Float32Array(DIMS).fill(noise);
  v[i % DIMS] = 1;
  return v;
}

function record(chunk: string, version: string, vector: Float32Array, extra: Partial<VectorRecord> = {}): VectorRecord {
  return {
    chunk_id: chunk,
    version_id: version,
    document_id: `doc-${version}`,
    collection_id: 'col-a',
    page_index: 0,
    vector,
    ...extra,
  };
}

/** The VectorStore port's conformance suite (call inside a describe); `make` opens an empty store of DIMS dimensions. */
export function vectorStoreConformance(make: (dimensions: number) => Promise<VectorStore>): void {
  it('finds the nearest vectors by cosine, best first, k at most', async () => {
    const store = await make(DIMS);
    await store.upsert([
      record('c0', 'v1', basis(0)),
      record('c1', 'v1', basis(1)),
      record('c2', 'v1', basis(0, 0.2)),
      record('c3', 'v1', basis(2)),
    ]);
    const hits = await store.search(basis(0), { k: 2 });
    expect(hits.map((h) => h.chunk_id)).toEqual(['c0', 'c2']);
    expect(hits[0]?.score).toBeCloseTo(1, 4);
    expect(hits[1]?.score).toBeLessThan(hits[0]?.score ?? 0);
    await store.close();
  });

  it('upserts by chunk id (a second write replaces the vector)', async () => {
    const store = await make(DIMS);
    await store.upsert([record('c0', 'v1', basis(0)), record('c1', 'v1', basis(1))]);
    await store.upsert([record('c0', 'v1', basis(3))]);
    expect((await store.search(basis(3), { k: 1 }))[0]?.chunk_id).toBe('c0');
    expect((await store.search(basis(0), { k: 5 })).filter((h) => h.score > 0.9)).toEqual([]);
    // written again under another version: found once, under the new version only
    await store.upsert([record('c1', 'v2', basis(2))]);
    expect((await store.search(basis(2), { k: 5 })).map((h) => h.chunk_id).filter((id) => id === 'c1')).toEqual(['c1']);
    expect((await store.search(basis(2), { k: 5, filter: { versionIds: ['v1'] } })).map((h) => h.chunk_id)).toEqual(['c0']);
    expect((await store.search(basis(2), { k: 5, filter: { versionIds: ['v2'] } })).map((h) => h.chunk_id)).toEqual(['c1']);
    await store.close();
  });

  it('filters by collection, document, version and page', async () => {
    const store = await make(DIMS);
    await store.upsert([
      record('a', 'v1', basis(0), { page_index: 0 }),
      record('b', 'v2', basis(0, 0.1), { page_index: 3 }),
      record('c', 'v3', basis(0, 0.2), { collection_id: 'col-b', page_index: 3 }),
    ]);
    const ids = async (filter: Parameters<VectorStore['search']>[1]['filter']) =>
      (await store.search(basis(0), { k: 10, ...(filter ? { filter } : {}) })).map((h) => h.chunk_id);
    expect(await ids(undefined)).toEqual(['a', 'b', 'c']);
    expect(await ids({ collectionIds: ['col-b'] })).toEqual(['c']);
    expect(await ids({ documentIds: ['doc-v2', 'doc-v3'] })).toEqual(['b', 'c']);
    expect(await ids({ versionIds: ['v1'] })).toEqual(['a']);
    expect(await ids({ pageIndexes: [3], collectionIds: ['col-a'] })).toEqual(['b']);
    await store.close();
  });

  it('deletes a version’s vectors', async () => {
    const store = await make(DIMS);
    await store.upsert([record('a', 'v1', basis(0)), record('b', 'v2', basis(0, 0.1))]);
    await store.deleteVersion('v1');
    expect((await store.search(basis(0), { k: 10 })).map((h) => h.chunk_id)).toEqual(['b']);
    await store.deleteVersion('missing');
    await store.close();
  });

  it('rejects vectors of the wrong dimension with PP_VALIDATION', async () => {
    const store = await make(DIMS);
    await expect(store.upsert([record('a', 'v1', new Float32Array(3))])).rejects.toMatchObject({ code: 'PP_VALIDATION' });
    await expect(store.search(new Float32Array(3), { k: 1 })).rejects.toMatchObject({ code: 'PP_VALIDATION' });
    expect(store.id).toMatch(/\S/);
    await store.close();
  });
}
