import type { SearchFilter } from '@pinpoint/core';
import { seededRandom } from '@pinpoint/testing';
import { describe, expect, it } from 'vitest';
import type { VectorMeta } from './filter.js';
import { VectorIndex } from './vector-index.js';

const DIMS = 16;

function unit(rnd: () => number): Float32Array {
  const v = Float32Array.from({ length: DIMS }, () => rnd() * 2 - 1);
  const n = Math.hypot(...v);
  return v.map((x) => x / n);
}

/** n entries over 3 collections, 12 versions (one document each) and 4 pages. */
function corpus(n: number, seed: number): { metas: VectorMeta[]; vectors: Float32Array } {
  const rnd = seededRandom(seed);
  const metas: VectorMeta[] = [];
  const vectors = new Float32Array(n * DIMS);
  for (let i = 0; i < n; i++) {
    const version = Math.floor(rnd() * 12);
    metas.push({
      chunk_id: `c${i}`,
      version_id: `v${version}`,
      document_id: `d${version}`,
      collection_id: `col${version % 3}`,
      ...(i % 5 === 0 ? {} : { page_index: i % 4 }),
    });
    vectors.set(unit(rnd), i * DIMS);
  }
  return { metas, vectors };
}

const filters: (SearchFilter | undefined)[] = [
  undefined,
  { collectionIds: ['col1'] },
  { collectionIds: ['col0', 'col2'], versionIds: ['v0', 'v1', 'v2', 'v3', 'v5', 'v5'] },
  { versionIds: ['v1', 'v4', 'v7', 'v10', 'missing'] },
  { documentIds: ['d2', 'd8'] },
  { pageIndexes: [1, 3], collectionIds: ['col0'] },
  { versionIds: [] },
];

describe('VectorIndex', () => {
  it('gives the exact scan’s top k from its graph, with every kind of filter, after deletes and replacements', () => {
    const { metas, vectors } = corpus(600, 7);
    const exact = new VectorIndex(DIMS, Number.POSITIVE_INFINITY);
    const graph = new VectorIndex(DIMS, 50);
    const segmented = new VectorIndex(DIMS, 50, 64);
    for (const index of [exact, graph, segmented]) {
      index.add(metas.slice(0, 300), vectors.subarray(0, 300 * DIMS));
      index.add(metas.slice(300), vectors.subarray(300 * DIMS));
      index.deleteVersion('v6');
      index.add([{ ...(metas[3] as VectorMeta), version_id: 'v9', document_id: 'd9' }], unit(seededRandom(1)));
    }
    expect(graph.usesAnn).toBe(true);
    expect(exact.usesAnn).toBe(false);
    expect(graph.size).toBe(exact.size);
    expect(segmented.size).toBe(exact.size);
    expect([graph.graphCount, segmented.graphCount]).toEqual([1, 10]);
    const rnd = seededRandom(99);
    for (let q = 0; q < 20; q++) {
      const query = unit(rnd);
      for (const filter of filters) {
        const want = exact.search(query, 10, filter).map((h) => h.chunk_id);
        expect(graph.search(query, 10, filter).map((h) => h.chunk_id)).toEqual(want);
        expect(segmented.search(query, 10, filter).map((h) => h.chunk_id)).toEqual(want);
      }
    }
  });

  it('deletes only the named version, and counts what is left per collection', () => {
    const { metas, vectors } = corpus(200, 3);
    const index = new VectorIndex(DIMS, Number.POSITIVE_INFINITY);
    index.add(metas, vectors);
    const inV2 = metas.filter((m) => m.version_id === 'v2').length;
    index.deleteVersion('v2');
    index.deleteVersion('missing');
    expect(index.size).toBe(200 - inV2);
    const all = index.search(unit(seededRandom(5)), 1000, { collectionIds: ['col2'] });
    expect(all).toHaveLength(metas.filter((m) => m.collection_id === 'col2' && m.version_id !== 'v2').length);
    expect(all.every((h) => metas[Number(h.chunk_id.slice(1))]?.version_id !== 'v2')).toBe(true);
  });

  it('hands its entries over whole (export), and adopts a graph only for exactly its chunks', () => {
    const { metas, vectors } = corpus(120, 11);
    const a = new VectorIndex(DIMS, 40);
    a.add(metas, vectors);
    a.deleteVersion('v0');
    const handed = a.export();
    const b = new VectorIndex(DIMS, Number.POSITIVE_INFINITY);
    b.add(handed.entries, handed.vectors);
    const query = unit(seededRandom(2));
    expect(b.search(query, 5).map((h) => h.chunk_id)).toEqual(a.search(query, 5).map((h) => h.chunk_id));
    const graph = a.graph();
    if (!graph) throw new Error('no graph past the threshold');
    expect(new VectorIndex(DIMS, 40).adoptGraph(graph, handed.entries.slice(1))).toBe(false);
    expect(new VectorIndex(DIMS, 40, 50).adoptGraph(graph, handed.entries)).toBe(false);
    const c = new VectorIndex(DIMS, 40);
    expect(c.adoptGraph(graph, handed.entries)).toBe(true);
    expect(c.search(query, 5)).toEqual(a.search(query, 5));
  });
});
