import { createError, type LexicalHit, type SearchFilter, type VectorRecord, type VectorStore } from '@pinpoint/core';
import { startThread, type ThreadHandle } from '@pinpoint/threads';
import Database from 'better-sqlite3';
import { copyFilter, sameFilter, type VectorMeta } from './filter.js';
import { isPageIndex } from './label-table.js';
import { encodeVector, roundToHalves } from './vector-codec.js';
import { VectorIndex } from './vector-index.js';
import {
  addRows,
  type RebuildProgress,
  type VectorIndexHandlers,
  type VectorIndexInit,
  type VectorRow,
} from './vector-index-host.js';
import { ensureVectorTables, rowsTable, type VectorLayout, type VectorWrites, vectorWrites } from './vector-tables.js';

export interface EmbeddedVectorStoreOptions {
  /** SQLite file (or ':memory:'); vectors are BLOBs of half floats (vector-codec.ts). */
  path: string;
  dimensions: number;
  /**
   * Up to this many vectors the store searches an in-memory copy by exact scan; past it the index
   * moves to a thread of its own with an int8 HNSW graph. Default from the measurement in README.md.
   */
  annThreshold?: number;
  /**
   * The embedder id the vectors come from. Vectors of another model (or size) are meaningless in
   * this space, so when the stored id differs the table is emptied (the recipe re-embeds).
   */
  space?: string;
  /**
   * Told how far the index thread has come when it builds its graph again at open (no saved graph,
   * one of an earlier release, or one older than the file): from 0 of the total to the total, after
   * each batch. By default a store of 50,000 vectors or more says so on stderr, every tenth.
   */
  onRebuild?: (p: RebuildProgress) => void;
}

/** Past this many vectors a rebuild takes long enough (tens of seconds) to be worth a line on stderr. */
const REBUILD_LOG_FROM = 50_000;

/** The default `onRebuild`: a line on stderr at the start, at every tenth and at the end, for a large store. */
function rebuildLog(path: string): (p: RebuildProgress) => void {
  let shown = -1;
  return ({ done, total }) => {
    if (total < REBUILD_LOG_FROM) return;
    const tenth = Math.floor((done / total) * 10);
    if (tenth === shown) return;
    shown = tenth;
    const what = done === 0 ? 'building the vector graph again from the stored vectors' : 'vector graph';
    process.stderr.write(
      `pinpoint: ${path}: ${what}: ${done.toLocaleString('en')} of ${total.toLocaleString('en')} (${tenth * 10} %)${done === total ? ', done' : ''}\n`,
    );
  };
}

export const DEFAULT_ANN_THRESHOLD = 10_000;
const threadEntry = new URL('./vector-index-thread.ts', import.meta.url);

function normalized(v: Float32Array): Float32Array {
  let s = 0;
  for (const x of v) s += x * x;
  const n = Math.sqrt(s) || 1;
  return v.map((x) => x / n);
}

/** The index keeps each page in an Int32Array (−1 for none). */
function checkPage(r: VectorRecord): void {
  const page = r.page_index;
  if (page === undefined || isPageIndex(page)) return;
  throw createError('PP_VALIDATION', `page_index of ${r.chunk_id} is ${page}; it must be an integer from 0 to 2147483647`);
}

/**
 * Vectors persisted in SQLite (written here, before the index sees them), searched in memory: by an
 * exact scan in this thread while the store is small, by the index thread's HNSW graph past the
 * threshold (it reads the exact vectors of its candidates back from this file), so graph inserts never hold up the caller's thread.
 */
class EmbeddedVectorStore implements VectorStore {
  readonly id: string;
  private readonly db: Database.Database;
  /** The file's tables (vector-tables.ts) and their writes, prepared once. */
  private readonly layout: VectorLayout;
  private readonly writes: VectorWrites;
  /** Below the threshold; it never builds a graph itself. */
  private local: VectorIndex | null = null;
  private thread: ThreadHandle<VectorIndexHandlers> | null = null;
  /** The filter the index thread holds from the last search, and its id there. */
  private sent: { id: number; filter: SearchFilter } | null = null;
  private filterSeq = 0;

  constructor(private readonly options: EmbeddedVectorStoreOptions) {
    this.id = `embedded-cosine@${options.dimensions}`;
    this.db = new Database(options.path);
    this.db.pragma('journal_mode = WAL');
    this.layout = this.db.transaction(() => ensureVectorTables(this.db)).immediate();
    this.db.exec(`CREATE TABLE IF NOT EXISTS pp_vectors_space (id INTEGER PRIMARY KEY CHECK (id = 1), space TEXT NOT NULL);
      CREATE TABLE IF NOT EXISTS pp_vectors_generation (id INTEGER PRIMARY KEY CHECK (id = 1), n INTEGER NOT NULL);
      INSERT OR IGNORE INTO pp_vectors_generation (id, n) VALUES (1, 0);`);
    this.writes = vectorWrites(this.db, this.layout);
    this.claimSpace(options.space ?? `dims:${options.dimensions}`);
    const { n } = this.db.prepare(`SELECT COUNT(*) AS n FROM ${rowsTable(this.layout)}`).get() as { n: number };
    if (n > this.threshold && options.path !== ':memory:') this.startIndexThread({ kind: 'file', path: options.path });
    else this.loadLocal();
  }

  private get threshold(): number {
    return this.options.annThreshold ?? DEFAULT_ANN_THRESHOLD;
  }

  private loadLocal(): void {
    const local = new VectorIndex(this.options.dimensions, Number.POSITIVE_INFINITY);
    addRows(local, this.db.prepare('SELECT * FROM pp_vectors').iterate() as IterableIterator<VectorRow>);
    this.local = local;
  }

  private startIndexThread(source: VectorIndexInit['source'], transfer: ArrayBuffer[] = []): void {
    const init: VectorIndexInit = {
      dimensions: this.options.dimensions,
      threshold: this.threshold,
      path: this.options.path === ':memory:' ? null : this.options.path,
      source,
    };
    const progress = this.options.onRebuild ?? rebuildLog(this.options.path);
    this.thread = startThread<VectorIndexHandlers>(threadEntry, init, 'vector index', transfer, (notice) =>
      progress(notice as RebuildProgress),
    );
  }

  private generation(): number {
    return (this.db.prepare('SELECT n FROM pp_vectors_generation WHERE id = 1').get() as { n: number }).n;
  }

  private bumpGeneration(): void {
    this.db.prepare('UPDATE pp_vectors_generation SET n = n + 1 WHERE id = 1').run();
  }

  private claimSpace(space: string): void {
    const row = this.db.prepare('SELECT space FROM pp_vectors_space WHERE id = 1').get() as { space: string } | undefined;
    if (row?.space === space) return;
    this.db.transaction(() => {
      this.writes.deleteAll();
      this.bumpGeneration();
      this.db.prepare('INSERT OR REPLACE INTO pp_vectors_space (id, space) VALUES (1, ?)').run(space);
    })();
  }

  private checkDimensions(n: number, what: string): void {
    if (n === this.options.dimensions) return;
    throw createError(
      'PP_VALIDATION',
      `${what} has ${n} dimensions; the store holds ${this.options.dimensions} (re-embed after changing the model)`,
    );
  }

  async upsert(records: VectorRecord[]): Promise<void> {
    const dims = this.options.dimensions;
    for (const r of records) {
      this.checkDimensions(r.vector.length, `vector for ${r.chunk_id}`);
      checkPage(r);
    }
    const entries: VectorMeta[] = records.map(({ vector: _, ...meta }) => meta);
    const vectors = new Float32Array(records.length * dims);
    // rounded as they are stored, so the index scores what a reopen reads back
    for (const [i, r] of records.entries()) vectors.set(roundToHalves(normalized(r.vector)), i * dims);
    const { writes } = this;
    // the version each chunk is stored under already (null: new), so the index looks up only those
    const stored: (string | null)[] = [];
    this.db.transaction(() => {
      this.bumpGeneration();
      for (const [i, e] of entries.entries()) {
        const vector = encodeVector(vectors.subarray(i * dims, (i + 1) * dims));
        const { chunk_id, version_id, document_id, collection_id } = e;
        stored.push(writes.put({ chunk_id, version_id, document_id, collection_id, page_index: e.page_index ?? null, vector }));
      }
    })();
    if (this.thread) return this.thread.call('add', { entries, vectors, stored }, [vectors.buffer as ArrayBuffer]);
    const local = this.local as VectorIndex;
    local.add(entries, vectors, stored);
    if (local.size <= this.threshold) return;
    // Past the threshold the graph is built in the index thread, during ingestion, not on the first question.
    const handed = local.export();
    this.local = null;
    this.startIndexThread({ kind: 'entries', ...handed }, [handed.vectors.buffer as ArrayBuffer]);
  }

  async deleteVersion(versionId: string): Promise<void> {
    this.db.transaction(() => {
      this.bumpGeneration();
      this.writes.deleteVersion(versionId);
    })();
    if (this.thread) return this.thread.call('deleteVersion', versionId);
    this.local?.deleteVersion(versionId);
  }

  async search(vector: Float32Array, options: { k: number; filter?: SearchFilter }): Promise<LexicalHit[]> {
    this.checkDimensions(vector.length, 'query vector');
    const q = normalized(vector);
    const { k, filter } = options;
    if (!this.thread) return (this.local as VectorIndex).search(q, k, filter);
    if (!filter) return this.thread.call('search', { q, k });
    if (this.sent && sameFilter(this.sent.filter, filter)) return this.thread.call('search', { q, k, filterId: this.sent.id });
    this.sent = { id: ++this.filterSeq, filter: copyFilter(filter) };
    return this.thread.call('search', { q, k, filter: this.sent.filter, filterId: this.sent.id });
  }

  async close(): Promise<void> {
    if (this.thread) {
      if (this.options.path !== ':memory:')
        await this.thread.call('saveSnapshot', { path: this.options.path, generation: this.generation() });
      await this.thread.close();
    }
    this.db.close();
  }
}

export function openEmbeddedVectorStore(options: EmbeddedVectorStoreOptions): VectorStore {
  return new EmbeddedVectorStore(options);
}
