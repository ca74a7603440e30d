import type { SearchFilter } from '@pinpoint/core';
import type Database from 'better-sqlite3';
import { ChunkTable } from './chunk-table.js';
import { partsTable, type SegmentFormat, SHORT_LISTS, segTable, shortTable } from './merge.js';
import { type EncodedList, oneBlockSkip, PART_BLOCKS, partStart, skipTable } from './postings.js';
import { type Row, RowCache } from './row-cache.js';
import { Tail } from './tail.js';

export const SCHEMA = `
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS lex_chunks (
  doc INTEGER PRIMARY KEY AUTOINCREMENT, chunk_id TEXT NOT NULL UNIQUE, version_id TEXT NOT NULL,
  document_id TEXT NOT NULL, collection_id TEXT NOT NULL, page_index INTEGER, len INTEGER NOT NULL);
CREATE TABLE IF NOT EXISTS lex_tail (doc INTEGER PRIMARY KEY, terms TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS lex_pending (doc INTEGER PRIMARY KEY, text TEXT NOT NULL);
CREATE INDEX IF NOT EXISTS lex_chunks_version ON lex_chunks(version_id);
CREATE TABLE IF NOT EXISTS lex_segments (
  seg INTEGER PRIMARY KEY, last_doc INTEGER NOT NULL, collection_id TEXT, chunks INTEGER, format INTEGER NOT NULL DEFAULT 0);
CREATE TABLE IF NOT EXISTS lex_dead (doc INTEGER PRIMARY KEY, seg INTEGER NOT NULL);
CREATE TABLE IF NOT EXISTS lex_snapshot (name TEXT PRIMARY KEY, data BLOB NOT NULL);`;

/**
 * A segment's tables: per term its list (count, skip table, data), and the parts of the long lists.
 * A list of more than PART_BLOCKS blocks keeps an empty `data`: its bytes are in parts of
 * PART_BLOCKS blocks, so a query reads only the parts holding the blocks it decodes.
 *
 * Rowid tables, with the term's key in an index beside them: a row of 1–10 KB in a WITHOUT ROWID
 * table keeps at most a quarter of a page in its B-tree and spills the rest into overflow pages whose
 * last is mostly empty (a fifth of a million-chunk index was such unused space), while a rowid
 * table keeps up to a page in the leaf and fills every overflow page. Segments written before stay
 * as they are (the same columns, read the same way) until a merge rewrites them.
 *
 * With `short` (SHORT_LISTS segments), a third table holds the lists of one block, nearly all of a
 * segment's lists (at 100k chunks 1.98M of 2M lists hold one posting): WITHOUT ROWID, so the term is
 * stored once and not again in an index, and no skip table (16 bytes, as much as the block): its
 * last chunk, end and largest tf are read off the block, its shortest chunk length is stored. Its
 * rows are a few dozen bytes, so none spills into overflow pages.
 */
export const createSegTable = (db: Database.Database, seg: number, short: boolean) =>
  db.exec(
    `CREATE TABLE IF NOT EXISTS ${segTable(seg)} (term TEXT PRIMARY KEY, n INTEGER, skip BLOB, data BLOB NOT NULL);
     CREATE TABLE IF NOT EXISTS ${partsTable(seg)} (term TEXT NOT NULL, part INTEGER NOT NULL, data BLOB NOT NULL, PRIMARY KEY (term, part))${
       short
         ? `; CREATE TABLE IF NOT EXISTS ${shortTable(seg)} (term TEXT PRIMARY KEY, min_len INTEGER NOT NULL, data BLOB NOT NULL) WITHOUT ROWID`
         : ''
     }`,
  );

/**
 * A segment's statements. In a SHORT_LISTS segment `get` reads both tables in one statement (the
 * term bound twice): a row of the short table comes as [null, min_len, data]; `insertShort` is null
 * in any other.
 */
export interface SegStatements {
  get: Database.Statement;
  insert: Database.Statement;
  part: Database.Statement;
  insertPart: Database.Statement;
  insertShort: Database.Statement | null;
}

const EMPTY = new Uint8Array(0);

/**
 * The largest list of one block kept in the short table: a WITHOUT ROWID row of more than about a
 * quarter of a 4 KB page spills into an overflow page (a block of 128 postings takes 150–400 bytes).
 */
const SHORT_LIST_BYTES = 640;

/**
 * A term's row in a segment, or null; a row of the short table with its skip table rebuilt. Both
 * tables are probed in one statement, the rowid table first (its index holds only the lists of more
 * than one block). Of the 300 scale questions' lookups at 100k chunks 45 % find the rowid table, 30 %
 * the short one, 25 % neither: a statement a table (either first) took 20 % more CPU than the PACKED
 * layout's one lookup, one statement over both no more (README).
 */
export function readRow(stmts: SegStatements, term: string): Row | null {
  const row = (stmts.insertShort ? stmts.get.get(term, term) : stmts.get.get(term)) as
    | Row
    | [null, number, Uint8Array]
    | undefined;
  if (!row) return null;
  if (row[0] !== null) return row as Row;
  const skip = oneBlockSkip(row[2], row[1]);
  return [skip.n, skip.bytes, row[2]];
}

/**
 * Writes a term's list into a segment: in the short table (one block, in a segment that has one),
 * whole, or (past PART_BLOCKS blocks) in parts.
 */
export function writeList(stmts: SegStatements, term: string, n: number, skip: Uint8Array, data: Uint8Array): void {
  const ends = skipTable(skip);
  const blocks = ends.length / 4;
  if (blocks === 1 && stmts.insertShort && data.length <= SHORT_LIST_BYTES) {
    stmts.insertShort.run(term, ends[3] as number, data);
    return;
  }
  if (blocks <= PART_BLOCKS) {
    stmts.insert.run(term, n, skip, data);
    return;
  }
  stmts.insert.run(term, n, skip, EMPTY);
  for (let part = 0; part * PART_BLOCKS < blocks; part++) {
    const end = Math.min(blocks, (part + 1) * PART_BLOCKS) - 1;
    stmts.insertPart.run(term, part, data.subarray(partStart(ends, part), ends[end * 4 + 1] as number));
  }
}

/** `writeList` of an encoded list. */
export const writeEncoded = (stmts: SegStatements, term: string, list: EncodedList) =>
  writeList(stmts, term, list.n, list.skip, list.data);

/**
 * A segment: its collection, its last chunk, the live chunks it was written with, its chunks
 * deleted since (ascending) and its format (its lists' block format, and whether short lists are apart).
 */
export interface Segment {
  collection: string;
  lastDoc: number;
  chunks: number;
  dead: number[];
  format: SegmentFormat;
}

function prepareStatements(db: Database.Database) {
  return {
    insert: db.prepare(
      'INSERT INTO lex_chunks (chunk_id, version_id, document_id, collection_id, page_index, len) VALUES (?, ?, ?, ?, ?, ?)',
    ),
    insertPending: db.prepare('INSERT INTO lex_pending (doc, text) VALUES (?, ?)'),
    existing: db.prepare('SELECT doc FROM lex_chunks WHERE chunk_id = ?').pluck(),
    deleteDoc: db.prepare('DELETE FROM lex_chunks WHERE doc = ?'),
    deletePending: db.prepare('DELETE FROM lex_pending WHERE doc = ?'),
    versionDocs: db.prepare('SELECT doc FROM lex_chunks WHERE version_id = ?').pluck(),
    chunkId: db.prepare('SELECT chunk_id FROM lex_chunks WHERE doc = ?').pluck(),
    insertSegment: db.prepare('INSERT INTO lex_segments (seg, last_doc, collection_id, chunks, format) VALUES (?, ?, ?, ?, ?)'),
    addDead: db.prepare('INSERT OR IGNORE INTO lex_dead (doc, seg) VALUES (?, ?)'),
    generation: db.prepare("INSERT OR REPLACE INTO meta (key, value) VALUES ('generation', ?)"),
  };
}

/**
 * What the writer, the merger, the searcher and the snapshot share: the database (its schema
 * migrated), the chunk table, each collection's segments and tail, and the write generation.
 */
export class LexicalStore {
  readonly chunks = new ChunkTable();
  /** collection id → its segments, oldest first. */
  readonly segments = new Map<string, number[]>();
  readonly segInfo = new Map<number, Segment>();
  /** collection id → its chunks not yet in a segment. */
  readonly tails = new Map<string, Tail>();
  lastSeg = 0;
  /** Bumped by every write; a snapshot of the chunk table (or a cached df) holds only for the generation it was taken at. */
  generation = 0;
  readonly stmts: ReturnType<typeof prepareStatements>;
  /**
   * Segment rows and parts read lately (128 MiB at most): at a million chunks a Japanese question reads
   * about 500 rows and parts, and 32 MiB kept too few of them for the next question (p95 of questions
   * asked once 34–38 → 30–32 ms, paired, for up to 96 MiB more RSS; README).
   */
  readonly rows = new RowCache(128 * 2 ** 20);
  private readonly segPrepared = new Map<number, SegStatements>();

  constructor(
    readonly db: Database.Database,
    readonly segmentChunks: number,
  ) {
    this.stmts = prepareStatements(db);
  }

  /** Records a write (inside its transaction). */
  bump(): void {
    this.stmts.generation.run(String(++this.generation));
  }

  /**
   * A segment's statements, prepared once. When `create`, its tables are created first, those of a
   * new segment (SHORT_LISTS, as every segment is written); otherwise the segment is a known one.
   */
  segStmts(seg: number, create = false): SegStatements {
    let stmts = this.segPrepared.get(seg);
    if (!stmts) {
      const short = create || this.segInfo.get(seg)?.format === SHORT_LISTS;
      if (create) createSegTable(this.db, seg, true);
      const table = segTable(seg);
      const parts = partsTable(seg);
      const get = `SELECT n, skip, data FROM ${table} WHERE term = ?`;
      stmts = {
        get: this.db
          .prepare(short ? `${get} UNION ALL SELECT NULL, min_len, data FROM ${shortTable(seg)} WHERE term = ?` : get)
          .raw(),
        insert: this.db.prepare(`INSERT INTO ${table} (term, n, skip, data) VALUES (?, ?, ?, ?)`),
        part: this.db.prepare(`SELECT data FROM ${parts} WHERE term = ? AND part = ?`).pluck(),
        insertPart: this.db.prepare(`INSERT INTO ${parts} (term, part, data) VALUES (?, ?, ?)`),
        insertShort: short ? this.db.prepare(`INSERT INTO ${shortTable(seg)} (term, min_len, data) VALUES (?, ?, ?)`) : null,
      };
      this.segPrepared.set(seg, stmts);
    }
    return stmts;
  }

  /** Drops a segment's table (a merged segment, or one a merge left unfinished). */
  dropSegTable(seg: number): void {
    this.segPrepared.delete(seg);
    this.db.exec(
      `DROP TABLE IF EXISTS ${segTable(seg)}; DROP TABLE IF EXISTS ${partsTable(seg)}; DROP TABLE IF EXISTS ${shortTable(seg)}`,
    );
  }

  segmentsOf(collection: string): number[] {
    let list = this.segments.get(collection);
    if (!list) {
      list = [];
      this.segments.set(collection, list);
    }
    return list;
  }

  /** The segment holding a chunk's postings (its collection's first segment ending at or after it), or null if in the tail. */
  segmentOf(doc: number): number | null {
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

  tailOf(collection: string): Tail {
    let tail = this.tails.get(collection);
    if (!tail) {
      tail = new Tail();
      this.tails.set(collection, tail);
    }
    return tail;
  }

  /** The collections whose postings a query reads: the filter's, or every collection, in a fixed order. */
  collectionsOf(filter: SearchFilter | undefined): string[] {
    const all = filter?.collectionIds ?? [...this.segments.keys(), ...this.tails.keys()];
    return [...new Set(all)].sort();
  }
}
