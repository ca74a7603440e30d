import { ANALYZER_ID, analyze as defaultAnalyze } from '@pinpoint/analysis';
import type { IndexedChunk, LexicalHit, LexicalIndex, QueryTerm, SearchFilter } from '@pinpoint/core';
import Database from 'better-sqlite3';
import type { Bm25Params } from './bm25.js';
import { countTerms, DEFAULT_BM25, idf, termWeight } from './bm25.js';
import { ChunkTable, type Scope } from './chunk-table.js';
import { PostingsBuffer, PostingsWriter } from './postings.js';

export interface LexicalIndexOptions {
  /** Must be the analyzer the index was built with; its id is stored and checked. */
  analyzer?: { id: string; analyze(text: string): string[] };
  bm25?: Partial<Bm25Params>;
  /** Chunks kept in the in-memory tail before it is written as a segment (default 20,000). */
  segmentChunks?: number;
}

const SCHEMA = `
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS lex_chunks (
  doc INTEGER PRIMARY KEY AUTOINCREMENT, chunk_id TEXT NOT NULL UNIQUE, version_id TEXT NOT NULL,
  document_id TEXT NOT NULL, collection_id TEXT NOT NULL, page_index INTEGER, len INTEGER NOT NULL);
CREATE TABLE IF NOT EXISTS lex_tail (doc INTEGER PRIMARY KEY, terms TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS lex_pending (doc INTEGER PRIMARY KEY, text TEXT NOT NULL);
CREATE INDEX IF NOT EXISTS lex_chunks_version ON lex_chunks(version_id);
CREATE TABLE IF NOT EXISTS lex_segments (seg INTEGER PRIMARY KEY, last_doc INTEGER NOT NULL, collection_id TEXT);
CREATE TABLE IF NOT EXISTS lex_postings (seg INTEGER NOT NULL, term TEXT NOT NULL, data BLOB NOT NULL,
  PRIMARY KEY (seg, term)) WITHOUT ROWID;`;

/** Segments' worth of chunks all tails together may hold before the largest are written. */
const TAIL_BOUND = 8;

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
    for (const [term, tf] of terms) {
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
 * - chunk metadata lives in SQLite and, for scoring and filtering, in typed arrays (ChunkTable);
 * - postings are kept per collection: each collection's new chunks go to its in-memory tail (their
 *   text also saved in lex_pending, so a restart after a crash re-analyses it); every `segmentChunks` chunks a tail is
 *   written as one immutable segment of that collection — per term one varint-coded postings list,
 *   appended in term order, so writing never slows as the index grows;
 * - deleting marks chunks dead (their postings are skipped, IDF counts only live chunks);
 * - a query reads only the lists of the collections it may see, decodes them and adds every live,
 *   allowed posting into a dense score array: exhaustive, so the top k is exact, and the cost is one
 *   pass over those collections' postings of the query's terms. N, avgdl and df come from the same
 *   collections, so neither a score nor the work done depends on any other collection's chunks.
 */
export class SqliteLexicalIndex implements LexicalIndex {
  readonly id = 'sqlite-bm25@2';
  private readonly db: Database.Database;
  private readonly analyze: (text: string) => string[];
  private readonly params: Bm25Params;
  private readonly segmentChunks: number;
  private readonly chunks = new ChunkTable();
  /** collection id → its segments, oldest first. */
  private segments = new Map<string, number[]>();
  private lastSeg = 0;
  /** collection id → its chunks not yet in a segment. */
  private tails = new Map<string, Tail>();
  private readonly buffer = new PostingsBuffer();
  private readonly pushPosting = (doc: number, tf: number) => this.buffer.push(doc, tf);
  private scores = new Float64Array(0);
  /** Document frequencies of the last searched query's terms in its scope, until the next write (queryTerms follows search). */
  private lastDf: { query: string; scope: string; df: Map<string, number> } | null = null;
  /** Work of the last search: postings lists looked up, postings read, chunks scored (what the access tests compare). */
  lastWork = { lists: 0, postings: 0, scored: 0 };
  private readonly stmts: ReturnType<SqliteLexicalIndex['prepare']>;

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
    this.checkAnalyzer(analyzerId);
    this.migrateRowPerPosting();
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
      postings: this.db.prepare('SELECT data FROM lex_postings WHERE seg = ? AND term = ?').pluck(),
      chunkId: this.db.prepare('SELECT chunk_id FROM lex_chunks WHERE doc = ?').pluck(),
      insertPosting: this.db.prepare('INSERT INTO lex_postings (seg, term, data) VALUES (?, ?, ?)'),
    };
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
    const mixed = this.db.prepare('SELECT seg FROM lex_segments WHERE collection_id IS NULL').pluck().all() as number[];
    if (mixed.length === 0) return;
    const live = new Set(this.db.prepare('SELECT doc FROM lex_chunks').pluck().all() as number[]);
    const buf = new PostingsBuffer();
    this.db.transaction(() => {
      const terms = new Map<number, [string, number][]>();
      const rows = this.db.prepare('SELECT term, data FROM lex_postings WHERE seg = ?').raw();
      for (const seg of mixed) {
        for (const [term, data] of rows.all(seg) as [string, Uint8Array][]) {
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
        this.db.prepare('DELETE FROM lex_postings WHERE seg = ?').run(seg);
        this.db.prepare('DELETE FROM lex_segments WHERE seg = ?').run(seg);
      }
      const insert = this.db.prepare('INSERT OR REPLACE INTO lex_tail (doc, terms) VALUES (?, ?)');
      for (const [doc, list] of terms) insert.run(doc, JSON.stringify(list));
    })();
  }

  /**
   * Reopening: chunk metadata into memory, the segments of each collection, and the tails. After a
   * clean close every tail is in segments; after a crash the tail chunks' saved text is analysed
   * again. Terms saved by the earlier layout (lex_tail) are read and written out as segments at once.
   */
  private load(): void {
    const segs = this.db.prepare('SELECT seg, collection_id FROM lex_segments ORDER BY seg').raw().all() as [number, string][];
    for (const [seg, collection] of segs) this.segmentsOf(collection).push(seg);
    this.lastSeg = (this.db.prepare('SELECT max(seg) FROM lex_segments').pluck().get() as number | null) ?? 0;
    const rows = this.db
      .prepare('SELECT doc, version_id, document_id, collection_id, page_index, len FROM lex_chunks ORDER BY doc')
      .raw()
      .iterate() as IterableIterator<[number, string, string, string, number | null, number]>;
    for (const [doc, version, document, collection, page, len] of rows)
      this.chunks.add(doc, { version, document, collection, page, len });
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
  }

  private segmentsOf(collection: string): number[] {
    let list = this.segments.get(collection);
    if (!list) {
      list = [];
      this.segments.set(collection, list);
    }
    return list;
  }

  private addToTail(doc: number, collection: string, terms: Iterable<[string, number]>): void {
    let tail = this.tails.get(collection);
    if (!tail) {
      tail = new Tail();
      this.tails.set(collection, tail);
    }
    tail.add(doc, terms);
  }

  async upsert(chunks: IndexedChunk[]): Promise<void> {
    this.lastDf = null;
    const analyzed = chunks.map((c) => {
      const terms = this.analyze(c.retrieval_text);
      return { c, tf: countTerms(terms), len: terms.length };
    });
    const { insert, insertPending, existing } = this.stmts;
    this.db.transaction(() => {
      for (const { c, tf, len } of analyzed) {
        const old = existing.get(c.chunk_id) as number | undefined;
        if (old !== undefined) this.removeDoc(old);
        const page = c.page_index ?? null;
        const info = insert.run(c.chunk_id, c.version_id, c.document_id, c.collection_id, page, len);
        const doc = Number(info.lastInsertRowid);
        // The text, not the terms: a fifth of the bytes, analysed again only after a crash.
        insertPending.run(doc, c.retrieval_text);
        this.chunks.add(doc, { version: c.version_id, document: c.document_id, collection: c.collection_id, page, len });
        this.addToTail(doc, c.collection_id, tf);
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
    let written = false;
    this.db.transaction(() => {
      for (let i = 0; i < terms.length; i++) {
        let any = false;
        for (let q = start[i] as number; q < (start[i + 1] as number); q++) {
          const doc = docs[q] as number;
          if (!this.chunks.alive(doc)) continue;
          writer.add(doc, tfs[q] as number);
          any = true;
        }
        const data = writer.take();
        if (any) {
          this.stmts.insertPosting.run(seg, terms[i], data);
          written = true;
        }
      }
      if (written)
        this.db.prepare('INSERT INTO lex_segments (seg, last_doc, collection_id) VALUES (?, ?, ?)').run(seg, lastDoc, collection);
      for (const doc of tail.docs) this.stmts.deletePending.run(doc);
    })();
    if (written) {
      this.segmentsOf(collection).push(seg);
      this.lastSeg = seg;
    }
    this.tails.delete(collection);
  }

  private removeDoc(doc: number): void {
    this.stmts.deleteDoc.run(doc);
    this.stmts.deletePending.run(doc);
    this.chunks.remove(doc);
  }

  async deleteVersion(versionId: string): Promise<void> {
    this.lastDf = null;
    const docs = this.stmts.versionDocs.all(versionId) as number[];
    this.db.transaction(() => {
      for (const doc of docs) this.removeDoc(doc);
    })();
  }

  /**
   * Every posting of `term` (segments, then tail) into the shared buffer; returns its document
   * frequency among the live chunks of the scope's collections.
   */
  private gather(term: string, scope: Scope, collections: Iterable<string>): number {
    const buf = this.buffer;
    buf.clear();
    for (const collection of collections) {
      for (const seg of this.segments.get(collection) ?? []) {
        this.lastWork.lists++;
        const data = this.stmts.postings.get(seg, term) as Uint8Array | undefined;
        if (data) buf.decode(data);
      }
      this.tails.get(collection)?.each(term, this.pushPosting);
    }
    let df = 0;
    for (let i = 0; i < buf.n; i++) if (this.chunks.counts(buf.docs[i] as number, scope)) df++;
    return df;
  }

  async search(query: string, options: { k: number; filter?: SearchFilter }): Promise<LexicalHit[]> {
    return this.searchSync(query, options);
  }

  /** Synchronous search (better-sqlite3 is synchronous); `search` wraps it for the port. */
  /** The collections whose postings a query reads: the filter's, or every collection. */
  private collectionsOf(filter: SearchFilter | undefined): Iterable<string> {
    return filter?.collectionIds ? new Set(filter.collectionIds) : new Set([...this.segments.keys(), ...this.tails.keys()]);
  }

  searchSync(query: string, options: { k: number; filter?: SearchFilter }): LexicalHit[] {
    this.lastWork = { lists: 0, postings: 0, scored: 0 };
    // N, avgdl and every df come from the collections the query may see, never from the others.
    const scope = this.chunks.scope(options.filter?.collectionIds);
    const n = scope.live;
    if (n === 0 || options.k <= 0) return [];
    const avg = scope.totalLen / n;
    const { k1, b } = this.params;
    const mask = this.chunks.mask(options.filter);
    if (mask === 'none') return [];
    if (this.scores.length < this.chunks.capacity) this.scores = new Float64Array(this.chunks.capacity);
    const scores = this.scores;
    const touched: number[] = [];
    const buf = this.buffer;
    const dfs = new Map<string, number>();
    const collections = [...this.collectionsOf(options.filter)];
    for (const [term, qtf] of countTerms(this.analyze(query))) {
      const df = this.gather(term, scope, collections);
      this.lastWork.postings += buf.n;
      dfs.set(term, df);
      if (df === 0) continue;
      const w = termWeight(term, this.params) * idf(df, n) * (qtf > 1 ? 1 + Math.log(qtf) : 1);
      for (let i = 0; i < buf.n; i++) {
        const doc = buf.docs[i] as number;
        if (!this.chunks.accepts(doc, mask)) continue;
        const tf = buf.tfs[i] as number;
        const s = (w * tf * (k1 + 1)) / (tf + k1 * (1 - b + (b * this.chunks.len(doc)) / avg));
        if (scores[doc] === 0) touched.push(doc);
        scores[doc] = (scores[doc] as number) + s;
      }
    }
    this.lastWork.scored = touched.length;
    this.lastDf = { query, scope: scope.key, df: dfs };
    const top = topK(touched, scores, options.k);
    const hits = top.map((doc) => ({ chunk_id: this.stmts.chunkId.get(doc) as string, score: scores[doc] as number }));
    for (const doc of touched) scores[doc] = 0;
    return hits;
  }

  /** The analysed query with each term's IDF-based weight in the filter's collections (0 for terms absent from them). */
  async queryTerms(query: string, options: { filter?: SearchFilter } = {}): Promise<QueryTerm[]> {
    const scope = this.chunks.scope(options.filter?.collectionIds);
    const n = scope.live;
    const known = this.lastDf?.query === query && this.lastDf.scope === scope.key ? this.lastDf.df : null;
    const collections = [...this.collectionsOf(options.filter)];
    return [...countTerms(this.analyze(query)).keys()].map((term) => {
      const df = n === 0 ? 0 : (known?.get(term) ?? this.gather(term, scope, collections));
      return { term, weight: df === 0 ? 0 : termWeight(term, this.params) * idf(df, n) };
    });
  }

  /** Writes the tail as a segment first, so a reopen need not rebuild it. */
  async close(): Promise<void> {
    if (this.db.open) this.flush();
    this.db.close();
  }
}

/** The k best documents by score, best first (ties: lower document number first), with a bounded min-heap. */
function topK(touched: number[], scores: Float64Array, k: number): number[] {
  // `worse(a, b)`: a ranks below b.
  const worse = (a: number, b: number) => (scores[a] as number) < (scores[b] as number) || (scores[a] === scores[b] && a > b);
  const heap: number[] = [];
  const down = (from: number) => {
    let i = from;
    for (;;) {
      const l = 2 * i + 1;
      const r = l + 1;
      let m = i;
      if (l < heap.length && worse(heap[l] as number, heap[m] as number)) m = l;
      if (r < heap.length && worse(heap[r] as number, heap[m] as number)) m = r;
      if (m === i) return;
      [heap[i], heap[m]] = [heap[m] as number, heap[i] as number];
      i = m;
    }
  };
  for (const doc of touched) {
    if (heap.length < k) {
      heap.push(doc);
      let i = heap.length - 1;
      while (i > 0) {
        const p = (i - 1) >> 1;
        if (!worse(heap[i] as number, heap[p] as number)) break;
        [heap[i], heap[p]] = [heap[p] as number, heap[i] as number];
        i = p;
      }
    } else if (worse(heap[0] as number, doc)) {
      heap[0] = doc;
      down(0);
    }
  }
  return heap.sort((a, b) => (worse(a, b) ? 1 : worse(b, a) ? -1 : 0));
}

/** Opens (or creates) the on-disk lexical index at `path` (':memory:' for a throwaway one). */
export function openLexicalIndex(path: string, options: LexicalIndexOptions = {}): SqliteLexicalIndex {
  return new SqliteLexicalIndex(path, options);
}
