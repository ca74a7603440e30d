import type { LexicalHit, SearchFilter } from '@pinpoint/core';
import { seededRandom } from '@pinpoint/testing';
import { describe, expect, it } from 'vitest';
import { matchesFilter, type VectorMeta } from './filter.js';
import { VectorIndex } from './vector-index.js';

const DIMS = 16;

function unit(rnd: () => number): Float32Array {
  const v = Float32Array.from({ length: DIMS }, () => rnd() * 2 - 1);
  const n = Math.hypot(...v);
  return v.map((x) => x / n);
}

/**
 * n entries over 3 collections, 12 versions (one document each) and 4 pages; their chunk ids of
 * both shapes the label table keeps: the engine's (version id, ":c", six digits) and any other.
 */
function corpus(n: number, seed: number): { metas: VectorMeta[]; vectors: Float32Array } {
  const rnd = seededRandom(seed);
  const metas: VectorMeta[] = [];
  const vectors = new Float32Array(n * DIMS);
  for (let i = 0; i < n; i++) {
    const version = Math.floor(rnd() * 12);
    metas.push({
      chunk_id: i % 2 ? `c${i}` : `v${version}:c${String(i).padStart(6, '0')}`,
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
  it('gives the exact scan’s top k and scores from its int8 graph, with every kind of filter, after deletes and replacements', () => {
    const { metas, vectors } = corpus(600, 7);
    const exact = new VectorIndex(DIMS, Number.POSITIVE_INFINITY);
    const graph = new VectorIndex(DIMS, 50);
    // past its threshold this one keeps no vectors: it reads them back, as the store's thread does from SQLite
    const stored = new Map<string, Float32Array>();
    const reads: number[] = [];
    const reading = new VectorIndex(DIMS, 50, (ids) => {
      reads.push(ids.length);
      return ids.map((id) => stored.get(id));
    });
    const replacement = unit(seededRandom(1));
    for (const index of [exact, graph, reading]) {
      index.add(metas.slice(0, 300), vectors.subarray(0, 300 * DIMS));
      index.add(metas.slice(300), vectors.subarray(300 * DIMS));
      index.deleteVersion('v6');
      index.add([{ ...(metas[3] as VectorMeta), version_id: 'v9', document_id: 'd9' }], replacement);
    }
    for (const [i, m] of metas.entries())
      if (m.version_id !== 'v6') stored.set(m.chunk_id, vectors.subarray(i * DIMS, (i + 1) * DIMS));
    stored.set('c3', replacement);
    expect([exact.usesAnn, graph.usesAnn, reading.usesAnn]).toEqual([false, true, true]);
    expect([graph.holdsVectors, reading.holdsVectors]).toEqual([true, false]);
    expect(graph.size).toBe(exact.size);
    expect(reading.size).toBe(exact.size);
    const rnd = seededRandom(99);
    for (let q = 0; q < 20; q++) {
      const query = unit(rnd);
      for (const filter of filters) {
        const want = exact.search(query, 10, filter);
        expect(graph.search(query, 10, filter)).toEqual(want);
        expect(reading.search(query, 10, filter)).toEqual(want);
      }
    }
    // the graph chooses candidates: an unfiltered question reads back a few dozen vectors, not the pool
    reads.length = 0;
    reading.search(unit(rnd), 10);
    expect(reads.reduce((a, b) => a + b, 0)).toBeLessThanOrEqual(30 * 12);
  });

  it('rebuilds its graph without tombstones once they outnumber the live entries, and still answers exactly', () => {
    const { metas, vectors } = corpus(600, 5);
    const exact = new VectorIndex(DIMS, Number.POSITIVE_INFINITY);
    const graph = new VectorIndex(DIMS, 20);
    for (const index of [exact, graph]) {
      index.add(metas, vectors);
      // the same chunks again and again, each time with new vectors: every replaced node is a tombstone
      for (let round = 1; round <= 3; round++)
        index.add(
          metas,
          vectors.map((x, i) => (i % DIMS === round ? -x : x)),
        );
    }
    const rnd = seededRandom(4);
    for (let q = 0; q < 10; q++) {
      const query = unit(rnd);
      for (const filter of filters) expect(graph.search(query, 10, filter)).toEqual(exact.search(query, 10, filter));
    }
    expect((graph.graph()?.index.size() ?? 0) <= 2 * graph.size + 20).toBe(true);
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

  it('hands its entries over whole (export), and adopts a graph only for exactly its chunks, with a reader', () => {
    const { metas, vectors } = corpus(120, 11);
    const a = new VectorIndex(DIMS, 40);
    a.add(metas, vectors);
    a.deleteVersion('v0');
    const handed = a.export();
    const b = new VectorIndex(DIMS, Number.POSITIVE_INFINITY);
    b.add(handed.entries, handed.vectors);
    const query = unit(seededRandom(2));
    expect(b.search(query, 5)).toEqual(a.search(query, 5));
    const graph = a.graph();
    if (!graph) throw new Error('no graph past the threshold');
    const byId = new Map(handed.entries.map((e, i) => [e.chunk_id, handed.vectors.subarray(i * DIMS, (i + 1) * DIMS)]));
    const reader = (ids: string[]) => ids.map((id) => byId.get(id));
    expect(new VectorIndex(DIMS, 40, reader).adoptGraph(graph, handed.entries.slice(1))).toBe(false);
    expect(new VectorIndex(DIMS, 40).adoptGraph(graph, handed.entries)).toBe(false);
    const c = new VectorIndex(DIMS, 40, reader);
    expect(c.adoptGraph(graph, handed.entries)).toBe(true);
    expect(c.search(query, 5)).toEqual(a.search(query, 5));
  });

  it('answers as an object per entry did, under every kind of filter, through replacements, deletes and a graph rebuilt', () => {
    const reference = new ReferenceIndex();
    const stored = new Map<string, Float32Array>();
    const indexes = [
      new VectorIndex(DIMS, Number.POSITIVE_INFINITY),
      new VectorIndex(DIMS, 40),
      new VectorIndex(DIMS, 40, (ids) => ids.map((id) => stored.get(id))),
    ];
    // the same, each add told the version every chunk is stored under already, as the store tells it
    const told = [new VectorIndex(DIMS, Number.POSITIVE_INFINITY), new VectorIndex(DIMS, 40)];
    const add = (metas: VectorMeta[], vectors: Float32Array) => {
      const versionOf = new Map([...reference.entries].map(([id, e]) => [id, e.meta.version_id]));
      const was = metas.map((m) => {
        const v = versionOf.get(m.chunk_id) ?? null;
        versionOf.set(m.chunk_id, m.version_id);
        return v;
      });
      reference.add(metas, vectors);
      for (const index of indexes) index.add(metas, vectors);
      for (const index of told) index.add(metas, vectors, was);
      stored.clear();
      for (const [id, e] of reference.entries) stored.set(id, e.vector);
    };
    const deleteVersion = (v: string) => {
      reference.deleteVersion(v);
      for (const index of [...indexes, ...told]) index.deleteVersion(v);
    };
    const rnd = seededRandom(21);
    const check = (stage: string) => {
      for (const index of [...indexes, ...told]) expect(index.size, stage).toBe(reference.entries.size);
      for (let q = 0; q < 4; q++) {
        const query = unit(rnd);
        for (const filter of [...filters, ...moreFilters])
          for (const k of [10, 1000]) {
            const want = reference.search(query, k, filter);
            for (const index of [...indexes, ...told])
              expect(index.search(query, k, filter), `${stage} ${JSON.stringify(filter)}`).toEqual(want);
          }
      }
    };
    const { metas, vectors } = corpus(400, 13);
    add(metas.slice(0, 250), vectors.subarray(0, 250 * DIMS));
    add(metas.slice(250), vectors.subarray(250 * DIMS));
    // one version over two documents and collections: two groups found by one version id
    add(
      [
        { chunk_id: 'm1', version_id: 'vm', document_id: 'dA', collection_id: 'col0', page_index: 2 },
        { chunk_id: 'm2', version_id: 'vm', document_id: 'dB', collection_id: 'col1' },
      ],
      Float32Array.from([...unit(rnd), ...unit(rnd)]),
    );
    check('added');
    // the same chunk twice in one call (the second wins), and chunks moved to another version, collection and page
    const moved = [0, 1, 2, 3, 7].map((i) => ({
      ...(metas[i] as VectorMeta),
      version_id: 'v11',
      document_id: 'd11',
      collection_id: 'col2',
    }));
    add(
      [
        { ...(metas[5] as VectorMeta), version_id: 'v0', page_index: 3 },
        ...moved,
        { ...(metas[5] as VectorMeta), version_id: 'v4', document_id: 'd4' },
      ],
      Float32Array.from(Array.from({ length: 7 }, () => [...unit(rnd)]).flat()),
    );
    check('replaced');
    deleteVersion('v3');
    deleteVersion('vm');
    deleteVersion('missing');
    check('deleted');
    // a deleted version written again: its group is made anew
    const v3 = metas.filter((m) => m.version_id === 'v3');
    add(v3, Float32Array.from(v3.flatMap(() => [...unit(rnd)])));
    // rounds of replacements until the graph is rebuilt without its tombstones
    for (let round = 0; round < 3; round++)
      add(
        metas.slice(0, 300),
        vectors.subarray(0, 300 * DIMS).map((x) => (round % 2 ? x : -x)),
      );
    for (const index of indexes.slice(1)) expect((index.graph()?.index.size() ?? 0) <= 2 * index.size + 40).toBe(true);
    check('rebuilt');
  });
});

/** Filters beyond the first list's: empty lists of each field, repeats, and a page the index cannot hold. */
const moreFilters: SearchFilter[] = [
  { documentIds: [] },
  { collectionIds: [] },
  { pageIndexes: [] },
  { pageIndexes: [-1, 0] },
  { collectionIds: ['col0', 'col0'] },
  { versionIds: ['vm'] },
  { versionIds: ['vm', 'v3'], collectionIds: ['col1'] },
  { versionIds: ['v1', 'v1', 'v11'], pageIndexes: [2, 3] },
  { documentIds: ['d3', 'dA', 'd11'], pageIndexes: [0, 1, 2, 3] },
  { collectionIds: ['col2'], documentIds: ['d2', 'd5', 'd11'], versionIds: ['v2', 'v5', 'v8', 'v11'] },
];

/** What the index answered with an object per entry: every live entry filtered by matchesFilter and scored exactly. */
class ReferenceIndex {
  readonly entries = new Map<string, { meta: VectorMeta; vector: Float32Array }>();

  add(metas: VectorMeta[], vectors: Float32Array): void {
    for (const [i, meta] of metas.entries()) {
      this.entries.delete(meta.chunk_id);
      this.entries.set(meta.chunk_id, { meta, vector: vectors.slice(i * DIMS, (i + 1) * DIMS) });
    }
  }

  deleteVersion(versionId: string): void {
    for (const [id, e] of this.entries) if (e.meta.version_id === versionId) this.entries.delete(id);
  }

  search(q: Float32Array, k: number, filter: SearchFilter | undefined): LexicalHit[] {
    const keep = matchesFilter(filter);
    const hits: LexicalHit[] = [];
    for (const [chunk_id, { meta, vector }] of this.entries) {
      if (!keep(meta)) continue;
      let score = 0;
      for (let i = 0; i < DIMS; i++) score += (q[i] as number) * (vector[i] as number);
      hits.push({ chunk_id, score });
    }
    return hits.sort((a, b) => b.score - a.score || (a.chunk_id < b.chunk_id ? -1 : 1)).slice(0, k);
  }
}
