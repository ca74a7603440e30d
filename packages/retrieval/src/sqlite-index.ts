import { ANALYZER_ID, analyze as defaultAnalyze } from '@pinpoint/analysis';
import type { IndexedChunk, LexicalHit, LexicalIndex, QueryTerm, SearchFilter } from '@pinpoint/core';
import Database from 'better-sqlite3';
import type { Bm25Params } from './bm25.js';
import { countTerms, DEFAULT_BM25, idf, termWeight } from './bm25.js';

export interface LexicalIndexOptions {
  /** Must be the analyzer the index was built with; its id is stored and checked. */
  analyzer?: { id: string; analyze(text: string): string[] };
  bm25?: Partial<Bm25Params>;
}

interface ChunkMeta {
  chunk_id: string;
  version_id: string;
  document_id: string;
  collection_id: string;
  page_index: number | null;
  len: number;
}

const SCHEMA = `
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS chunks (
  doc INTEGER PRIMARY KEY, chunk_id TEXT NOT NULL UNIQUE, version_id TEXT NOT NULL,
  document_id TEXT NOT NULL, collection_id TEXT NOT NULL, page_index INTEGER, len INTEGER NOT NULL,
  terms TEXT NOT NULL);
CREATE INDEX IF NOT EXISTS chunks_version ON chunks(version_id);
CREATE TABLE IF NOT EXISTS postings (term TEXT NOT NULL, doc INTEGER NOT NULL, tf INTEGER NOT NULL,
  PRIMARY KEY (term, doc)) WITHOUT ROWID;`;

/**
 * The embedded lexical index: an inverted index in SQLite (terms from the shared analyzer,
 * BM25 with per-kind term weights). Chunk metadata is mirrored in memory for filtering.
 */
export class SqliteLexicalIndex implements LexicalIndex {
  readonly id = 'sqlite-bm25@1';
  private readonly db: Database.Database;
  private readonly analyze: (text: string) => string[];
  private readonly params: Bm25Params;
  private readonly meta = new Map<number, ChunkMeta>();
  private totalLen = 0;

  constructor(path: string, options: LexicalIndexOptions = {}) {
    this.db = new Database(path);
    this.db.pragma('journal_mode = WAL');
    this.db.pragma('synchronous = NORMAL');
    this.db.exec(SCHEMA);
    const analyzerId = options.analyzer?.id ?? ANALYZER_ID;
    this.analyze = options.analyzer?.analyze ?? defaultAnalyze;
    this.params = { ...DEFAULT_BM25, ...options.bm25 };
    this.checkAnalyzer(analyzerId);
    for (const row of this.db
      .prepare('SELECT doc, chunk_id, version_id, document_id, collection_id, page_index, len FROM chunks')
      .all() as (ChunkMeta & { doc: number })[]) {
      const { doc, ...m } = row;
      this.meta.set(doc, m);
      this.totalLen += m.len;
    }
  }

  private checkAnalyzer(analyzerId: string): void {
    const row = this.db.prepare("SELECT value FROM meta WHERE key = 'analyzer'").get() as { value: string } | undefined;
    if (!row) this.db.prepare("INSERT INTO meta (key, value) VALUES ('analyzer', ?)").run(analyzerId);
    else if (row.value !== analyzerId)
      throw new Error(`lexical index was built with analyzer ${row.value}, not ${analyzerId}: rebuild it`);
  }

  async upsert(chunks: IndexedChunk[]): Promise<void> {
    const analyzed = chunks.map((c) => ({ c, tf: countTerms(this.analyze(c.retrieval_text)) }));
    const insertChunk = this.db.prepare(
      'INSERT INTO chunks (chunk_id, version_id, document_id, collection_id, page_index, len, terms) VALUES (?, ?, ?, ?, ?, ?, ?)',
    );
    const insertPosting = this.db.prepare('INSERT INTO postings (term, doc, tf) VALUES (?, ?, ?)');
    const existing = this.db.prepare('SELECT doc FROM chunks WHERE chunk_id = ?').pluck();
    this.db.transaction(() => {
      for (const { c, tf } of analyzed) {
        const old = existing.get(c.chunk_id) as number | undefined;
        if (old !== undefined) this.removeDoc(old);
        let len = 0;
        for (const n of tf.values()) len += n;
        const terms = [...tf.keys()];
        const info = insertChunk.run(
          c.chunk_id,
          c.version_id,
          c.document_id,
          c.collection_id,
          c.page_index ?? null,
          len,
          JSON.stringify(terms),
        );
        const doc = Number(info.lastInsertRowid);
        for (const [term, n] of tf) insertPosting.run(term, doc, n);
        this.meta.set(doc, {
          chunk_id: c.chunk_id,
          version_id: c.version_id,
          document_id: c.document_id,
          collection_id: c.collection_id,
          page_index: c.page_index ?? null,
          len,
        });
        this.totalLen += len;
      }
    })();
  }

  private removeDoc(doc: number): void {
    const row = this.db.prepare('SELECT terms FROM chunks WHERE doc = ?').get(doc) as { terms: string } | undefined;
    if (!row) return;
    const del = this.db.prepare('DELETE FROM postings WHERE term = ? AND doc = ?');
    for (const term of JSON.parse(row.terms) as string[]) del.run(term, doc);
    this.db.prepare('DELETE FROM chunks WHERE doc = ?').run(doc);
    this.totalLen -= this.meta.get(doc)?.len ?? 0;
    this.meta.delete(doc);
  }

  async deleteVersion(versionId: string): Promise<void> {
    const docs = this.db.prepare('SELECT doc FROM chunks WHERE version_id = ?').pluck().all(versionId) as number[];
    this.db.transaction(() => {
      for (const doc of docs) this.removeDoc(doc);
    })();
  }

  async search(query: string, options: { k: number; filter?: SearchFilter }): Promise<LexicalHit[]> {
    return this.searchSync(query, options);
  }

  /** Synchronous search (better-sqlite3 is synchronous); `search` wraps it for the port. */
  searchSync(query: string, options: { k: number; filter?: SearchFilter }): LexicalHit[] {
    const n = this.meta.size;
    if (n === 0) return [];
    const avg = this.totalLen / n;
    const { k1, b } = this.params;
    const accept = filterPredicate(options.filter);
    const postings = this.db.prepare('SELECT doc, tf FROM postings WHERE term = ?').raw();
    const scores = new Map<number, number>();
    for (const [term, qtf] of countTerms(this.analyze(query))) {
      const rows = postings.all(term) as [number, number][];
      if (rows.length === 0) continue;
      const w = termWeight(term, this.params) * idf(rows.length, n) * (qtf > 1 ? 1 + Math.log(qtf) : 1);
      for (const [doc, tf] of rows) {
        const m = this.meta.get(doc);
        if (!m || !accept(m)) continue;
        const s = (w * tf * (k1 + 1)) / (tf + k1 * (1 - b + (b * m.len) / avg));
        scores.set(doc, (scores.get(doc) ?? 0) + s);
      }
    }
    return topK(scores, options.k).map(([doc, score]) => ({ chunk_id: (this.meta.get(doc) as ChunkMeta).chunk_id, score }));
  }

  /** The analysed query with each term's IDF-based weight (0 for terms absent from the index). */
  async queryTerms(query: string): Promise<QueryTerm[]> {
    const n = this.meta.size;
    const df = this.db.prepare('SELECT COUNT(*) FROM postings WHERE term = ?').pluck();
    return [...countTerms(this.analyze(query)).keys()].map((term) => {
      const d = df.get(term) as number;
      return { term, weight: d === 0 ? 0 : termWeight(term, this.params) * idf(d, n) };
    });
  }

  async close(): Promise<void> {
    this.db.close();
  }
}

function filterPredicate(f: SearchFilter | undefined): (m: ChunkMeta) => boolean {
  if (!f) return () => true;
  const sets = {
    c: f.collectionIds ? new Set(f.collectionIds) : null,
    d: f.documentIds ? new Set(f.documentIds) : null,
    v: f.versionIds ? new Set(f.versionIds) : null,
    p: f.pageIndexes ? new Set(f.pageIndexes) : null,
  };
  return (m) =>
    (!sets.c || sets.c.has(m.collection_id)) &&
    (!sets.d || sets.d.has(m.document_id)) &&
    (!sets.v || sets.v.has(m.version_id)) &&
    (!sets.p || (m.page_index !== null && sets.p.has(m.page_index)));
}

function topK(scores: Map<number, number>, k: number): [number, number][] {
  return [...scores].sort((x, y) => y[1] - x[1] || x[0] - y[0]).slice(0, k);
}

/** Opens (or creates) the on-disk lexical index at `path` (':memory:' for a throwaway one). */
export function openLexicalIndex(path: string, options: LexicalIndexOptions = {}): SqliteLexicalIndex {
  return new SqliteLexicalIndex(path, options);
}
