import type { LexicalHit, SearchFilter } from '@pinpoint/core';
import hnswlib from 'hnswlib-node';
import { copyFilter, matchesFilter, sameFilter, type VectorMeta } from './filter.js';
import type { SavedGraphs } from './hnsw-snapshot.js';

const HNSW_M = 16;
const HNSW_EF_CONSTRUCTION = 64;
const EF_SEARCH = 128;
/**
 * Labels per graph. An insert costs more the larger its graph (at a million vectors in one graph, twice
 * what it cost at 100k), so past this size a new graph is started: inserts cost the same from the first
 * vector to the last, and a search asks every graph and keeps the best k of all.
 */
const SEGMENT_SIZE = 100_000;

function byScore(a: LexicalHit, b: LexicalHit): number {
  return b.score - a.score || (a.chunk_id < b.chunk_id ? -1 : 1);
}

function dot(q: Float32Array, v: Float32Array | number[]): number {
  let s = 0;
  for (let i = 0; i < q.length; i++) s += (q[i] as number) * (v[i] as number);
  return s;
}

/** Keeps the best k of a stream of hits in a small sorted array (no sort of the whole pool). */
function pushTop(top: LexicalHit[], hit: LexicalHit, k: number): void {
  if (top.length === k && byScore(hit, top[k - 1] as LexicalHit) >= 0) return;
  let at = top.length;
  while (at > 0 && byScore(hit, top[at - 1] as LexicalHit) < 0) at--;
  top.splice(at, 0, hit);
  if (top.length > k) top.pop();
}

/**
 * The embedded store's in-memory search structure, free of I/O: entries by label, the labels of
 * each version, a count per collection, and either the vectors in one flat arena (exact scan) or an
 * HNSW graph that holds them (past the threshold; the arena is then released, so a million vectors
 * are kept once). Vectors come in unit length.
 */
export class VectorIndex {
  private readonly byLabel: (VectorMeta | undefined)[] = [];
  private readonly byChunk = new Map<string, number>();
  private readonly byVersion = new Map<string, Set<number>>();
  private readonly perCollection = new Map<string, number>();
  /** Ids repeat across a version's chunks: one string each. */
  private readonly interned = new Map<string, string>();
  private arena: Float32Array | null = new Float32Array(0);
  /** Graph g holds the labels g × segmentSize … (g + 1) × segmentSize − 1; null below the threshold. */
  private segments: hnswlib.HierarchicalNSW[] | null = null;
  private readonly scratch: number[];
  /** Bumped by every entry added or forgotten: a filter's pool counted before is stale. */
  private changes = 0;
  /**
   * The last filter searched, its predicate and pool: questions of one team repeat the same filter
   * (the newest version of each document), and counting its pool walks every version it names.
   */
  private lastFilter: {
    filter: SearchFilter | undefined;
    keep: (m: VectorMeta) => boolean;
    pool: number;
    changes: number;
  } | null = null;

  constructor(
    readonly dimensions: number,
    readonly threshold: number,
    readonly segmentSize = SEGMENT_SIZE,
  ) {
    this.scratch = new Array<number>(dimensions).fill(0);
  }

  get size(): number {
    return this.byChunk.size;
  }

  get usesAnn(): boolean {
    return this.segments !== null;
  }

  /** How many graphs hold the vectors (0 below the threshold). */
  get graphCount(): number {
    return this.segments?.length ?? 0;
  }

  private segmentOf(label: number): hnswlib.HierarchicalNSW | undefined {
    return this.segments?.[Math.floor(label / this.segmentSize)];
  }

  private newSegment(): hnswlib.HierarchicalNSW {
    const ann = new hnswlib.HierarchicalNSW('ip', this.dimensions);
    ann.initIndex({
      maxElements: Math.min(this.segmentSize, 1024),
      m: HNSW_M,
      efConstruction: HNSW_EF_CONSTRUCTION,
      randomSeed: 42,
    });
    return ann;
  }

  private intern(s: string): string {
    const known = this.interned.get(s);
    if (known !== undefined) return known;
    this.interned.set(s, s);
    return s;
  }

  /** `vectors` holds the entries' vectors one after the other (entries.length × dimensions). */
  add(entries: VectorMeta[], vectors: Float32Array): void {
    for (const [i, e] of entries.entries()) {
      const old = this.byChunk.get(e.chunk_id);
      if (old !== undefined) this.forget(old);
      this.store(this.register(e), vectors.subarray(i * this.dimensions, (i + 1) * this.dimensions));
    }
    if (!this.segments && this.size > this.threshold) this.buildAnn();
  }

  /** The next label for an entry, in every map. */
  private register(e: VectorMeta): number {
    const label = this.byLabel.length;
    const meta: VectorMeta = {
      chunk_id: e.chunk_id,
      version_id: this.intern(e.version_id),
      document_id: this.intern(e.document_id),
      collection_id: this.intern(e.collection_id),
      ...(e.page_index === undefined ? {} : { page_index: e.page_index }),
    };
    this.byLabel.push(meta);
    this.byChunk.set(meta.chunk_id, label);
    const labels = this.byVersion.get(meta.version_id) ?? new Set<number>();
    this.byVersion.set(meta.version_id, labels);
    labels.add(label);
    this.perCollection.set(meta.collection_id, (this.perCollection.get(meta.collection_id) ?? 0) + 1);
    this.changes++;
    return label;
  }

  /**
   * The graph takes plain arrays and copies them: one array is refilled for every insert, instead of a
   * new one per vector (a million inserts made 3 GB of garbage in the index thread).
   */
  private asArray(vector: Float32Array | number[]): number[] {
    const out = this.scratch;
    for (let i = 0; i < this.dimensions; i++) out[i] = vector[i] as number;
    return out;
  }

  private store(label: number, vector: Float32Array | number[]): void {
    const segments = this.segments;
    if (segments) {
      const g = Math.floor(label / this.segmentSize);
      while (segments.length <= g) segments.push(this.newSegment());
      const ann = segments[g] as hnswlib.HierarchicalNSW;
      if (ann.getCurrentCount() >= ann.getMaxElements())
        ann.resizeIndex(Math.min(this.segmentSize, Math.max(1024, Math.ceil(ann.getMaxElements() * 1.5))));
      ann.addPoint(this.asArray(vector), label);
      return;
    }
    const arena = this.arena as Float32Array;
    const end = (label + 1) * this.dimensions;
    if (end > arena.length) {
      const grown = new Float32Array(Math.max(end, arena.length * 2, 64 * this.dimensions));
      grown.set(arena);
      this.arena = grown;
    }
    (this.arena as Float32Array).set(vector, label * this.dimensions);
  }

  private forget(label: number): void {
    const meta = this.byLabel[label];
    if (!meta) return;
    this.byLabel[label] = undefined;
    this.changes++;
    this.byChunk.delete(meta.chunk_id);
    const labels = this.byVersion.get(meta.version_id);
    labels?.delete(label);
    if (labels?.size === 0) {
      this.byVersion.delete(meta.version_id);
      this.interned.delete(meta.version_id);
    }
    const left = (this.perCollection.get(meta.collection_id) ?? 1) - 1;
    if (left > 0) this.perCollection.set(meta.collection_id, left);
    else this.perCollection.delete(meta.collection_id);
    this.segmentOf(label)?.markDelete(label);
  }

  deleteVersion(versionId: string): void {
    for (const label of [...(this.byVersion.get(versionId) ?? [])]) this.forget(label);
  }

  private vectorOf(label: number): Float32Array | number[] {
    const ann = this.segmentOf(label);
    if (ann) return ann.getPoint(label);
    return (this.arena as Float32Array).subarray(label * this.dimensions, (label + 1) * this.dimensions);
  }

  /** Builds the graphs over the stored vectors and releases the arena. */
  private buildAnn(): void {
    const arena = this.arena as Float32Array;
    this.segments = [];
    const d = this.dimensions;
    for (const [label, meta] of this.byLabel.entries()) if (meta) this.store(label, arena.subarray(label * d, (label + 1) * d));
    this.arena = null;
  }

  /** The labels a filter can match: those of its versions when it names them, else all. */
  private candidates(filter: SearchFilter | undefined): Iterable<number> {
    if (!filter?.versionIds) return this.byLabel.keys();
    const byVersion = this.byVersion;
    return (function* () {
      for (const v of new Set(filter.versionIds)) yield* byVersion.get(v) ?? [];
    })();
  }

  /** How many entries pass the filter, counted per version or collection where the filter allows. */
  private poolSize(filter: SearchFilter | undefined, keep: (m: VectorMeta) => boolean): number {
    if (!filter) return this.size;
    const { versionIds, collectionIds, documentIds, pageIndexes } = filter;
    if (!pageIndexes && versionIds) {
      let n = 0;
      for (const v of new Set(versionIds)) {
        const labels = this.byVersion.get(v);
        const first = labels?.values().next().value;
        if (first !== undefined && keep(this.byLabel[first] as VectorMeta)) n += labels?.size ?? 0;
      }
      return n;
    }
    if (!pageIndexes && !documentIds && collectionIds)
      return [...new Set(collectionIds)].reduce((n, c) => n + (this.perCollection.get(c) ?? 0), 0);
    let n = 0;
    for (const meta of this.byLabel) if (meta && keep(meta)) n++;
    return n;
  }

  /** The filter's predicate and pool, counted again only when it or the entries changed. */
  private compiled(filter: SearchFilter | undefined): { keep: (m: VectorMeta) => boolean; pool: number } {
    const last = this.lastFilter;
    if (last && sameFilter(last.filter, filter)) {
      if (last.changes !== this.changes) {
        last.pool = this.poolSize(last.filter, last.keep);
        last.changes = this.changes;
      }
      return last;
    }
    const own = filter && copyFilter(filter);
    const keep = matchesFilter(own);
    this.lastFilter = { filter: own, keep, pool: this.poolSize(own, keep), changes: this.changes };
    return this.lastFilter;
  }

  search(q: Float32Array, k: number, filter?: SearchFilter): LexicalHit[] {
    const { keep, pool } = this.compiled(filter);
    if (pool === 0 || k <= 0) return [];
    const segments = this.segments;
    if (!segments || pool <= this.threshold) {
      const top: LexicalHit[] = [];
      for (const label of this.candidates(filter)) {
        const meta = this.byLabel[label];
        if (!meta || !keep(meta)) continue;
        pushTop(top, { chunk_id: meta.chunk_id, score: dot(q, this.vectorOf(label)) }, k);
      }
      return top;
    }
    const passes = (label: number) => {
      const meta = this.byLabel[label];
      return meta !== undefined && keep(meta);
    };
    const query = Array.from(q);
    const top: LexicalHit[] = [];
    for (const ann of segments) {
      if (ann.getCurrentCount() === 0) continue;
      ann.setEf(Math.max(EF_SEARCH, k * 4));
      const found = ann.searchKnn(query, Math.min(k, pool, ann.getCurrentCount()), pool === this.size ? undefined : passes);
      for (const [i, label] of found.neighbors.entries()) {
        const chunkId = this.byLabel[label]?.chunk_id;
        if (chunkId !== undefined) pushTop(top, { chunk_id: chunkId, score: 1 - (found.distances[i] ?? 1) }, k);
      }
    }
    return top;
  }

  /** The live entries and their vectors one after the other: what a thread is handed. */
  export(): { entries: VectorMeta[]; vectors: Float32Array } {
    const entries: VectorMeta[] = [];
    const vectors = new Float32Array(this.size * this.dimensions);
    for (const [label, meta] of this.byLabel.entries()) {
      if (!meta) continue;
      vectors.set(this.vectorOf(label), entries.length * this.dimensions);
      entries.push(meta);
    }
    return { entries, vectors };
  }

  /** The graphs, their size and the chunk id of each label, for a snapshot; null below the threshold. */
  graph(): SavedGraphs | null {
    if (!this.segments) return null;
    return { segments: this.segments, segmentSize: this.segmentSize, labels: this.byLabel.map((m) => m?.chunk_id ?? null) };
  }

  /**
   * Takes saved graphs of this index's segment size whose labels name exactly these entries' chunks;
   * false (unchanged) otherwise.
   */
  adoptGraph(saved: SavedGraphs, metas: VectorMeta[]): boolean {
    const { segments, segmentSize, labels } = saved;
    if (segmentSize !== this.segmentSize || segments.length > Math.ceil(labels.length / segmentSize)) return false;
    const byId = new Map(metas.map((m) => [m.chunk_id, m]));
    if (labels.filter((l) => l !== null).length !== byId.size) return false;
    if (!labels.every((l) => l === null || byId.has(l)) || this.size > 0) return false;
    this.arena = null;
    this.segments = segments;
    for (const id of labels) {
      if (id === null) this.byLabel.push(undefined);
      else this.register(byId.get(id) as VectorMeta);
    }
    return true;
  }
}
