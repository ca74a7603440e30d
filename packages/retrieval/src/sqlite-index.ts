import { setImmediate as yieldTurn } from 'node:timers/promises';
import { ANALYZER_ID, analyze as defaultAnalyze } from '@pinpoint/analysis';
import type { IndexedChunk, LexicalHit, LexicalIndex, QueryTerm, SearchFilter } from '@pinpoint/core';
import { isDiskFull } from '@pinpoint/core';
import { startThread, type ThreadHandle } from '@pinpoint/threads';
import Database from 'better-sqlite3';
import type { Bm25Params } from './bm25.js';
import { countTerms, DEFAULT_BM25, idf, termWeight } from './bm25.js';
import { ChunkTable } from './chunk-table.js';
import { ListMerger, type MergedBatch, type MergeHandlers, MergeReader, segTable } from './merge.js';
import { blockBounds, ListCursor, PostingsBuffer, PostingsWriter, skipTable } from './postings.js';
import { type PackedTermCounts, packTermCounts, type TermCountHandlers } from './term-counts.js';

export interface LexicalIndexOptions {
  /** Must be the analyzer the index was built with; its id is stored and checked. */
  analyzer?: { id: string; analyze(text: string): string[] };
  bm25?: Partial<Bm25Params>;
  /** Chunks kept in the in-memory tail before it is written as a segment (default 20,000). */
  segmentChunks?: number;
  /**
   * Skip the blocks of postings that cannot reach the top k (default true). The top k is the same
   * either way; false scores every posting (the reference the pruned search is tested against).
   */
  pruning?: boolean;
  /**
   * Analyse upserted chunks in a thread of its own (default false), so the analyzer's CPU leaves the
   * thread that writes the index. Only for the default analyzer; the terms are the same.
   */
  analysisThread?: boolean;
  /**
   * Read and re-encode the lists of merged segments in a thread of its own (default false; an index
   * in a file only), so the index's thread only writes the merged rows. The segments are the same.
   */
  mergeThread?: boolean;
}

const analysisEntry = new URL('./analysis-thread.ts', import.meta.url);
const mergeEntry = new URL('./merge-thread.ts', import.meta.url);

const SCHEMA = `
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS lex_chunks (
  doc INTEGER PRIMARY KEY AUTOINCREMENT, chunk_id TEXT NOT NULL UNIQUE, version_id TEXT NOT NULL,
  document_id TEXT NOT NULL, collection_id TEXT NOT NULL, page_index INTEGER, len INTEGER NOT NULL);
CREATE TABLE IF NOT EXISTS lex_tail (doc INTEGER PRIMARY KEY, terms TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS lex_pending (doc INTEGER PRIMARY KEY, text TEXT NOT NULL);
CREATE INDEX IF NOT EXISTS lex_chunks_version ON lex_chunks(version_id);
CREATE TABLE IF NOT EXISTS lex_segments (seg INTEGER PRIMARY KEY, last_doc INTEGER NOT NULL, collection_id TEXT, chunks INTEGER);
CREATE TABLE IF NOT EXISTS lex_dead (doc INTEGER PRIMARY KEY, seg INTEGER NOT NULL);
CREATE TABLE IF NOT EXISTS lex_snapshot (name TEXT PRIMARY KEY, data BLOB NOT NULL);`;

const createSegTable = (db: Database.Database, seg: number) =>
  db.exec(
    `CREATE TABLE IF NOT EXISTS ${segTable(seg)} (term TEXT PRIMARY KEY, n INTEGER, skip BLOB, data BLOB NOT NULL) WITHOUT ROWID`,
  );

/**
 * A segment: its collection, its last chunk, the live chunks it was written with and its chunks
 * deleted since (ascending).
 */
interface Segment {
  collection: string;
  lastDoc: number;
  chunks: number;
  dead: number[];
}

/** One segment's postings list of a term. */
interface SegList {
  n: number;
  skip: Int32Array;
  data: Uint8Array;
}

const EMPTY = new Float64Array(0);

/** Relative slack on bounds, so that rounding never prunes a chunk whose exact score ties the k-th. */
const SLACK = 1 + 1e-9;

/** Segments' worth of chunks all tails together may hold before the largest are written. */
const TAIL_BOUND = 8;

/**
 * A run of this many neighbouring segments of one tier in a collection is merged into one segment of the
 * next tier: a collection of N chunks has at most MERGE_FANIN − 1 segments per tier, about
 * log(N / segmentChunks) / log(MERGE_FANIN) tiers, and every chunk's postings are rewritten once per tier.
 */
const MERGE_FANIN = 8;

/** Most terms merged per round of reads of each segment (bounds the memory a merge holds). */
const MERGE_BATCH = 2048;

/**
 * A merge's batches are sized to take about this long: a search waits for the batch in progress
 * (merges run on the index's own thread, between its other work), so this bounds that wait.
 */
const MERGE_SLICE_MS = 8;

/** A batch size that follows the time its batches take: halved past twice the target, doubled under half. */
class BatchPace {
  size: number;

  constructor(
    private readonly targetMs: number,
    private readonly min: number,
    private readonly max: number,
  ) {
    this.size = min;
  }

  took(ms: number): void {
    if (ms > 2 * this.targetMs) this.size = Math.max(this.min, this.size >> 1);
    else if (ms < this.targetMs / 2) this.size = Math.min(this.max, this.size * 2);
  }
}

/**
 * The chunks of one collection not yet in a segment, as an inverted index in typed arrays: per term
 * a slot, per slot a linked list of postings in the order they were added (ascending chunk number).
 * One Map entry per distinct term and no per-term array: the tail of a busy collection holds
 * hundreds of thousands of terms, and an array each was a good part of ingestion's garbage.
 */
class Tail {
  /** term → slot. */
  readonly slots = new Map<string, number>();
  private first = new Int32Array(1024);
  private last = new Int32Array(1024);
  private doc = new Int32Array(4096);
  private tf = new Int32Array(4096);
  private next = new Int32Array(4096);
  private slotOf = new Int32Array(4096);
  private n = 0;
  readonly docs: number[] = [];

  add(doc: number, terms: Iterable<[string, number]>): void {
    const names: string[] = [];
    const tfs: number[] = [];
    for (const [term, tf] of terms) {
      names.push(term);
      tfs.push(tf);
    }
    this.addRun(doc, names, tfs, 0, names.length);
  }

  /** Adds chunk `doc` with the terms `terms[from..to)` counted `tfs[from..to)` (a packed batch's run, unpacked into nothing). */
  addRun(doc: number, terms: readonly string[], tfs: ArrayLike<number>, from: number, to: number): void {
    for (let j = from; j < to; j++) {
      const term = terms[j] as string;
      const tf = tfs[j] as number;
      let slot = this.slots.get(term);
      const p = this.n++;
      if (p === this.doc.length) {
        this.doc = grow(this.doc);
        this.tf = grow(this.tf);
        this.next = grow(this.next);
        this.slotOf = grow(this.slotOf);
      }
      this.doc[p] = doc;
      this.tf[p] = tf;
      this.next[p] = -1;
      if (slot === undefined) {
        slot = this.slots.size;
        this.slots.set(term, slot);
        if (slot === this.first.length) {
          this.first = grow(this.first);
          this.last = grow(this.last);
        }
        this.first[slot] = p;
      } else this.next[this.last[slot] as number] = p;
      this.last[slot] = p;
      this.slotOf[p] = slot;
    }
    this.docs.push(doc);
  }

  /** Calls `f` for every posting of `term`, in ascending chunk order. */
  each(term: string, f: (doc: number, tf: number) => void): void {
    const slot = this.slots.get(term);
    if (slot === undefined) return;
    for (let p = this.first[slot] as number; p !== -1; p = this.next[p] as number) f(this.doc[p] as number, this.tf[p] as number);
  }

  /**
   * The terms in sorted order, each with its postings contiguous in ascending chunk order (term i's
   * are docs/tfs[start[i]..start[i + 1])): the layout a segment is written in. Built by one counting
   * pass and one scatter pass over the postings in the order they were added, instead of following
   * each term's linked list through the whole tail.
   */
  sorted(): { terms: string[]; start: Int32Array; docs: Int32Array; tfs: Int32Array } {
    const terms = [...this.slots.keys()].sort();
    const n = this.n;
    const count = new Int32Array(this.slots.size);
    for (let p = 0; p < n; p++) (count[this.slotOf[p] as number] as number)++;
    const at = new Int32Array(this.slots.size);
    const start = new Int32Array(terms.length + 1);
    let offset = 0;
    for (let i = 0; i < terms.length; i++) {
      const slot = this.slots.get(terms[i] as string) as number;
      start[i] = offset;
      at[slot] = offset;
      offset += count[slot] as number;
    }
    start[terms.length] = offset;
    const docs = new Int32Array(n);
    const tfs = new Int32Array(n);
    for (let p = 0; p < n; p++) {
      const q = (at[this.slotOf[p] as number] as number)++;
      docs[q] = this.doc[p] as number;
      tfs[q] = this.tf[p] as number;
    }
    return { terms, start, docs, tfs };
  }
}

function grow(a: Int32Array<ArrayBuffer>): Int32Array<ArrayBuffer> {
  const b = new Int32Array(a.length * 2);
  b.set(a);
  return b;
}

/**
 * The embedded lexical index (BM25 with per-kind term weights over the shared analyzer's terms), built
 * for a million chunks on one machine:
 * - chunk metadata lives in SQLite and, for scoring and filtering, in typed arrays (ChunkTable),
 *   written as a snapshot at a clean close so that a reopen need not read every chunk row;
 * - postings are kept per collection: each collection's new chunks go to its in-memory tail (their
 *   text also saved in lex_pending, so a restart after a crash re-analyses it); every `segmentChunks` chunks a tail is
 *   written as one immutable segment of that collection — per term one varint-coded postings list
 *   in blocks of 128 with a skip table (each block's last chunk, largest term frequency and
 *   shortest chunk), appended in term order, so writing never slows as the index grows; a
 *   collection's segments hold ascending ranges of chunk numbers, and eight neighbouring segments
 *   of one size tier are merged into one in the background (a million chunks in 8 segments, not 50);
 * - deleting marks chunks dead (their postings are skipped, IDF counts only live chunks);
 * - a query reads only the lists of the collections it may see. The tail is scored exhaustively;
 *   each segment with MaxScore: lists whose bounds together cannot lift a chunk into the top k are
 *   only probed for the chunks the other lists bring, and a probe first checks the bound of the
 *   block that would hold the chunk, so most blocks of common terms are never decoded. Every chunk that could reach the top k is scored in full, so the top k is exact (same
 *   BM25, same tie order as scoring every posting). N, avgdl, df and the block bounds come from the
 *   same collections, so neither a score nor the work done depends on any other collection's chunks.
 */
export class SqliteLexicalIndex implements LexicalIndex {
  readonly id = 'sqlite-bm25@3';
  private readonly db: Database.Database;
  private readonly analyze: (text: string) => string[];
  private readonly params: Bm25Params;
  private readonly segmentChunks: number;
  private readonly pruning: boolean;
  private readonly chunks = new ChunkTable();
  /** collection id → its segments, oldest first. */
  private segments = new Map<string, number[]>();
  private readonly segInfo = new Map<number, Segment>();
  private readonly segPrepared = new Map<number, { get: Database.Statement; insert: Database.Statement }>();
  private lastSeg = 0;
  /** The merge running in the background, if any; `closing` stops it at its next batch. */
  private merging: Promise<void> | null = null;
  private closing = false;
  /** Bumped by every write; a snapshot of the chunk table is valid only for the generation it was taken at. */
  private generation = 0;
  /** collection id → its chunks not yet in a segment. */
  private tails = new Map<string, Tail>();
  private readonly buffer = new PostingsBuffer();
  private scores = new Float64Array(0);
  /** Document frequencies of the last searched query's terms in its scope, until the next write (queryTerms follows search). */
  private lastDf: { query: string; scope: string; df: Map<string, number> } | null = null;
  /**
   * Work of the last search (what the access tests compare): postings lists looked up, postings
   * decoded, chunks scored, blocks passed over without decoding.
   */
  lastWork = { lists: 0, postings: 0, scored: 0, skipped: 0 };
  private readonly stmts: ReturnType<SqliteLexicalIndex['prepare']>;
  private readonly analysis: ThreadHandle<TermCountHandlers> | null;
  private mergeThread: ThreadHandle<MergeHandlers> | null;
  /** Upserts waiting for their terms: close lets them finish first. */
  private readonly upserting = new Set<Promise<unknown>>();

  constructor(path: string, options: LexicalIndexOptions = {}) {
    this.db = new Database(path);
    this.db.pragma('journal_mode = WAL');
    this.db.pragma('synchronous = NORMAL');
    this.db.pragma('cache_size = -65536');
    this.db.exec(SCHEMA);
    const analyzerId = options.analyzer?.id ?? ANALYZER_ID;
    this.analyze = options.analyzer?.analyze ?? defaultAnalyze;
    this.params = { ...DEFAULT_BM25, ...options.bm25 };
    this.segmentChunks = options.segmentChunks ?? 20_000;
    this.pruning = options.pruning ?? true;
    this.checkAnalyzer(analyzerId);
    this.analysis =
      options.analysisThread && !options.analyzer
        ? startThread<TermCountHandlers>(analysisEntry, undefined, 'lexical analysis')
        : null;
    this.mergeThread =
      options.mergeThread && path !== ':memory:' && path !== ''
        ? startThread<MergeHandlers>(mergeEntry, { path }, 'lexical merge')
        : null;
    this.migrateRowPerPosting();
    this.splitPostings();
    this.addSegmentCollections();
    this.stmts = this.prepare();
    this.load();
  }

  private prepare() {
    return {
      insert: this.db.prepare(
        'INSERT INTO lex_chunks (chunk_id, version_id, document_id, collection_id, page_index, len) VALUES (?, ?, ?, ?, ?, ?)',
      ),
      insertPending: this.db.prepare('INSERT INTO lex_pending (doc, text) VALUES (?, ?)'),
      existing: this.db.prepare('SELECT doc FROM lex_chunks WHERE chunk_id = ?').pluck(),
      deleteDoc: this.db.prepare('DELETE FROM lex_chunks WHERE doc = ?'),
      deletePending: this.db.prepare('DELETE FROM lex_pending WHERE doc = ?'),
      versionDocs: this.db.prepare('SELECT doc FROM lex_chunks WHERE version_id = ?').pluck(),
      chunkId: this.db.prepare('SELECT chunk_id FROM lex_chunks WHERE doc = ?').pluck(),
      insertSegment: this.db.prepare('INSERT INTO lex_segments (seg, last_doc, collection_id, chunks) VALUES (?, ?, ?, ?)'),
      addDead: this.db.prepare('INSERT OR IGNORE INTO lex_dead (doc, seg) VALUES (?, ?)'),
      generation: this.db.prepare("INSERT OR REPLACE INTO meta (key, value) VALUES ('generation', ?)"),
    };
  }

  /** A segment's statements, prepared once (its table is created first when `create`). */
  private segStmts(seg: number, create = false): { get: Database.Statement; insert: Database.Statement } {
    let stmts = this.segPrepared.get(seg);
    if (!stmts) {
      if (create) createSegTable(this.db, seg);
      const table = segTable(seg);
      stmts = {
        get: this.db.prepare(`SELECT n, skip, data FROM ${table} WHERE term = ?`).raw(),
        insert: this.db.prepare(`INSERT INTO ${table} (term, n, skip, data) VALUES (?, ?, ?, ?)`),
      };
      this.segPrepared.set(seg, stmts);
    }
    return stmts;
  }

  /** Drops a segment's table (a merged segment, or one a merge left unfinished). */
  private dropSegTable(seg: number): void {
    this.segPrepared.delete(seg);
    this.db.exec(`DROP TABLE IF EXISTS ${segTable(seg)}`);
  }

  /** Records a write (inside its transaction): a snapshot of an earlier generation no longer holds. */
  private bump(): void {
    this.stmts.generation.run(String(++this.generation));
  }

  private checkAnalyzer(analyzerId: string): void {
    const row = this.db.prepare("SELECT value FROM meta WHERE key = 'analyzer'").get() as { value: string } | undefined;
    if (!row) this.db.prepare("INSERT INTO meta (key, value) VALUES ('analyzer', ?)").run(analyzerId);
    else if (row.value !== analyzerId)
      throw new Error(`lexical index was built with analyzer ${row.value}, not ${analyzerId}: rebuild it`);
  }

  /** An index of the first layout (one row per posting) moves its chunks into the tail once. */
  private migrateRowPerPosting(): void {
    const old = this.db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'postings'").get();
    if (!old) return;
    this.db.transaction(() => {
      const terms = new Map<number, [string, number][]>();
      for (const [term, doc, tf] of this.db.prepare('SELECT term, doc, tf FROM postings').raw().iterate() as IterableIterator<
        [string, number, number]
      >) {
        const list = terms.get(doc);
        if (list) list.push([term, tf]);
        else terms.set(doc, [[term, tf]]);
      }
      const insert = this.db.prepare(
        'INSERT INTO lex_chunks (chunk_id, version_id, document_id, collection_id, page_index, len) VALUES (?, ?, ?, ?, ?, ?)',
      );
      const insertTail = this.db.prepare('INSERT INTO lex_tail (doc, terms) VALUES (?, ?)');
      const rows = this.db
        .prepare('SELECT doc, chunk_id, version_id, document_id, collection_id, page_index, len FROM chunks ORDER BY doc')
        .raw();
      for (const [doc, ...fields] of rows.all() as [number, string, string, string, string, number | null, number][]) {
        const info = insert.run(...fields);
        insertTail.run(info.lastInsertRowid, JSON.stringify(terms.get(doc) ?? []));
      }
      this.db.exec('DROP TABLE postings; DROP TABLE chunks;');
    })();
  }

  /**
   * An index whose segments mixed collections gets a collection per segment: the chunks of its old
   * segments go back to the tails (their terms read from the postings), to be written per collection.
   */
  private addSegmentCollections(): void {
    const columns = this.db.prepare('PRAGMA table_info(lex_segments)').all() as { name: string }[];
    if (!columns.some((c) => c.name === 'collection_id')) this.db.exec('ALTER TABLE lex_segments ADD COLUMN collection_id TEXT');
    if (!columns.some((c) => c.name === 'chunks')) this.db.exec('ALTER TABLE lex_segments ADD COLUMN chunks INTEGER');
    const mixed = this.db.prepare('SELECT seg FROM lex_segments WHERE collection_id IS NULL').pluck().all() as number[];
    if (mixed.length === 0) return;
    const live = new Set(this.db.prepare('SELECT doc FROM lex_chunks').pluck().all() as number[]);
    const buf = new PostingsBuffer();
    this.db.transaction(() => {
      const terms = new Map<number, [string, number][]>();
      for (const seg of mixed) {
        const rows = this.db.prepare(`SELECT term, data FROM ${segTable(seg)}`).raw();
        for (const [term, data] of rows.all() as [string, Uint8Array][]) {
          buf.clear();
          buf.decode(data);
          for (let i = 0; i < buf.n; i++) {
            const doc = buf.docs[i] as number;
            if (!live.has(doc)) continue;
            const list = terms.get(doc);
            if (list) list.push([term, buf.tfs[i] as number]);
            else terms.set(doc, [[term, buf.tfs[i] as number]]);
          }
        }
        this.dropSegTable(seg);
        this.db.prepare('DELETE FROM lex_segments WHERE seg = ?').run(seg);
      }
      const insert = this.db.prepare('INSERT OR REPLACE INTO lex_tail (doc, terms) VALUES (?, ?)');
      for (const [doc, list] of terms) insert.run(doc, JSON.stringify(list));
    })();
  }

  /**
   * An index of the single postings table (every segment's rows in one) gets a table per segment,
   * once; lists of the layout before blocks come without counts and skip tables (given in `load`).
   */
  private splitPostings(): void {
    if (!this.db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'lex_postings'").get()) return;
    const columns = this.db.prepare('PRAGMA table_info(lex_postings)').all() as { name: string }[];
    const blocks = columns.some((c) => c.name === 'skip') ? 'n, skip' : 'NULL, NULL';
    this.db.transaction(() => {
      const segs = this.db
        .prepare('SELECT seg FROM lex_segments UNION SELECT DISTINCT seg FROM lex_postings')
        .pluck()
        .all() as number[];
      for (const seg of segs) {
        createSegTable(this.db, seg);
        this.db
          .prepare(
            `INSERT INTO ${segTable(seg)} (term, n, skip, data) SELECT term, ${blocks}, data FROM lex_postings WHERE seg = ? ORDER BY term`,
          )
          .run(seg);
      }
      this.db.exec('DROP TABLE lex_postings');
    })();
  }

  /**
   * Reopening: chunk metadata into memory (from the snapshot of the last clean close when it is of
   * the current generation, else from the rows), the segments of each collection, and the tails.
   * After a clean close every tail is in segments; after a crash the tail chunks' saved text is
   * analysed again. Terms saved by the earlier layout (lex_tail) are read and written out as segments
   * at once; lists of the layout without blocks get their skip tables.
   */
  private load(): void {
    this.dropUnfinishedMerge();
    this.generation = Number(
      (this.db.prepare("SELECT value FROM meta WHERE key = 'generation'").pluck().get() as string | undefined) ?? 0,
    );
    const segs = this.db
      .prepare('SELECT seg, collection_id, last_doc, chunks FROM lex_segments ORDER BY last_doc, seg')
      .raw()
      .all() as [number, string, number, number | null][];
    for (const [seg, collection, lastDoc, chunks] of segs) {
      this.segmentsOf(collection).push(seg);
      // a segment written before counts were kept: one segment's worth
      this.segInfo.set(seg, { collection, lastDoc, chunks: chunks ?? this.segmentChunks, dead: [] });
    }
    for (const [doc, seg] of this.db.prepare('SELECT doc, seg FROM lex_dead ORDER BY doc').raw().iterate() as IterableIterator<
      [number, number]
    >)
      this.segInfo.get(seg)?.dead.push(doc);
    this.lastSeg = (this.db.prepare('SELECT max(seg) FROM lex_segments').pluck().get() as number | null) ?? 0;
    if (!this.restoreSnapshot()) {
      const rows = this.db
        .prepare('SELECT doc, version_id, document_id, collection_id, page_index, len FROM lex_chunks ORDER BY doc')
        .raw()
        .iterate() as IterableIterator<[number, string, string, string, number | null, number]>;
      for (const [doc, version, document, collection, page, len] of rows)
        this.chunks.add(doc, { version, document, collection, page, len });
    }
    this.addSkipTables();
    const saved = this.db
      .prepare('SELECT t.doc, t.terms, c.collection_id FROM lex_tail t JOIN lex_chunks c ON c.doc = t.doc ORDER BY t.doc')
      .raw()
      .all() as [number, string, string][];
    if (saved.length > 0) {
      for (const [doc, terms, collection] of saved) this.addToTail(doc, collection, JSON.parse(terms) as [string, number][]);
      this.flush();
      this.db.exec('DELETE FROM lex_tail');
    }
    const pending = this.db
      .prepare('SELECT p.doc, p.text, c.collection_id FROM lex_pending p JOIN lex_chunks c ON c.doc = p.doc ORDER BY p.doc')
      .raw()
      .iterate() as IterableIterator<[number, string, string]>;
    for (const [doc, text, collection] of pending) this.addToTail(doc, collection, countTerms(this.analyze(text)));
    for (const [collection, t] of this.tails) if (t.docs.length >= this.segmentChunks) this.flushCollection(collection);
    for (const collection of [...this.segments.keys()]) this.mergeTiers(collection);
  }

  /** The chunk table from the snapshot of the last clean close, if it is of the current generation and chunk rows. */
  private restoreSnapshot(): boolean {
    const rows = new Map(this.db.prepare('SELECT name, data FROM lex_snapshot').raw().all() as [string, Uint8Array][]);
    const head = rows.get('head');
    if (!head) return false;
    const { generation, maxDoc } = JSON.parse(Buffer.from(head).toString()) as { generation: number; maxDoc: number };
    const currentMax = (this.db.prepare('SELECT max(doc) FROM lex_chunks').pluck().get() as number | null) ?? 0;
    const json = rows.get('table');
    const arrays = ['lens', 'versions', 'documents', 'collections', 'pages'].map((name) => rows.get(name));
    if (generation !== this.generation || maxDoc !== currentMax || !json || arrays.some((a) => !a)) return false;
    this.chunks.restore(arrays as Uint8Array[], Buffer.from(json).toString());
    return true;
  }

  /** Written at a clean close, after the tails are in segments. */
  private writeSnapshot(): void {
    const { arrays, json } = this.chunks.snapshot();
    const maxDoc = (this.db.prepare('SELECT max(doc) FROM lex_chunks').pluck().get() as number | null) ?? 0;
    const insert = this.db.prepare('INSERT INTO lex_snapshot (name, data) VALUES (?, ?)');
    this.db.transaction(() => {
      this.db.exec('DELETE FROM lex_snapshot');
      ['lens', 'versions', 'documents', 'collections', 'pages'].forEach((name, i) => {
        insert.run(name, arrays[i]);
      });
      insert.run('table', Buffer.from(json));
      insert.run('head', Buffer.from(JSON.stringify({ generation: this.generation, maxDoc })));
    })();
  }

  /**
   * Lists written before blocks existed get their skip tables and counts (the data bytes are the
   * same); a chunk deleted since has no length left, so its block's bound takes length 0, and it
   * is recorded as a dead chunk of its segment.
   */
  private addSkipTables(): void {
    // once done, marked in meta: finding lists without skip tables would scan every list
    if (this.db.prepare("SELECT 1 FROM meta WHERE key = 'blocks'").get()) return;
    const buf = new PostingsBuffer();
    const writer = new PostingsWriter();
    const addDead = this.db.prepare('INSERT OR IGNORE INTO lex_dead (doc, seg) VALUES (?, ?)');
    this.db.transaction(() => {
      for (const seg of this.segInfo.keys()) {
        const table = segTable(seg);
        const read = this.db.prepare(`SELECT term, data FROM ${table} WHERE skip IS NULL`).raw();
        const update = this.db.prepare(`UPDATE ${table} SET n = ?, skip = ? WHERE term = ?`);
        const dead = new Set<number>();
        for (const [term, data] of read.all() as [string, Uint8Array][]) {
          buf.clear();
          buf.decode(data);
          for (let i = 0; i < buf.n; i++) {
            const doc = buf.docs[i] as number;
            if (!this.chunks.alive(doc)) dead.add(doc);
            writer.add(doc, buf.tfs[i] as number, this.chunks.alive(doc) ? this.chunks.len(doc) : 0);
          }
          const list = writer.take();
          update.run(list.n, list.skip, term);
        }
        const info = this.segInfo.get(seg);
        for (const doc of [...dead].sort((a, b) => a - b)) {
          addDead.run(doc, seg);
          info?.dead.push(doc);
        }
      }
      this.db.prepare("INSERT INTO meta (key, value) VALUES ('blocks', '128')").run();
      this.bump();
    })();
  }

  private segmentsOf(collection: string): number[] {
    let list = this.segments.get(collection);
    if (!list) {
      list = [];
      this.segments.set(collection, list);
    }
    return list;
  }

  /** The segment holding a chunk's postings (its collection's first segment ending at or after it), or null if in the tail. */
  private segmentOf(doc: number): number | null {
    const list = this.segments.get(this.chunks.collectionOf(doc));
    if (!list) return null;
    let lo = 0;
    let hi = list.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if ((this.segInfo.get(list[mid] as number) as Segment).lastDoc < doc) lo = mid + 1;
      else hi = mid;
    }
    return lo < list.length ? (list[lo] as number) : null;
  }

  private tailOf(collection: string): Tail {
    let tail = this.tails.get(collection);
    if (!tail) {
      tail = new Tail();
      this.tails.set(collection, tail);
    }
    return tail;
  }

  private addToTail(doc: number, collection: string, terms: Iterable<[string, number]>): void {
    this.tailOf(collection).add(doc, terms);
  }

  async upsert(chunks: IndexedChunk[]): Promise<void> {
    const texts = chunks.map((c) => c.retrieval_text);
    const counting =
      this.analysis && texts.length > 0
        ? this.analysis.call('count', texts)
        : Promise.resolve(packTermCounts(texts, this.analyze));
    const done = counting.then((counts) => this.write(chunks, counts));
    const settled: Promise<unknown> = done.then(
      () => this.upserting.delete(settled),
      () => this.upserting.delete(settled),
    );
    this.upserting.add(settled);
    return done;
  }

  private write(chunks: IndexedChunk[], counts: PackedTermCounts): void {
    this.lastDf = null;
    const { insert, insertPending, existing } = this.stmts;
    this.db.transaction(() => {
      this.bump();
      for (const [i, c] of chunks.entries()) {
        const old = existing.get(c.chunk_id) as number | undefined;
        if (old !== undefined) this.removeDoc(old);
        const page = c.page_index ?? null;
        const len = counts.lens[i] as number;
        const info = insert.run(c.chunk_id, c.version_id, c.document_id, c.collection_id, page, len);
        const doc = Number(info.lastInsertRowid);
        // The text, not the terms: a fifth of the bytes, analysed again only after a crash.
        insertPending.run(doc, c.retrieval_text);
        this.chunks.add(doc, { version: c.version_id, document: c.document_id, collection: c.collection_id, page, len });
        this.tailOf(c.collection_id).addRun(
          doc,
          counts.terms,
          counts.tf,
          i === 0 ? 0 : (counts.ends[i - 1] as number),
          counts.ends[i] as number,
        );
      }
    })();
    for (const collection of new Set(chunks.map((c) => c.collection_id))) {
      if ((this.tails.get(collection)?.docs.length ?? 0) >= this.segmentChunks) this.flushCollection(collection);
    }
    this.boundTails();
  }

  /**
   * Many collections each below the segment size could hold unbounded memory in their tails: past
   * TAIL_BOUND segments' worth in all, the largest tails are written out. This is the one way the
   * writes of other collections shape a collection's segments, and only under such write volume.
   */
  private boundTails(): void {
    let total = 0;
    for (const t of this.tails.values()) total += t.docs.length;
    while (total > TAIL_BOUND * this.segmentChunks) {
      let largest: [string, number] = ['', 0];
      for (const [collection, t] of this.tails) if (t.docs.length > largest[1]) largest = [collection, t.docs.length];
      this.flushCollection(largest[0]);
      total -= largest[1];
    }
  }

  /** Writes every collection's tail as a segment. */
  flush(): void {
    for (const collection of [...this.tails.keys()]) this.flushCollection(collection);
  }

  /** Writes a collection's tail as a new segment of it (live chunks only) and forgets the saved text of its chunks. */
  private flushCollection(collection: string): void {
    const tail = this.tails.get(collection);
    if (!tail) return;
    const seg = this.lastSeg + 1;
    const writer = new PostingsWriter();
    const { terms, start, docs, tfs } = tail.sorted();
    const lastDoc = tail.docs.reduce((a, b) => Math.max(a, b), 0);
    const chunks = tail.docs.filter((doc) => this.chunks.alive(doc)).length;
    let written = false;
    this.db.transaction(() => {
      this.bump();
      for (let i = 0; i < terms.length; i++) {
        for (let q = start[i] as number; q < (start[i + 1] as number); q++) {
          const doc = docs[q] as number;
          if (!this.chunks.alive(doc)) continue;
          writer.add(doc, tfs[q] as number, this.chunks.len(doc));
        }
        const list = writer.take();
        if (list.n > 0) {
          this.segStmts(seg, true).insert.run(terms[i], list.n, list.skip, list.data);
          written = true;
        }
      }
      if (written) this.stmts.insertSegment.run(seg, lastDoc, collection, chunks);
      for (const doc of tail.docs) this.stmts.deletePending.run(doc);
    })();
    if (written) {
      this.segmentsOf(collection).push(seg);
      this.segInfo.set(seg, { collection, lastDoc, chunks, dead: [] });
      this.lastSeg = seg;
    }
    this.tails.delete(collection);
    this.mergeTiers(collection);
  }

  /** A segment's tier: log base MERGE_FANIN of its chunks in segments' worth, rounded (0 for one segment's worth or less). */
  private tier(seg: number): number {
    const chunks = (this.segInfo.get(seg) as Segment).chunks;
    return Math.max(0, Math.round(Math.log(Math.max(1, chunks) / this.segmentChunks) / Math.log(MERGE_FANIN)));
  }

  /**
   * While MERGE_FANIN neighbouring segments of a collection are of one tier, they are merged into one: a
   * query looks a term up once per segment, and at a million chunks in segments of 20,000 those
   * lookups were half of its time. The oldest such run of neighbouring segments is merged, so a
   * collection's segments keep ascending, disjoint ranges of chunk numbers (and are read in the
   * order of their last chunk). One merge runs at a time, in the background; when it ends, every
   * collection is checked again.
   */
  private mergeTiers(collection: string): void {
    if (this.merging || this.closing || !this.db.open) return;
    const list = this.segmentsOf(collection);
    let run: number[] | null = null;
    for (let i = 0, same = 0; i < list.length && !run; i++) {
      same = i > 0 && this.tier(list[i] as number) === this.tier(list[i - 1] as number) ? same + 1 : 1;
      if (same === MERGE_FANIN) run = list.slice(i - MERGE_FANIN + 1, i + 1);
    }
    if (!run) return;
    this.merging = this.merge(collection, run)
      .catch((err: unknown) => {
        if (this.db.open) throw err;
      })
      .finally(() => {
        this.merging = null;
        if (!this.closing && this.db.open) for (const c of [...this.segments.keys()]) this.mergeTiers(c);
      });
  }

  /**
   * Writes one segment holding the live postings of `segs` (neighbouring segments of a collection,
   * oldest first) and then drops theirs. Terms are merged in batches, a transaction each, yielding
   * between them, so searches and writes go on meanwhile; the new segment is read only once the
   * last batch is in, and chunks deleted during the merge become its deleted chunks. Each term's
   * lists are concatenated (their chunk ranges follow each other) and cut into blocks anew, without
   * the chunks deleted before. A merge cut short (close, crash) leaves tables of segments no query
   * reads; they are dropped at the next open (`meta.merging`, `meta.dropping`).
   */
  private async merge(collection: string, segs: number[]): Promise<void> {
    const seg = ++this.lastSeg;
    this.db.prepare("INSERT OR REPLACE INTO meta (key, value) VALUES ('merging', ?)").run(String(seg));
    const deadBefore = new Set(segs.flatMap((s) => (this.segInfo.get(s) as Segment).dead));
    const inList = segs.map(() => '?').join(', ');
    const insert = this.segStmts(seg, true).insert;
    let finished: boolean | null = null;
    if (this.mergeThread)
      finished = await this.mergeOnThread(this.mergeThread, segs, insert).catch(() => this.stopMergeThread(seg));
    if (finished === null) finished = await this.mergeHere(segs, insert);
    if (!finished) return;
    await yieldTurn();
    if (this.closing) return;
    const infos = segs.map((s) => this.segInfo.get(s) as Segment);
    const lastDoc = Math.max(...infos.map((i) => i.lastDoc));
    const chunks = infos.reduce((n, i) => n + i.chunks, 0) - deadBefore.size;
    // deleted while the merge ran: still in its lists
    const dead = infos
      .flatMap((i) => i.dead)
      .filter((doc) => !deadBefore.has(doc))
      .sort((a, b) => a - b);
    this.db.transaction(() => {
      this.bump();
      this.db.prepare(`DELETE FROM lex_segments WHERE seg IN (${inList})`).run(...segs);
      this.db.prepare(`DELETE FROM lex_dead WHERE seg IN (${inList})`).run(...segs);
      this.stmts.insertSegment.run(seg, lastDoc, collection, chunks);
      for (const doc of dead) this.stmts.addDead.run(doc, seg);
      this.db.prepare("DELETE FROM meta WHERE key = 'merging'").run();
      this.db.prepare("INSERT OR REPLACE INTO meta (key, value) VALUES ('dropping', ?)").run(JSON.stringify(segs));
    })();
    const list = this.segmentsOf(collection);
    list.splice(list.indexOf(segs[0] as number), segs.length, seg);
    for (const s of segs) this.segInfo.delete(s);
    this.segInfo.set(seg, { collection, lastDoc, chunks, dead });
    // the merged segments' tables, one at a time
    for (const s of segs) {
      await yieldTurn();
      if (this.closing) return;
      this.dropSegTable(s);
    }
    this.db.prepare("DELETE FROM meta WHERE key = 'dropping'").run();
  }

  /** The merge's reads and re-encoding here, between the index's other work. False when the index closed meanwhile. */
  private async mergeHere(segs: number[], insert: Database.Statement): Promise<boolean> {
    const reader = new MergeReader(this.db, segs);
    const merger = new ListMerger((doc) => (this.chunks.alive(doc) ? this.chunks.len(doc) : -1));
    const pace = new BatchPace(MERGE_SLICE_MS, 64, MERGE_BATCH);
    for (let done = false; !done; ) {
      await yieldTurn();
      if (this.closing) return false;
      const t0 = performance.now();
      this.db.transaction(() => {
        const batch = reader.next(pace.size);
        done = batch === null;
        for (const [term, lists] of batch ?? []) {
          const list = merger.merge(lists);
          if (list.n > 0) insert.run(term, list.n, list.skip, list.data);
        }
      })();
      pace.took(performance.now() - t0);
    }
    return true;
  }

  /**
   * The merge thread stopped or could not read the file: its partial rows go, and this merge and the
   * later ones run here (null). False when the index is closing.
   */
  private stopMergeThread(seg: number): boolean | null {
    if (this.closing || !this.db.open) return false;
    void this.mergeThread?.close().catch(() => undefined);
    this.mergeThread = null;
    this.db.exec(`DELETE FROM ${segTable(seg)}`);
    return null;
  }

  /**
   * The merge's reads and re-encoding on the merge thread, one batch ahead of the writes here: the
   * thread reads the next batch while this one is written. The chunks deleted before the merge are
   * left out by their lengths as it begins; those deleted while it runs become the merged segment's
   * deleted chunks. False when the index closed meanwhile.
   */
  private async mergeOnThread(thread: ThreadHandle<MergeHandlers>, segs: number[], insert: Database.Statement): Promise<boolean> {
    const lens = this.chunks.storedLens();
    await thread.call('begin', { segs, lens }, [lens.buffer as ArrayBuffer]);
    const pace = new BatchPace(MERGE_SLICE_MS, 64, MERGE_BATCH);
    let next: Promise<MergedBatch | null> = thread.call('next', pace.size);
    for (;;) {
      const batch = await next;
      if (this.closing || !this.db.open) return false;
      if (batch === null) return true;
      next = thread.call('next', pace.size);
      // awaited after this batch is written; a failure meanwhile is not an unhandled rejection
      next.catch(() => undefined);
      const t0 = performance.now();
      this.db.transaction(() => {
        for (let i = 0, skipAt = 0, dataAt = 0; i < batch.terms.length; i++) {
          const skipEnd = batch.skipEnds[i] as number;
          const dataEnd = batch.dataEnds[i] as number;
          insert.run(batch.terms[i], batch.n[i], batch.skip.subarray(skipAt, skipEnd), batch.data.subarray(dataAt, dataEnd));
          skipAt = skipEnd;
          dataAt = dataEnd;
        }
      })();
      pace.took(performance.now() - t0);
      await yieldTurn();
    }
  }

  /** Resolves when no merge is running or due. */
  async merged(): Promise<void> {
    while (this.merging) await this.merging;
  }

  /** Rows a merge cut short left behind: those of the segment it was writing, or of the segments it had replaced. */
  private dropUnfinishedMerge(): void {
    const meta = this.db.prepare('SELECT value FROM meta WHERE key = ?').pluck();
    const merging = meta.get('merging') as string | undefined;
    const dropping = meta.get('dropping') as string | undefined;
    if (merging === undefined && dropping === undefined) return;
    this.db.transaction(() => {
      const segs = [...(merging === undefined ? [] : [Number(merging)]), ...(dropping ? (JSON.parse(dropping) as number[]) : [])];
      for (const s of segs) this.dropSegTable(s);
      this.db.prepare("DELETE FROM meta WHERE key IN ('merging', 'dropping')").run();
    })();
  }

  private removeDoc(doc: number): void {
    this.stmts.deleteDoc.run(doc);
    this.stmts.deletePending.run(doc);
    if (this.chunks.alive(doc) && this.chunks.len(doc) > 0) {
      const seg = this.segmentOf(doc);
      if (seg !== null) {
        this.stmts.addDead.run(doc, seg);
        const dead = (this.segInfo.get(seg) as Segment).dead;
        let i = dead.length;
        while (i > 0 && (dead[i - 1] as number) > doc) i--;
        dead.splice(i, 0, doc);
      }
    }
    this.chunks.remove(doc);
  }

  async deleteVersion(versionId: string): Promise<void> {
    this.lastDf = null;
    const docs = this.stmts.versionDocs.all(versionId) as number[];
    this.db.transaction(() => {
      this.bump();
      for (const doc of docs) this.removeDoc(doc);
    })();
  }

  /** The collections whose postings a query reads: the filter's, or every collection, in a fixed order. */
  private collectionsOf(filter: SearchFilter | undefined): string[] {
    const all = filter?.collectionIds ?? [...this.segments.keys(), ...this.tails.keys()];
    return [...new Set(all)].sort();
  }

  /** The lists of `term` in the collections' segments (null where a segment has none). */
  private lists(term: string, segs: number[]): (SegList | null)[] {
    return segs.map((seg) => {
      this.lastWork.lists++;
      const row = this.segStmts(seg).get.get(term) as [number, Uint8Array, Uint8Array] | undefined;
      return row ? { n: row[0], skip: skipTable(row[1]), data: row[2] } : null;
    });
  }

  /**
   * The document frequency of a term among the live chunks of the collections: a segment's list
   * gives its count, less the segment's deleted chunks found in it (only the blocks that may hold
   * them are decoded).
   */
  private df(term: string, segs: number[], lists: (SegList | null)[], collections: string[]): number {
    let df = 0;
    lists.forEach((list, i) => {
      if (!list) return;
      df += list.n;
      const { dead } = this.segInfo.get(segs[i] as number) as Segment;
      if (dead.length === 0) return;
      const c = new ListCursor(list.skip, list.data, EMPTY, 0);
      for (const doc of dead) {
        c.seek(doc);
        if (c.doc === Number.POSITIVE_INFINITY) break;
        if (c.doc === doc) df--;
      }
      this.lastWork.postings += c.decodedPostings;
    });
    for (const collection of collections) {
      this.tails.get(collection)?.each(term, (doc) => {
        if (this.chunks.alive(doc)) df++;
      });
    }
    return df;
  }

  async search(query: string, options: { k: number; filter?: SearchFilter }): Promise<LexicalHit[]> {
    return this.searchSync(query, options);
  }

  /** Synchronous search (better-sqlite3 is synchronous); `search` wraps it for the port. */
  searchSync(query: string, options: { k: number; filter?: SearchFilter }): LexicalHit[] {
    this.lastWork = { lists: 0, postings: 0, scored: 0, skipped: 0 };
    // N, avgdl and every df come from the collections the query may see, never from the others.
    const scope = this.chunks.scope(options.filter?.collectionIds);
    const n = scope.live;
    if (n === 0 || options.k <= 0) return [];
    const avg = scope.totalLen / n;
    const { k1, b } = this.params;
    const mask = this.chunks.mask(options.filter);
    if (mask === 'none') return [];
    if (this.scores.length < this.chunks.capacity) this.scores = new Float64Array(this.chunks.capacity);
    const collections = this.collectionsOf(options.filter);
    const segs = collections.flatMap((c) => this.segments.get(c) ?? []);
    const terms = [...countTerms(this.analyze(query))];
    const dfs = new Map<string, number>();
    const lists: (SegList | null)[][] = [];
    const weights: number[] = [];
    for (const [term, qtf] of terms) {
      const ls = this.lists(term, segs);
      const df = this.df(term, segs, ls, collections);
      dfs.set(term, df);
      lists.push(ls);
      weights.push(df === 0 ? 0 : termWeight(term, this.params) * idf(df, n) * (qtf > 1 ? 1 + Math.log(qtf) : 1));
    }
    this.lastDf = { query, scope: scope.key, df: dfs };
    const score = (w: number, tf: number, doc: number) =>
      (w * tf * (k1 + 1)) / (tf + k1 * (1 - b + (b * this.chunks.len(doc)) / avg));
    const heap = new TopK(options.k);
    // The tails (and, without pruning, the segments too): every posting into the dense score array.
    const scores = this.scores;
    const touched: number[] = [];
    const add = (w: number, doc: number, tf: number) => {
      if (!this.chunks.accepts(doc, mask)) return;
      if (scores[doc] === 0) touched.push(doc);
      scores[doc] = (scores[doc] as number) + score(w, tf, doc);
    };
    const buf = this.buffer;
    terms.forEach(([term], t) => {
      const w = weights[t] as number;
      if (w === 0) return;
      if (!this.pruning) {
        for (const list of lists[t] as (SegList | null)[]) {
          if (!list) continue;
          buf.clear();
          buf.decode(list.data);
          this.lastWork.postings += buf.n;
          for (let i = 0; i < buf.n; i++) add(w, buf.docs[i] as number, buf.tfs[i] as number);
        }
      }
      for (const collection of collections)
        this.tails.get(collection)?.each(term, (doc, tf) => {
          this.lastWork.postings++;
          add(w, doc, tf);
        });
    });
    for (const doc of touched) {
      heap.offer(doc, scores[doc] as number);
      scores[doc] = 0;
    }
    this.lastWork.scored = touched.length;
    if (this.pruning) this.searchSegments(segs, lists, weights, heap, score, mask, avg);
    return heap.best().map(([doc, s]) => ({ chunk_id: this.stmts.chunkId.get(doc) as string, score: s }));
  }

  /**
   * MaxScore over each segment, segments with the highest bound first (so the k-th score rises
   * early). A segment's lists are ordered by their largest block bound; those whose bounds together
   * stay under the k-th score when the segment starts are non-essential: no chunk only they hold can
   * enter the top k. The essential lists are scored term at a time into the dense array; then each
   * chunk they touched, in ascending order, is probed in the non-essential lists only while its
   * score so far plus the bounds of the blocks where it would sit can still reach the k-th score —
   * so most blocks of common terms are never decoded. A chunk that gets through is scored exactly,
   * its terms summed in query order as the exhaustive pass does.
   */
  private searchSegments(
    segs: number[],
    lists: (SegList | null)[][],
    weights: number[],
    heap: TopK,
    score: (w: number, tf: number, doc: number) => number,
    mask: Exclude<ReturnType<ChunkTable['mask']>, 'none'>,
    avg: number,
  ): void {
    const { k1, b } = this.params;
    const nTerms = weights.length;
    const tfOf = new Int32Array(nTerms);
    const scores = this.scores;
    const buf = this.buffer;
    const plans = segs.map((_, s) => {
      const terms: { t: number; list: SegList; bounds: Float64Array; max: number }[] = [];
      let total = 0;
      for (let t = 0; t < nTerms; t++) {
        const list = (lists[t] as (SegList | null)[])[s];
        const w = weights[t] as number;
        if (!list || w === 0) continue;
        const bounds = blockBounds(list.skip, (tf, len) => (w * tf * (k1 + 1)) / (tf + k1 * (1 - b + (b * len) / avg)));
        let max = 0;
        for (const x of bounds) if (x > max) max = x;
        total += max;
        terms.push({ t, list, bounds, max });
      }
      return { s, terms, total };
    });
    plans.sort((x, y) => y.total - x.total || x.s - y.s);
    for (const { terms } of plans) {
      if (terms.length === 0) continue;
      const theta0 = heap.threshold();
      terms.sort((x, y) => x.max - y.max || x.t - y.t);
      const L = terms.length;
      let run = 0;
      let ess = 0;
      while (ess < L && (run + (terms[ess] as { max: number }).max) * SLACK < theta0)
        run += (terms[ess++] as { max: number }).max;
      const nonEssMax = run;
      if (ess === L) {
        for (const x of terms) this.lastWork.skipped += x.bounds.length;
        continue;
      }
      // essential lists: decoded whole, term at a time into the dense array (kept for the exact scores)
      const decoded = new Map<number, { docs: Int32Array; tfs: Int32Array }>();
      const touched: number[] = [];
      for (let i = ess; i < L; i++) {
        const { t, list } = terms[i] as { t: number; list: SegList };
        buf.clear();
        buf.decode(list.data);
        const docs = buf.docs.slice(0, buf.n);
        const tfs = buf.tfs.slice(0, buf.n);
        decoded.set(t, { docs, tfs });
        this.lastWork.postings += docs.length;
        const w = weights[t] as number;
        for (let p = 0; p < docs.length; p++) {
          const doc = docs[p] as number;
          if (!this.chunks.accepts(doc, mask)) continue;
          if (scores[doc] === 0) touched.push(doc);
          scores[doc] = (scores[doc] as number) + score(w, tfs[p] as number, doc);
        }
      }
      const cursors = terms.slice(0, ess).map((x) => ({ t: x.t, c: new ListCursor(x.list.skip, x.list.data, x.bounds, x.max) }));
      const order = Int32Array.from(touched).sort();
      for (const d of order) {
        const partial0 = scores[d] as number;
        scores[d] = 0;
        const theta = heap.threshold();
        if ((partial0 + nonEssMax) * SLACK < theta) continue;
        let rest = 0;
        for (const { c } of cursors) {
          const blk = c.blockFor(d);
          if (blk !== -1) rest += c.bounds[blk] as number;
        }
        if ((partial0 + rest) * SLACK < theta) continue;
        let partial = partial0;
        let pruned = false;
        tfOf.fill(0);
        for (let i = cursors.length - 1; i >= 0; i--) {
          const { t, c } = cursors[i] as { t: number; c: ListCursor };
          const blk = c.blockFor(d);
          if (blk === -1) continue;
          rest -= c.bounds[blk] as number;
          c.seek(d);
          if (c.doc === d) {
            tfOf[t] = c.tf;
            partial += score(weights[t] as number, c.tf, d);
          }
          if ((partial + Math.max(0, rest)) * SLACK < theta) {
            pruned = true;
            break;
          }
        }
        if (pruned) continue;
        // the exact score: every term's part, summed in query order as the exhaustive pass does
        let s = 0;
        for (let t = 0; t < nTerms; t++) {
          const e = decoded.get(t);
          let tf = tfOf[t] as number;
          if (e) {
            let lo = 0;
            let hi = e.docs.length;
            while (lo < hi) {
              const mid = (lo + hi) >> 1;
              if ((e.docs[mid] as number) < d) lo = mid + 1;
              else hi = mid;
            }
            tf = e.docs[lo] === d ? (e.tfs[lo] as number) : 0;
          }
          if (tf > 0) s += score(weights[t] as number, tf, d);
        }
        this.lastWork.scored++;
        heap.offer(d, s);
      }
      for (const { c } of cursors) {
        this.lastWork.postings += c.decodedPostings;
        this.lastWork.skipped += c.blocks - c.decodedBlocks;
      }
    }
  }

  /** The analysed query with each term's IDF-based weight in the filter's collections (0 for terms absent from them). */
  async queryTerms(query: string, options: { filter?: SearchFilter } = {}): Promise<QueryTerm[]> {
    const scope = this.chunks.scope(options.filter?.collectionIds);
    const n = scope.live;
    const known = this.lastDf?.query === query && this.lastDf.scope === scope.key ? this.lastDf.df : null;
    const collections = this.collectionsOf(options.filter);
    const segs = collections.flatMap((c) => this.segments.get(c) ?? []);
    return [...countTerms(this.analyze(query)).keys()].map((term) => {
      const df = n === 0 ? 0 : (known?.get(term) ?? this.df(term, segs, this.lists(term, segs), collections));
      return { term, weight: df === 0 ? 0 : termWeight(term, this.params) * idf(df, n) };
    });
  }

  /** Writes the tail as a segment and a snapshot of the chunk table, so a reopen need not rebuild either. */
  async close(): Promise<void> {
    while (this.upserting.size > 0) await Promise.all([...this.upserting]);
    await this.analysis?.close();
    this.closing = true;
    await this.merging;
    await this.mergeThread?.close();
    try {
      if (this.db.open) {
        this.flush();
        this.writeSnapshot();
      }
    } catch (err) {
      // Both only save a reopen work: with the disk full, the tail stays saved as text (lex_pending)
      // and the chunk table is read from its rows at the next open.
      if (!isDiskFull(err)) throw err;
    } finally {
      this.db.close();
    }
  }
}

/** The k best chunks by score, best first (ties: lower chunk number first), in a bounded min-heap. */
class TopK {
  private readonly docs: number[] = [];
  private readonly scores: number[] = [];

  constructor(private readonly k: number) {}

  /** a ranks below b */
  private worse(i: number, j: number): boolean {
    const a = this.scores[i] as number;
    const b = this.scores[j] as number;
    return a < b || (a === b && (this.docs[i] as number) > (this.docs[j] as number));
  }

  private swap(i: number, j: number): void {
    [this.docs[i], this.docs[j]] = [this.docs[j] as number, this.docs[i] as number];
    [this.scores[i], this.scores[j]] = [this.scores[j] as number, this.scores[i] as number];
  }

  /** The score a chunk must reach to enter (a tie enters only with a lower chunk number); -Infinity until k are held. */
  threshold(): number {
    return this.docs.length < this.k ? Number.NEGATIVE_INFINITY : (this.scores[0] as number);
  }

  /** Whether the chunk entered. */
  offer(doc: number, score: number): boolean {
    if (this.docs.length < this.k) {
      this.docs.push(doc);
      this.scores.push(score);
      let i = this.docs.length - 1;
      while (i > 0) {
        const p = (i - 1) >> 1;
        if (!this.worse(i, p)) break;
        this.swap(i, p);
        i = p;
      }
      return true;
    }
    const top = this.scores[0] as number;
    if (score < top || (score === top && doc > (this.docs[0] as number))) return false;
    this.docs[0] = doc;
    this.scores[0] = score;
    let i = 0;
    for (;;) {
      const l = 2 * i + 1;
      const r = l + 1;
      let m = i;
      if (l < this.docs.length && this.worse(l, m)) m = l;
      if (r < this.docs.length && this.worse(r, m)) m = r;
      if (m === i) return true;
      this.swap(i, m);
      i = m;
    }
  }

  best(): [number, number][] {
    return this.docs
      .map((doc, i) => [doc, this.scores[i] as number] as [number, number])
      .sort((x, y) => y[1] - x[1] || x[0] - y[0]);
  }
}

/** Opens (or creates) the on-disk lexical index at `path` (':memory:' for a throwaway one). */
export function openLexicalIndex(path: string, options: LexicalIndexOptions = {}): SqliteLexicalIndex {
  return new SqliteLexicalIndex(path, options);
}
