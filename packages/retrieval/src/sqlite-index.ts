import { ANALYZER_ID, analyze as defaultAnalyze } from '@pinpoint/analysis';
import type { IndexedChunk, LexicalHit, LexicalIndex, QueryTerm, SearchFilter } from '@pinpoint/core';
import { isDiskFull } from '@pinpoint/core';
import { lazily, startThread, type ThreadHandle } from '@pinpoint/threads';
import Database from 'better-sqlite3';
import type { Bm25Params } from './bm25.js';
import { countTerms, DEFAULT_BM25 } from './bm25.js';
import {
  addPostingsFormat,
  addSegmentCollections,
  addSkipTables,
  migrateRowPerPosting,
  partLongLists,
  splitPostings,
} from './layout-migrations.js';
import { LexicalStore, SCHEMA } from './lexical-store.js';
import type { MergeHandlers, SegmentFormat } from './merge.js';
import { dropUnfinishedMerge, SegmentMerger, unfinishedMergeSegs } from './merger.js';
import { LexicalSearcher } from './searcher.js';
import type { SearchWork } from './segment.js';
import { restoreSnapshot, writeSnapshot } from './snapshot.js';
import type { SegmentScoring } from './term-at-a-time.js';
import type { TermCountHandlers } from './term-counts.js';
import { LexicalWriter } from './writer.js';

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
   * With pruning, how the segments are scored (default 'auto': per question, the way that fits it;
   * see term-at-a-time.ts). Every way gives the same top k.
   */
  segmentScoring?: SegmentScoring;
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

/**
 * After an open, the work no question needs — dropping what a merge cut short left behind, and
 * merging again — waits this long, or until the first write, so a cold start reads only what the
 * first question needs (a merge restarted at once competed with it for both cores).
 */
const BACKGROUND_DELAY_MS = 2000;

const analysisEntry = new URL('./analysis-thread.ts', import.meta.url);
const mergeEntry = new URL('./merge-thread.ts', import.meta.url);

function checkAnalyzer(db: Database.Database, analyzerId: string): void {
  const row = db.prepare("SELECT value FROM meta WHERE key = 'analyzer'").get() as { value: string } | undefined;
  if (!row) db.prepare("INSERT INTO meta (key, value) VALUES ('analyzer', ?)").run(analyzerId);
  else if (row.value !== analyzerId)
    throw new Error(`lexical index was built with analyzer ${row.value}, not ${analyzerId}: rebuild it`);
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
 *   shortest chunk; a list past 32 blocks in parts of 32 blocks, read only where a query decodes),
 *   appended in term order, so writing never slows as the index grows; a
 *   collection's segments hold ascending ranges of chunk numbers, and eight neighbouring segments
 *   of one size tier are merged into one in the background (a million chunks in 8 segments, not 50);
 * - deleting marks chunks dead (their postings are skipped, IDF counts only live chunks);
 * The rooms, each its own file: the shared store (lexical-store.ts), the writer and its tails
 * (writer.ts, tail.ts), the segments' read side (segment.ts), the merger (merger.ts, merge.ts), the
 * searcher (searcher.ts, block-max.ts, top-k.ts), the chunk-table snapshot (snapshot.ts) and the
 * upgrades of earlier layouts (layout-migrations.ts); this class opens them and is the port.
 * - a query reads only the lists of the collections it may see. The tail is scored exhaustively;
 *   each segment with block-max MaxScore in windows of chunk numbers: per window, lists whose
 *   blocks' bounds together cannot lift a chunk into the top k are only probed for the chunks the
 *   other lists bring, a probe first checks the bound of the block that would hold the chunk, and
 *   a block that cannot reach the k-th score is neither read nor decoded. Every chunk that could reach the top k is scored in full, so the top k is exact (same
 *   BM25, same tie order as scoring every posting). N, avgdl, df and the block bounds come from the
 *   same collections, so neither a score nor the work done depends on any other collection's chunks.
 */
export class SqliteLexicalIndex implements LexicalIndex {
  readonly id = 'sqlite-bm25@3';
  private readonly db: Database.Database;
  private readonly analyze: (text: string) => string[];
  private readonly store: LexicalStore;
  private readonly writer: LexicalWriter;
  private readonly merger: SegmentMerger;
  private readonly searcher: LexicalSearcher;
  private readonly analysis: ThreadHandle<TermCountHandlers> | null;
  /** The deferred start of the background work (null once started). */
  private background: NodeJS.Timeout | null = null;

  constructor(path: string, options: LexicalIndexOptions = {}) {
    this.db = new Database(path);
    // a new file gives the pages merged segments leave back to the file system (merger.ts); an existing one
    // keeps its mode, and is not written to here (on a full disk the pragma's header write fails the open)
    if (this.db.pragma('page_count', { simple: true }) === 0) this.db.pragma('auto_vacuum = INCREMENTAL');
    this.db.pragma('journal_mode = WAL');
    this.db.pragma('synchronous = NORMAL');
    this.db.pragma('cache_size = -65536');
    this.db.exec(SCHEMA);
    this.analyze = options.analyzer?.analyze ?? defaultAnalyze;
    const params: Bm25Params = { ...DEFAULT_BM25, ...options.bm25 };
    checkAnalyzer(this.db, options.analyzer?.id ?? ANALYZER_ID);
    // each thread started at its first call: a question needs neither (a cold start no longer loads them)
    this.analysis =
      options.analysisThread && !options.analyzer
        ? lazily(() => startThread<TermCountHandlers>(analysisEntry, undefined, 'lexical analysis'))
        : null;
    const mergeThread =
      options.mergeThread && path !== ':memory:' && path !== ''
        ? lazily(() => startThread<MergeHandlers>(mergeEntry, { path }, 'lexical merge'))
        : null;
    migrateRowPerPosting(this.db);
    splitPostings(this.db);
    addSegmentCollections(this.db);
    addPostingsFormat(this.db);
    this.store = new LexicalStore(this.db, options.segmentChunks ?? 20_000);
    this.merger = new SegmentMerger(this.store, mergeThread);
    this.writer = new LexicalWriter(this.store, this.analyze, this.analysis, (c) => {
      this.startBackground();
      this.merger.mergeTiers(c);
    });
    this.searcher = new LexicalSearcher(this.store, params, this.analyze, options.pruning ?? true, options.segmentScoring);
    this.load();
  }

  /** Work of the last search: lists looked up, postings decoded, chunks scored, blocks skipped. */
  get lastWork(): SearchWork {
    return this.searcher.lastWork;
  }

  /**
   * Reopening: chunk metadata into memory (from the snapshot of the last clean close when it is of
   * the current generation, else from the rows), the segments of each collection, and the tails.
   * After a clean close every tail is in segments; after a crash the tail chunks' saved text is
   * analysed again. Terms saved by the earlier layout (lex_tail) are read and written out as segments
   * at once; lists of the layout without blocks get their skip tables, long lists of the layout
   * before parts their parts. Nothing else is read: what a cut-short merge left behind and the
   * merges due wait for startBackground.
   */
  private load(): void {
    const { db, store } = this;
    store.generation = Number(
      (db.prepare("SELECT value FROM meta WHERE key = 'generation'").pluck().get() as string | undefined) ?? 0,
    );
    this.loadSegments();
    // what a merge cut short left behind is dropped later: new segments are numbered past it
    store.lastSeg = Math.max(store.lastSeg, ...unfinishedMergeSegs(store));
    this.background = setTimeout(() => this.startBackground(), BACKGROUND_DELAY_MS);
    this.background.unref();
    if (!restoreSnapshot(store)) {
      const rows = db
        .prepare('SELECT doc, version_id, document_id, collection_id, page_index, len FROM lex_chunks ORDER BY doc')
        .raw()
        .iterate() as IterableIterator<[number, string, string, string, number | null, number]>;
      for (const [doc, version, document, collection, page, len] of rows)
        store.chunks.add(doc, { version, document, collection, page, len });
    }
    addSkipTables(store);
    partLongLists(store);
    this.loadTails();
  }

  /** The background work an open defers: the tables a cut-short merge left behind dropped, then the merges due. */
  private startBackground(): void {
    if (this.background === null) return;
    clearTimeout(this.background);
    this.background = null;
    if (!this.db.open) return;
    dropUnfinishedMerge(this.store);
    for (const collection of [...this.store.segments.keys()]) this.merger.mergeTiers(collection);
  }

  /** Each collection's segments in the order of their last chunk, with their deleted chunks. */
  private loadSegments(): void {
    const { db, store } = this;
    const segs = db
      .prepare('SELECT seg, collection_id, last_doc, chunks, format FROM lex_segments ORDER BY last_doc, seg')
      .raw()
      .all() as [number, string, number, number | null, SegmentFormat][];
    for (const [seg, collection, lastDoc, chunks, format] of segs) {
      store.segmentsOf(collection).push(seg);
      // a segment written before counts were kept: one segment's worth
      store.segInfo.set(seg, { collection, lastDoc, chunks: chunks ?? store.segmentChunks, dead: [], format });
    }
    for (const [doc, seg] of db.prepare('SELECT doc, seg FROM lex_dead ORDER BY doc').raw().iterate() as IterableIterator<
      [number, number]
    >)
      store.segInfo.get(seg)?.dead.push(doc);
    store.lastSeg = (db.prepare('SELECT max(seg) FROM lex_segments').pluck().get() as number | null) ?? 0;
  }

  /** The tails: terms saved by the earlier layout written out at once, then the pending chunks' text analysed again. */
  private loadTails(): void {
    const { db, store } = this;
    const saved = db
      .prepare('SELECT t.doc, t.terms, c.collection_id FROM lex_tail t JOIN lex_chunks c ON c.doc = t.doc ORDER BY t.doc')
      .raw()
      .all() as [number, string, string][];
    if (saved.length > 0) {
      for (const [doc, terms, collection] of saved) store.tailOf(collection).add(doc, JSON.parse(terms) as [string, number][]);
      this.writer.flush();
      db.exec('DELETE FROM lex_tail');
    }
    const pending = db
      .prepare('SELECT p.doc, p.text, c.collection_id FROM lex_pending p JOIN lex_chunks c ON c.doc = p.doc ORDER BY p.doc')
      .raw()
      .iterate() as IterableIterator<[number, string, string]>;
    for (const [doc, text, collection] of pending) store.tailOf(collection).add(doc, countTerms(this.analyze(text)));
    for (const [collection, t] of store.tails) if (t.docs.length >= store.segmentChunks) this.writer.flushCollection(collection);
  }

  upsert(chunks: IndexedChunk[]): Promise<void> {
    return this.writer.upsert(chunks);
  }

  async deleteVersion(versionId: string): Promise<void> {
    this.writer.deleteVersion(versionId);
  }

  /** Writes every collection's tail as a segment. */
  flush(): void {
    this.writer.flush();
  }

  /** Resolves when no merge is running or due (the background work an open deferred started now). */
  merged(): Promise<void> {
    this.startBackground();
    return this.merger.merged();
  }

  async search(query: string, options: { k: number; filter?: SearchFilter }): Promise<LexicalHit[]> {
    return this.searchSync(query, options);
  }

  /** Synchronous search (better-sqlite3 is synchronous); `search` wraps it for the port. */
  searchSync(query: string, options: { k: number; filter?: SearchFilter }): LexicalHit[] {
    return this.searcher.search(query, options);
  }

  /** The analysed query with each term's IDF-based weight in the filter's collections (0 for terms absent from them). */
  async queryTerms(query: string, options: { filter?: SearchFilter } = {}): Promise<QueryTerm[]> {
    return this.searcher.queryTerms(query, options);
  }

  /** Writes the tail as a segment and a snapshot of the chunk table, so a reopen need not rebuild either. */
  async close(): Promise<void> {
    // deferred work not begun stays for the next open (the leftovers are still named in meta)
    if (this.background) clearTimeout(this.background);
    this.background = null;
    await this.writer.settled();
    await this.analysis?.close();
    await this.merger.close();
    try {
      if (this.db.open) {
        this.writer.flush();
        writeSnapshot(this.store);
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

/** Opens (or creates) the on-disk lexical index at `path` (':memory:' for a throwaway one). */
export function openLexicalIndex(path: string, options: LexicalIndexOptions = {}): SqliteLexicalIndex {
  return new SqliteLexicalIndex(path, options);
}
