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
CREATE INDEX IF NOT EXISTS lex_chunks_version ON lex_chunks(version_id);
CREATE TABLE IF NOT EXISTS lex_segments (seg INTEGER PRIMARY KEY, last_doc INTEGER NOT NULL);
CREATE TABLE IF NOT EXISTS lex_postings (seg INTEGER NOT NULL, term TEXT NOT NULL, data BLOB NOT NULL,
  PRIMARY KEY (seg, term)) WITHOUT ROWID;`;

/**
 * The embedded lexical index (BM25 with per-kind term weights over the shared analyzer's terms), built
 * for a million chunks on one machine:
 * - chunk metadata lives in SQLite and, for scoring and filtering, in typed arrays (ChunkTable);
 * - new chunks go to an in-memory tail (their terms also saved in lex_tail, so a restart rebuilds
 *   it); every `segmentChunks` chunks the tail is written as one immutable segment — per term one
 *   varint-coded postings list, appended in term order, so writing never slows as the index grows;
 * - deleting marks chunks dead (their postings are skipped, IDF counts only live chunks);
 * - a query decodes each term's lists and adds every live, allowed posting into a dense score
 *   array: exhaustive, so the top k is exact, and the cost is one pass over the query's postings.
 */
export class SqliteLexicalIndex implements LexicalIndex {
  readonly id = 'sqlite-bm25@2';
  private readonly db: Database.Database;
  private readonly analyze: (text: string) => string[];
  private readonly params: Bm25Params;
  private readonly segmentChunks: number;
  private readonly chunks = new ChunkTable();
  private segments: number[] = [];
  /** term → interleaved [doc, tf, doc, tf, …] of the chunks not yet in a segment. */
  private tail = new Map<string, number[]>();
  private tailChunks = 0;
  private readonly buffer = new PostingsBuffer();
  private scores = new Float64Array(0);
  /** Document frequencies of the last searched query's terms in its scope, until the next write (queryTerms follows search). */
  private lastDf: { query: string; scope: string; df: Map<string, number> } | null = null;
  /** Work of the last search: postings read and chunks scored (what the access tests compare). */
  lastWork = { postings: 0, scored: 0 };
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
    this.stmts = this.prepare();
    this.load();
  }

  private prepare() {
    return {
      insert: this.db.prepare(
        'INSERT INTO lex_chunks (chunk_id, version_id, document_id, collection_id, page_index, len) VALUES (?, ?, ?, ?, ?, ?)',
      ),
      insertTail: this.db.prepare('INSERT INTO lex_tail (doc, terms) VALUES (?, ?)'),
      existing: this.db.prepare('SELECT doc FROM lex_chunks WHERE chunk_id = ?').pluck(),
      deleteDoc: this.db.prepare('DELETE FROM lex_chunks WHERE doc = ?'),
      deleteTail: this.db.prepare('DELETE FROM lex_tail WHERE doc = ?'),
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

  /** Reopening: chunk metadata into memory, the segments' list, and the tail from its chunks' saved terms. */
  private load(): void {
    this.segments = (this.db.prepare('SELECT seg FROM lex_segments ORDER BY seg').pluck().all() as number[]) ?? [];
    const rows = this.db
      .prepare('SELECT doc, version_id, document_id, collection_id, page_index, len FROM lex_chunks ORDER BY doc')
      .raw()
      .iterate() as IterableIterator<[number, string, string, string, number | null, number]>;
    for (const [doc, version, document, collection, page, len] of rows)
      this.chunks.add(doc, { version, document, collection, page, len });
    const tail = this.db.prepare('SELECT doc, terms FROM lex_tail ORDER BY doc').raw().iterate() as IterableIterator<
      [number, string]
    >;
    for (const [doc, terms] of tail) this.addToTail(doc, JSON.parse(terms) as [string, number][]);
  }

  private addToTail(doc: number, terms: [string, number][]): void {
    for (const [term, tf] of terms) {
      const list = this.tail.get(term);
      if (list) list.push(doc, tf);
      else this.tail.set(term, [doc, tf]);
    }
    this.tailChunks++;
  }

  async upsert(chunks: IndexedChunk[]): Promise<void> {
    this.lastDf = null;
    const analyzed = chunks.map((c) => ({ c, tf: [...countTerms(this.analyze(c.retrieval_text))] }));
    const { insert, insertTail, existing } = this.stmts;
    this.db.transaction(() => {
      for (const { c, tf } of analyzed) {
        const old = existing.get(c.chunk_id) as number | undefined;
        if (old !== undefined) this.removeDoc(old);
        let len = 0;
        for (const [, n] of tf) len += n;
        const page = c.page_index ?? null;
        const info = insert.run(c.chunk_id, c.version_id, c.document_id, c.collection_id, page, len);
        const doc = Number(info.lastInsertRowid);
        insertTail.run(doc, JSON.stringify(tf));
        this.chunks.add(doc, { version: c.version_id, document: c.document_id, collection: c.collection_id, page, len });
        this.addToTail(doc, tf);
      }
    })();
    if (this.tailChunks >= this.segmentChunks) this.flush();
  }

  /** Writes the tail as a new segment (live chunks only) and forgets the saved terms of its chunks. */
  flush(): void {
    if (this.tailChunks === 0) return;
    const seg = (this.segments.at(-1) ?? 0) + 1;
    const writer = new PostingsWriter();
    const terms = [...this.tail.keys()].sort();
    let lastDoc = 0;
    this.db.transaction(() => {
      for (const term of terms) {
        const list = this.tail.get(term) as number[];
        let any = false;
        for (let i = 0; i < list.length; i += 2) {
          const doc = list[i] as number;
          if (doc > lastDoc) lastDoc = doc;
          if (!this.chunks.alive(doc)) continue;
          writer.add(doc, list[i + 1] as number);
          any = true;
        }
        const data = writer.take();
        if (any) this.stmts.insertPosting.run(seg, term, data);
      }
      this.db.prepare('INSERT INTO lex_segments (seg, last_doc) VALUES (?, ?)').run(seg, lastDoc);
      this.db.prepare('DELETE FROM lex_tail WHERE doc <= ?').run(lastDoc);
    })();
    this.segments.push(seg);
    this.tail = new Map();
    this.tailChunks = 0;
  }

  private removeDoc(doc: number): void {
    this.stmts.deleteDoc.run(doc);
    this.stmts.deleteTail.run(doc);
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
  private gather(term: string, scope: Scope): number {
    const buf = this.buffer;
    buf.clear();
    for (const seg of this.segments) {
      const data = this.stmts.postings.get(seg, term) as Uint8Array | undefined;
      if (data) buf.decode(data);
    }
    const list = this.tail.get(term);
    if (list) for (let i = 0; i < list.length; i += 2) buf.push(list[i] as number, list[i + 1] as number);
    let df = 0;
    for (let i = 0; i < buf.n; i++) if (this.chunks.counts(buf.docs[i] as number, scope)) df++;
    return df;
  }

  async search(query: string, options: { k: number; filter?: SearchFilter }): Promise<LexicalHit[]> {
    return this.searchSync(query, options);
  }

  /** Synchronous search (better-sqlite3 is synchronous); `search` wraps it for the port. */
  searchSync(query: string, options: { k: number; filter?: SearchFilter }): LexicalHit[] {
    this.lastWork = { postings: 0, scored: 0 };
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
    for (const [term, qtf] of countTerms(this.analyze(query))) {
      const df = this.gather(term, scope);
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
    return [...countTerms(this.analyze(query)).keys()].map((term) => {
      const df = n === 0 ? 0 : (known?.get(term) ?? this.gather(term, scope));
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
