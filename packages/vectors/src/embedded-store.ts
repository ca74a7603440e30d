import { createError, type LexicalHit, type SearchFilter, type VectorRecord, type VectorStore } from '@pinpoint/core';
import Database from 'better-sqlite3';
import hnswlib from 'hnswlib-node';
import { matchesFilter, type VectorMeta } from './filter.js';
import { loadSnapshot, saveSnapshot } from './hnsw-snapshot.js';

export interface EmbeddedVectorStoreOptions {
  /** SQLite file (or ':memory:'); vectors are Float32 BLOBs, loaded into memory at open. */
  path: string;
  dimensions: number;
  /**
   * Past this many vectors (after filtering) the search uses an HNSW index instead of an exact scan.
   * Default from the measurement in README.md.
   */
  annThreshold?: number;
  /**
   * The embedder id the vectors come from. Vectors of another model (or size) are meaningless in
   * this space, so when the stored id differs the table is emptied (the recipe re-embeds).
   */
  space?: string;
}

interface Entry extends VectorMeta {
  vector: Float32Array;
  label: number;
}

interface Row {
  chunk_id: string;
  version_id: string;
  document_id: string;
  collection_id: string;
  page_index: number | null;
  vector: Buffer;
}

export const DEFAULT_ANN_THRESHOLD = 10_000;
const EF_SEARCH = 128;

function normalized(v: Float32Array): Float32Array {
  let s = 0;
  for (const x of v) s += x * x;
  const n = Math.sqrt(s) || 1;
  return v.map((x) => x / n);
}

function dot(a: Float32Array, b: Float32Array): number {
  let s = 0;
  for (let i = 0; i < a.length; i++) s += (a[i] as number) * (b[i] as number);
  return s;
}

function byScore(a: LexicalHit, b: LexicalHit): number {
  return b.score - a.score || (a.chunk_id < b.chunk_id ? -1 : 1);
}

/** Exact cosine search over an in-memory copy of a SQLite table, with HNSW (hnswlib) past a threshold. */
class EmbeddedVectorStore implements VectorStore {
  readonly id: string;
  private readonly db: Database.Database;
  private readonly entries = new Map<string, Entry>();
  private readonly byLabel: (Entry | undefined)[] = [];
  private ann: hnswlib.HierarchicalNSW | null = null;

  constructor(private readonly options: EmbeddedVectorStoreOptions) {
    this.id = `embedded-cosine@${options.dimensions}`;
    this.db = new Database(options.path);
    this.db.pragma('journal_mode = WAL');
    this.db.exec(`CREATE TABLE IF NOT EXISTS pp_vectors (
      chunk_id TEXT PRIMARY KEY, version_id TEXT NOT NULL, document_id TEXT NOT NULL,
      collection_id TEXT NOT NULL, page_index INTEGER, vector BLOB NOT NULL);
      CREATE INDEX IF NOT EXISTS pp_vectors_version ON pp_vectors(version_id);
      CREATE TABLE IF NOT EXISTS pp_vectors_space (id INTEGER PRIMARY KEY CHECK (id = 1), space TEXT NOT NULL);
      CREATE TABLE IF NOT EXISTS pp_vectors_generation (id INTEGER PRIMARY KEY CHECK (id = 1), n INTEGER NOT NULL);
      INSERT OR IGNORE INTO pp_vectors_generation (id, n) VALUES (1, 0);`);
    this.claimSpace(options.space ?? `dims:${options.dimensions}`);
    for (const row of this.db.prepare('SELECT * FROM pp_vectors').iterate() as IterableIterator<Row>) {
      const vector = new Float32Array(
        row.vector.buffer.slice(row.vector.byteOffset, row.vector.byteOffset + row.vector.byteLength),
      );
      const { page_index, vector: _, ...meta } = row;
      this.remember({ ...meta, ...(page_index === null ? {} : { page_index }), vector, label: 0 });
    }
    if (this.entries.size > this.threshold && options.path !== ':memory:') this.restoreAnn();
  }

  private get threshold(): number {
    return this.options.annThreshold ?? DEFAULT_ANN_THRESHOLD;
  }

  private generation(): number {
    return (this.db.prepare('SELECT n FROM pp_vectors_generation WHERE id = 1').get() as { n: number }).n;
  }

  private bumpGeneration(): void {
    this.db.prepare('UPDATE pp_vectors_generation SET n = n + 1 WHERE id = 1').run();
  }

  /** Takes the graph saved at the last close when nothing was written since. */
  private restoreAnn(): void {
    const snapshot = loadSnapshot(this.options.path, this.generation(), this.options.dimensions);
    if (!snapshot || snapshot.labels.filter((id) => id !== null).length !== this.entries.size) return;
    const byLabel = snapshot.labels.map((id) => (id === null ? undefined : this.entries.get(id)));
    if (byLabel.filter(Boolean).length !== this.entries.size) return;
    this.byLabel.length = 0;
    for (const [label, entry] of byLabel.entries()) {
      this.byLabel.push(entry);
      if (entry) entry.label = label;
    }
    this.ann = snapshot.ann;
  }

  private claimSpace(space: string): void {
    const row = this.db.prepare('SELECT space FROM pp_vectors_space WHERE id = 1').get() as { space: string } | undefined;
    if (row?.space === space) return;
    this.db.transaction(() => {
      this.db.exec('DELETE FROM pp_vectors');
      this.bumpGeneration();
      this.db.prepare('INSERT OR REPLACE INTO pp_vectors_space (id, space) VALUES (1, ?)').run(space);
    })();
  }

  private remember(entry: Entry): void {
    const old = this.entries.get(entry.chunk_id);
    if (old) this.forget(old);
    entry.label = this.byLabel.length;
    this.byLabel.push(entry);
    this.entries.set(entry.chunk_id, entry);
    if (this.ann) this.addToAnn(entry);
  }

  private forget(entry: Entry): void {
    this.entries.delete(entry.chunk_id);
    this.byLabel[entry.label] = undefined;
    this.ann?.markDelete(entry.label);
  }

  private addToAnn(entry: Entry): void {
    const ann = this.ann as hnswlib.HierarchicalNSW;
    if (ann.getCurrentCount() >= ann.getMaxElements()) ann.resizeIndex(Math.max(1024, ann.getMaxElements() * 2));
    ann.addPoint(Array.from(entry.vector), entry.label);
  }

  private buildAnn(): hnswlib.HierarchicalNSW {
    const ann = new hnswlib.HierarchicalNSW('ip', this.options.dimensions);
    ann.initIndex({ maxElements: Math.max(1024, this.entries.size * 2), m: 16, efConstruction: 200, randomSeed: 42 });
    this.ann = ann;
    for (const entry of this.entries.values()) this.addToAnn(entry);
    return ann;
  }

  async upsert(records: VectorRecord[]): Promise<void> {
    const insert = this.db.prepare(
      'INSERT OR REPLACE INTO pp_vectors (chunk_id, version_id, document_id, collection_id, page_index, vector) VALUES (?, ?, ?, ?, ?, ?)',
    );
    const entries = records.map((r) => {
      if (r.vector.length !== this.options.dimensions) {
        throw createError(
          'PP_VALIDATION',
          `vector for ${r.chunk_id} has ${r.vector.length} dimensions; the store holds ${this.options.dimensions} (re-embed after changing the model)`,
        );
      }
      const { vector, ...meta } = r;
      return { ...meta, vector: normalized(vector), label: 0 };
    });
    this.db.transaction(() => {
      this.bumpGeneration();
      for (const e of entries)
        insert.run(e.chunk_id, e.version_id, e.document_id, e.collection_id, e.page_index ?? null, Buffer.from(e.vector.buffer));
    })();
    for (const e of entries) this.remember(e);
    // Past the threshold the HNSW graph is built during ingestion, not on the first question.
    if (!this.ann && this.entries.size > this.threshold) this.buildAnn();
  }

  async deleteVersion(versionId: string): Promise<void> {
    this.db.transaction(() => {
      this.bumpGeneration();
      this.db.prepare('DELETE FROM pp_vectors WHERE version_id = ?').run(versionId);
    })();
    for (const e of [...this.entries.values()]) if (e.version_id === versionId) this.forget(e);
  }

  async search(vector: Float32Array, options: { k: number; filter?: SearchFilter }): Promise<LexicalHit[]> {
    if (vector.length !== this.options.dimensions)
      throw createError(
        'PP_VALIDATION',
        `query vector has ${vector.length} dimensions; the store holds ${this.options.dimensions}`,
      );
    const q = normalized(vector);
    const keep = matchesFilter(options.filter);
    let pool = 0;
    for (const e of this.entries.values()) if (keep(e)) pool++;
    if (pool <= this.threshold) return this.exact(q, keep, options.k);
    const ann = this.ann ?? this.buildAnn();
    ann.setEf(Math.max(EF_SEARCH, options.k * 4));
    const k = Math.min(options.k, pool);
    const passes = (label: number) => {
      const e = this.byLabel[label];
      return e !== undefined && keep(e);
    };
    const found = ann.searchKnn(Array.from(q), k, pool === this.entries.size ? undefined : passes);
    return found.neighbors
      .map((label, i) => ({ chunk_id: this.byLabel[label]?.chunk_id ?? '', score: 1 - (found.distances[i] ?? 1) }))
      .filter((h) => h.chunk_id !== '')
      .sort(byScore);
  }

  /** One pass, keeping the best k in a small sorted array (no sort of the whole pool). */
  private exact(q: Float32Array, keep: (e: Entry) => boolean, k: number): LexicalHit[] {
    const top: LexicalHit[] = [];
    for (const e of this.entries.values()) {
      if (!keep(e)) continue;
      const hit = { chunk_id: e.chunk_id, score: dot(q, e.vector) };
      if (top.length === k && byScore(hit, top[k - 1] as LexicalHit) >= 0) continue;
      let at = top.length;
      while (at > 0 && byScore(hit, top[at - 1] as LexicalHit) < 0) at--;
      top.splice(at, 0, hit);
      if (top.length > k) top.pop();
    }
    return top;
  }

  async close(): Promise<void> {
    if (this.ann && this.options.path !== ':memory:') {
      const labels = this.byLabel.map((e) => e?.chunk_id ?? null);
      saveSnapshot(this.options.path, this.ann, labels, this.generation(), this.options.dimensions);
    }
    this.db.close();
  }
}

export function openEmbeddedVectorStore(options: EmbeddedVectorStoreOptions): VectorStore {
  return new EmbeddedVectorStore(options);
}
