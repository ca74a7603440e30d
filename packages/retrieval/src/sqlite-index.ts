import { ANALYZER_ID, analyze as defaultAnalyze } from '@pinpoint/analysis';
import type { IndexedChunk, LexicalHit, LexicalIndex, QueryTerm, SearchFilter } from '@pinpoint/core';
import Database from 'better-sqlite3';
import type { Bm25Params } from './bm25.js';
import { countTerms, DEFAULT_BM25, idf, termWeight } from './bm25.js';
import type { FilterMask } from './chunk-table.js';
import { ChunkTable } from './chunk-table.js';
import { maxScoreTopK } from './maxscore.js';
import { PostingsBuffer, PostingsWriter } from './postings.js';

export interface LexicalIndexOptions {
  /** Must be the analyzer the index was built with; its id is stored and checked. */
  analyzer?: { id: string; analyze(text: string): string[] };
  bm25?: Partial<Bm25Params>;
  /** Chunks kept in the in-memory tail before it is written as a segment (default 20,000). */
  segmentChunks?: number;
  /** MaxScore pruning of the query (default on); off: every posting is scored. Both give the same top k. */
  pruning?: boolean;
  /** Memory for decoded segment postings lists kept between queries (default 64 MB). */
  listCacheMb?: number;
}

interface SegmentList {
  docs: Int32Array;
  tfs: Int32Array;
  maxTf: number;
  /** Postings of live chunks, as of `deaths`. */
  live: number;
  deaths: number;
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
 * - a query decodes each term's lists and finds the exact top k by MaxScore (maxscore.ts): postings
 *   of terms that can no longer lift a chunk into the top k are only probed for the chunks the
 *   other terms bring, never scored one by one (`pruning: false`: every posting is scored into a
 *   dense array, the reference the pruned pass is tested against).
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
  /** Where a segment list is decoded before it is cached. */
  private readonly decoded = new PostingsBuffer();
  /** One decode buffer per query term (reused across queries). */
  private readonly termBuffers: PostingsBuffer[] = [];
  private readonly pruning: boolean;
  /**
   * Decoded segment lists by segment and term, least recently used first (segments are immutable, so
   * an entry never goes stale; a query's common terms are then neither read nor decoded again).
   */
  private readonly lists = new Map<string, SegmentList | null>();
  private listBytes = 0;
  private readonly listBudget: number;
  /** Chunks removed so far: a cached list recounts its live postings when this moved. */
  private deaths = 0;
  private scores = new Float64Array(0);
  /** Document frequencies of the last searched query's terms, until the next write (queryTerms follows search). */
  private lastDf: { query: string; df: Map<string, number> } | null = null;
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
    this.pruning = options.pruning ?? true;
    this.listBudget = (options.listCacheMb ?? 64) * 1024 * 1024;
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
    this.deaths++;
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

  /** A segment's list of `term`, decoded (cached: segments never change), with its live count kept current. */
  private segmentList(seg: number, term: string): SegmentList | null {
    const key = `${seg}\u0000${term}`;
    let list = this.lists.get(key);
    if (list === undefined) {
      const data = this.stmts.postings.get(seg, term) as Uint8Array | undefined;
      list = null;
      if (data) {
        const buf = this.decoded;
        buf.clear();
        buf.decode(data);
        let maxTf = 0;
        for (let i = 0; i < buf.n; i++) if ((buf.tfs[i] as number) > maxTf) maxTf = buf.tfs[i] as number;
        list = { docs: buf.docs.slice(0, buf.n), tfs: buf.tfs.slice(0, buf.n), maxTf, live: 0, deaths: -1 };
      }
      this.listBytes += list ? list.docs.byteLength * 2 + 96 : 96;
      while (this.listBytes > this.listBudget && this.lists.size > 0) {
        const [oldest, dropped] = this.lists.entries().next().value as [string, SegmentList | null];
        this.lists.delete(oldest);
        this.listBytes -= dropped ? dropped.docs.byteLength * 2 + 96 : 96;
      }
    } else this.lists.delete(key);
    this.lists.set(key, list);
    if (list && list.deaths !== this.deaths) {
      let live = 0;
      for (let i = 0; i < list.docs.length; i++) if (this.chunks.alive(list.docs[i] as number)) live++;
      list.live = live;
      list.deaths = this.deaths;
    }
    return list;
  }

  /**
   * Every posting of `term` (segments, then tail: ascending chunk numbers) into `buf`; returns its live
   * document frequency and its largest term frequency.
   */
  private gather(term: string, buf: PostingsBuffer = this.buffer): { df: number; maxTf: number } {
    buf.clear();
    let df = 0;
    let maxTf = 0;
    for (const seg of this.segments) {
      const list = this.segmentList(seg, term);
      if (!list) continue;
      buf.append(list.docs, list.tfs);
      df += list.live;
      if (list.maxTf > maxTf) maxTf = list.maxTf;
    }
    const tail = this.tail.get(term);
    if (tail) {
      for (let i = 0; i < tail.length; i += 2) {
        const doc = tail[i] as number;
        const tf = tail[i + 1] as number;
        buf.push(doc, tf);
        if (this.chunks.alive(doc)) df++;
        if (tf > maxTf) maxTf = tf;
      }
    }
    return { df, maxTf };
  }

  async search(query: string, options: { k: number; filter?: SearchFilter }): Promise<LexicalHit[]> {
    return this.searchSync(query, options);
  }

  /** Synchronous search (better-sqlite3 is synchronous); `search` wraps it for the port. */
  searchSync(query: string, options: { k: number; filter?: SearchFilter }): LexicalHit[] {
    const n = this.chunks.live;
    if (n === 0 || options.k <= 0) return [];
    const mask = this.chunks.mask(options.filter);
    if (mask === 'none') return [];
    const top = this.pruning ? this.pruned(query, n, mask, options.k) : this.exhaustive(query, n, mask, options.k);
    return top.map(({ doc, score }) => ({ chunk_id: this.stmts.chunkId.get(doc) as string, score }));
  }

  /** The query's terms present in the index, with their weights and postings (each in its own buffer). */
  private weighted(query: string, n: number): Array<{ buf: PostingsBuffer; w: number; maxTf: number }> {
    const out: Array<{ buf: PostingsBuffer; w: number; maxTf: number }> = [];
    const dfs = new Map<string, number>();
    for (const [term, qtf] of countTerms(this.analyze(query))) {
      while (this.termBuffers.length <= out.length) this.termBuffers.push(new PostingsBuffer());
      const buf = this.termBuffers[out.length] as PostingsBuffer;
      const { df, maxTf } = this.gather(term, buf);
      dfs.set(term, df);
      if (df === 0) continue;
      out.push({ buf, maxTf, w: termWeight(term, this.params) * idf(df, n) * (qtf > 1 ? 1 + Math.log(qtf) : 1) });
    }
    this.lastDf = { query, df: dfs };
    return out;
  }

  private pruned(query: string, n: number, mask: FilterMask, k: number): Array<{ doc: number; score: number }> {
    const terms = this.weighted(query, n).map(({ buf, w, maxTf }) => ({ docs: buf.docs, tfs: buf.tfs, n: buf.n, w, maxTf }));
    const { k1, b } = this.params;
    const chunks = this.chunks;
    if (this.scores.length < chunks.capacity) this.scores = new Float64Array(chunks.capacity);
    return maxScoreTopK(terms, { k1, b, avg: chunks.totalLen / n, chunks, mask }, k, this.scores);
  }

  /** Every live, allowed posting scored into a dense array; the top k by a bounded heap. */
  private exhaustive(query: string, n: number, mask: FilterMask, k: number): Array<{ doc: number; score: number }> {
    const avg = this.chunks.totalLen / n;
    const { k1, b } = this.params;
    if (this.scores.length < this.chunks.capacity) this.scores = new Float64Array(this.chunks.capacity);
    const scores = this.scores;
    const touched: number[] = [];
    for (const { buf, w } of this.weighted(query, n)) {
      for (let i = 0; i < buf.n; i++) {
        const doc = buf.docs[i] as number;
        if (!this.chunks.accepts(doc, mask)) continue;
        const tf = buf.tfs[i] as number;
        const s = (w * tf * (k1 + 1)) / (tf + k1 * (1 - b + (b * this.chunks.len(doc)) / avg));
        if (scores[doc] === 0) touched.push(doc);
        scores[doc] = (scores[doc] as number) + s;
      }
    }
    const top = topK(touched, scores, k).map((doc) => ({ doc, score: scores[doc] as number }));
    for (const doc of touched) scores[doc] = 0;
    return top;
  }

  /** The analysed query with each term's IDF-based weight (0 for terms absent from the index). */
  async queryTerms(query: string): Promise<QueryTerm[]> {
    const n = this.chunks.live;
    const known = this.lastDf?.query === query ? this.lastDf.df : null;
    return [...countTerms(this.analyze(query)).keys()].map((term) => {
      const df = n === 0 ? 0 : (known?.get(term) ?? this.gather(term).df);
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
