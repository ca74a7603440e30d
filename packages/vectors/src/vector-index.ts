import type { LexicalHit, SearchFilter } from '@pinpoint/core';
import { Index, MetricKind, ScalarKind } from 'usearch';
import { copyFilter, sameFilter, type VectorMeta } from './filter.js';
import { type LabelFilter, type LabelMeta, LabelTable, labelMetaOf, type SavedChunks, savedChunkIds } from './label-table.js';

/**
 * The graph's settings. Vectors are kept in it as int8 (a million 384-dimension vectors take 384 MB
 * instead of 1.5 GB); the int8 scores only choose candidates, and the exact float vectors order them.
 * Measured on the scale bench's vectors (test encoder, recall@10 against an exact scan, one insert
 * thread): what misses is the graph, not the int8 codes (three or ten candidates per hit give the same
 * recall; float vectors in the graph recalled less), and a wide search repairs a cheaply built graph
 * for less than a costly build does. At 100k: connectivity 32 / expansion 200 on add / 512 on search
 * 0.97 at 0.27 ms an insert; 24 / 64 / 2048 0.98 at 0.10 ms. At a million (24 / 64, built in batches
 * of 4,096): search expansion 1,024 / 2,048 / 4,096 / 8,192 recall 0.905 / 0.911 / 0.925 / 0.930 at a
 * p50 of 3.7 / 6.5 / 12.1 / 21.9 ms; the same settings built during ingestion recalled 0.951 at 2,048.
 * Later graphs built during ingestion at 24 / 64 / 4,096 recalled 0.943–0.980 from run to run (two
 * recorded runs 0.945 and 0.943, 0.944 on 300 questions), the order vectors arrive in moving it by
 * ±0.02; offline builds of the same million vectors recalled 0.934–0.963 at 24 / 64, 0.953–0.974 at
 * 32 / 64 (61 MiB more graph) and 0.961–0.974 at 24 / 128. Expansion 128 on add, built during ingestion
 * (7 Dec 2026, one run, same machine as the 0.943): recall 0.981 (0.978 on 300 questions), hybrid p95
 * 48.1 against 56.6 ms, ingestion 445 against 500 chunks/s, the graph the same size.
 * A saved graph is built again at open only when its shape (metric, codes, connectivity) is not
 * today's; one saved with other expansions on add or search is kept (ann-snapshot.ts, shapeOf).
 */
export const GRAPH_CONFIG = {
  metric: MetricKind.Cos,
  quantization: ScalarKind.I8,
  connectivity: 24,
  expansion_add: 128,
  expansion_search: 4096,
} as const;
/** Candidates the graph returns per hit asked for, before the exact scores pick the best k. */
const OVERSAMPLE = 3;
/** Past this many candidates, a filter that the graph's neighbourhoods rarely pass is scanned exactly. */
const MAX_CANDIDATES = 4096;

/**
 * The exact vectors of chunks, by id, when the index does not hold them itself (past the threshold,
 * where the store reads them from its SQLite file); undefined for a chunk no longer stored.
 */
export type VectorReader = (chunkIds: string[]) => (Float32Array | undefined)[];

function byScore(a: LexicalHit, b: LexicalHit): number {
  return b.score - a.score || (a.chunk_id < b.chunk_id ? -1 : 1);
}

function dot(q: Float32Array, v: Float32Array): number {
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
 * A graph and the chunk id of each of its labels (null: a tombstone), as a snapshot saves it, with
 * the labels' metadata (absent from snapshots written before it was saved).
 */
export interface SavedGraph {
  index: Index;
  /** The chunk of each label: as ordinals (see SavedChunks), or as chunk ids in snapshots of earlier releases. */
  labels: SavedChunks | (string | null)[];
  meta?: LabelMeta;
  /**
   * The file the graph is a read-only view of (mapped, not read: a million-vector graph opens in a
   * tenth of the time), until the first insert reads it into memory; absent for a graph in memory.
   */
  viewOf?: string;
}

export function newGraph(dimensions: number): Index {
  return new Index({ dimensions, ...GRAPH_CONFIG, multi: false });
}

const keysOf = (labels: number[]): BigUint64Array => BigUint64Array.from(labels, (l) => BigInt(l));

/**
 * The embedded store's in-memory search structure: what each label is (a LabelTable), and the vectors
 * in one flat arena (exact scan) until the threshold; past it an HNSW graph (usearch) over int8 copies
 * of them chooses candidates, and the exact vectors, read back through `readVectors` (the arena is then
 * released) or kept in the arena when there is no reader, score them. Vectors come in unit length.
 */
export class VectorIndex {
  private labels = new LabelTable();
  private arena: Float32Array | null = new Float32Array(0);
  /** Null below the threshold. */
  private ann: Index | null = null;
  /** The snapshot file `ann` is a view of (see SavedGraph.viewOf); null once it is a graph in memory. */
  private viewOf: string | null = null;
  /**
   * The last filter searched, its predicate and pool: questions of one team repeat the same filter
   * (the newest version of each document), and counting its pool walks every version it names.
   */
  private lastFilter: { filter: SearchFilter | undefined; keep: LabelFilter; pool: number; changes: number } | null = null;

  constructor(
    readonly dimensions: number,
    readonly threshold: number,
    private readonly readVectors?: VectorReader,
  ) {}

  get size(): number {
    return this.labels.size;
  }

  get usesAnn(): boolean {
    return this.ann !== null;
  }

  /** Whether the exact vectors are held here (always below the threshold; past it without a reader). */
  get holdsVectors(): boolean {
    return this.arena !== null;
  }

  /**
   * `vectors` holds the entries' vectors one after the other (entries.length × dimensions). The graph
   * takes them on one thread: usearch's multi-threaded add builds a worse graph (on the scale bench,
   * recall@10 0.987 on one thread against 0.968 on two at 100k vectors, 0.91 against 0.80 at a million,
   * the same vectors in the same batches), so a store read in whole at open is slower to rebuild (a
   * million vectors: about 5 minutes on this 2-core machine) but searched as well as one built during
   * ingestion. `stored`, when the caller knows it: per entry, the version its chunk is stored under
   * already (null: a new chunk), so a new chunk is not looked up (see LabelTable.labelOf).
   */
  add(entries: VectorMeta[], vectors: Float32Array, stored?: readonly (string | null)[]): void {
    const d = this.dimensions;
    const labels: number[] = [];
    for (const [i, e] of entries.entries()) {
      const was = stored ? stored[i] : undefined;
      const old = was === null ? undefined : this.labels.labelOf(e.chunk_id, was);
      if (old !== undefined) this.labels.forget(old);
      const label = this.labels.register(e);
      labels.push(label);
      if (this.arena) this.storeFloats(label, vectors.subarray(i * d, (i + 1) * d));
    }
    const ann = this.writableAnn();
    if (ann) {
      // A chunk sent twice in one call: its first label is already forgotten.
      const given = labels.map((l, i) => (this.labels.chunkOf(l) !== null ? vectors.subarray(i * d, (i + 1) * d) : undefined));
      this.insert(ann, labels, given);
      // More tombstones than live nodes: a graph of the live ones costs less to keep and to search.
      if (ann.size() > 2 * this.size + this.threshold) this.buildAnn();
    } else if (this.size > this.threshold) this.buildAnn();
  }

  /**
   * The graph, read into memory first when it is still a view of its snapshot (a view takes no
   * insert): the first write after an open pays what the open did not.
   */
  private writableAnn(): Index | null {
    if (this.ann && this.viewOf) {
      const loaded = newGraph(this.dimensions);
      loaded.load(this.viewOf);
      this.ann = loaded;
      this.viewOf = null;
    }
    return this.ann;
  }

  private storeFloats(label: number, vector: Float32Array): void {
    const arena = this.arena as Float32Array;
    const end = (label + 1) * this.dimensions;
    if (end > arena.length) {
      const grown = new Float32Array(Math.max(end, arena.length * 2, 64 * this.dimensions));
      grown.set(arena);
      this.arena = grown;
    }
    (this.arena as Float32Array).set(vector, label * this.dimensions);
  }

  /**
   * Forgets the version's labels. The graph keeps their nodes as tombstones that searches pass over (as
   * hnswlib's markDelete did): usearch's own remove was seen to hang on a graph of equal vectors.
   */
  deleteVersion(versionId: string): void {
    this.labels.deleteVersion(versionId);
  }

  /** The exact vectors of live labels, in order (undefined where the reader no longer has one). */
  private vectorsOf(labels: number[]): (Float32Array | undefined)[] {
    const arena = this.arena;
    const d = this.dimensions;
    if (arena) return labels.map((l) => arena.subarray(l * d, (l + 1) * d));
    return (this.readVectors as VectorReader)(labels.map((l) => this.labels.chunkOf(l) as string));
  }

  /** Adds the labels that have a vector (in `vectors`, by position) to the graph, in one call. */
  private insert(ann: Index, labels: number[], vectors: (Float32Array | undefined)[]): void {
    const d = this.dimensions;
    const keep = labels.flatMap((_, i) => (vectors[i] ? [i] : []));
    if (keep.length === 0) return;
    const batch = new Float32Array(keep.length * d);
    for (const [j, i] of keep.entries()) batch.set(vectors[i] as Float32Array, j * d);
    ann.add(keysOf(keep.map((i) => labels[i] as number)), batch, 1);
  }

  /**
   * Builds the graph over the live entries' vectors (the first time, or anew without tombstones); with
   * a reader to fall back on, the arena is released.
   */
  private buildAnn(): void {
    const ann = newGraph(this.dimensions);
    const live = this.labels.liveLabels();
    const step = 8192;
    for (let at = 0; at < live.length; at += step) {
      const labels = live.slice(at, at + step);
      this.insert(ann, labels, this.vectorsOf(labels));
    }
    this.ann = ann;
    this.viewOf = null;
    if (this.readVectors) this.arena = null;
  }

  /** The filter's predicate and pool, counted again only when it or the entries changed. */
  private compiled(filter: SearchFilter | undefined): { keep: LabelFilter; pool: number } {
    const last = this.lastFilter;
    const changes = this.labels.changes;
    if (last && sameFilter(last.filter, filter)) {
      if (last.changes !== changes) {
        last.pool = last.keep.count();
        last.changes = changes;
      }
      return last;
    }
    const own = filter && copyFilter(filter);
    const keep = this.labels.compile(own);
    this.lastFilter = { filter: own, keep, pool: keep.count(), changes };
    return this.lastFilter;
  }

  /** The best k of these labels by their exact vectors. */
  private scored(q: Float32Array, labels: number[], k: number): LexicalHit[] {
    const top: LexicalHit[] = [];
    const step = 4096;
    for (let at = 0; at < labels.length; at += step) {
      const part = labels.slice(at, at + step);
      const vectors = this.vectorsOf(part);
      for (const [i, label] of part.entries()) {
        const v = vectors[i];
        if (v) pushTop(top, { chunk_id: this.labels.chunkOf(label) as string, score: dot(q, v) }, k);
      }
    }
    return top;
  }

  search(q: Float32Array, k: number, filter?: SearchFilter): LexicalHit[] {
    const { keep, pool } = this.compiled(filter);
    if (pool === 0 || k <= 0) return [];
    const ann = this.ann;
    if (ann && pool > this.threshold) {
      // The graph knows no filter: it is asked for as many more candidates as the filter and the
      // tombstones leave out.
      const total = ann.size();
      let want = Math.min(total, k * OVERSAMPLE * Math.ceil(total / pool));
      while (want <= MAX_CANDIDATES) {
        const found = ann.search(q, want, 1);
        const labels: number[] = [];
        for (const key of found.keys) if (keep.passes(Number(key))) labels.push(Number(key));
        if (labels.length >= Math.min(k, pool) || want >= total) return this.scored(q, labels, k);
        want = Math.min(total, want * 4);
      }
    }
    const labels: number[] = [];
    for (const label of keep.candidates()) if (keep.passes(label)) labels.push(label);
    return this.scored(q, labels, k);
  }

  /** The live entries and their vectors one after the other: what a thread is handed. */
  export(): { entries: VectorMeta[]; vectors: Float32Array } {
    const live = this.labels.liveLabels();
    const entries = live.map((l) => this.labels.entry(l));
    const vectors = new Float32Array(live.length * this.dimensions);
    for (const [i, v] of this.vectorsOf(live).entries()) if (v) vectors.set(v, i * this.dimensions);
    return { entries, vectors };
  }

  /** The graph, the chunk id of each label and their metadata, for a snapshot; null below the threshold. */
  graph(): SavedGraph | null {
    if (!this.ann) return null;
    return { index: this.ann, ...this.labels.saved(), ...(this.viewOf ? { viewOf: this.viewOf } : {}) };
  }

  /**
   * Takes a saved graph, when the exact vectors can be read back, with the metadata it was saved with
   * or, given `entries` (the store's rows, for a snapshot saved without metadata), theirs when they
   * name exactly its live labels' chunks; false (unchanged) otherwise.
   */
  adoptGraph(saved: SavedGraph, entries?: Iterable<VectorMeta>): boolean {
    if (!this.readVectors || this.labels.length > 0) return false;
    const ids = Array.isArray(saved.labels) ? saved.labels : saved.meta && savedChunkIds(saved.labels, saved.meta);
    const meta = entries ? ids && labelMetaOf(ids, entries) : saved.meta;
    const labels = meta && LabelTable.restore(saved.labels, meta);
    if (!labels || saved.index.size() < labels.size) return false;
    this.labels = labels;
    this.arena = null;
    this.ann = saved.index;
    this.viewOf = saved.viewOf ?? null;
    this.lastFilter = null;
    return true;
  }
}
