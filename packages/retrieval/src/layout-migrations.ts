import type Database from 'better-sqlite3';
import { VARINT } from './block-codec.js';
import { createSegTable, type LexicalStore, writeList } from './lexical-store.js';
import { segTable } from './merge.js';
import { PART_BLOCKS, PostingsBuffer, PostingsWriter } from './postings.js';

/** Files of earlier layouts, brought to the current one at open (each step once, in a transaction). */

/** An index of the first layout (one row per posting) moves its chunks into the tail once. */
export function migrateRowPerPosting(db: Database.Database): void {
  const old = db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'postings'").get();
  if (!old) return;
  db.transaction(() => {
    const terms = new Map<number, [string, number][]>();
    for (const [term, doc, tf] of db.prepare('SELECT term, doc, tf FROM postings').raw().iterate() as IterableIterator<
      [string, number, number]
    >) {
      const list = terms.get(doc);
      if (list) list.push([term, tf]);
      else terms.set(doc, [[term, tf]]);
    }
    const insert = db.prepare(
      'INSERT INTO lex_chunks (chunk_id, version_id, document_id, collection_id, page_index, len) VALUES (?, ?, ?, ?, ?, ?)',
    );
    const insertTail = db.prepare('INSERT INTO lex_tail (doc, terms) VALUES (?, ?)');
    const rows = db
      .prepare('SELECT doc, chunk_id, version_id, document_id, collection_id, page_index, len FROM chunks ORDER BY doc')
      .raw();
    for (const [doc, ...fields] of rows.all() as [number, string, string, string, string, number | null, number][]) {
      const info = insert.run(...fields);
      insertTail.run(info.lastInsertRowid, JSON.stringify(terms.get(doc) ?? []));
    }
    db.exec('DROP TABLE postings; DROP TABLE chunks;');
  })();
}

/**
 * An index whose segments mixed collections gets a collection per segment: the chunks of its old
 * segments go back to the tails (their terms read from the postings), to be written per collection.
 */
export function addSegmentCollections(db: Database.Database): void {
  const columns = db.prepare('PRAGMA table_info(lex_segments)').all() as { name: string }[];
  if (!columns.some((c) => c.name === 'collection_id')) db.exec('ALTER TABLE lex_segments ADD COLUMN collection_id TEXT');
  if (!columns.some((c) => c.name === 'chunks')) db.exec('ALTER TABLE lex_segments ADD COLUMN chunks INTEGER');
  const mixed = db.prepare('SELECT seg FROM lex_segments WHERE collection_id IS NULL').pluck().all() as number[];
  if (mixed.length === 0) return;
  const live = new Set(db.prepare('SELECT doc FROM lex_chunks').pluck().all() as number[]);
  const buf = new PostingsBuffer();
  db.transaction(() => {
    const terms = new Map<number, [string, number][]>();
    for (const seg of mixed) {
      const rows = db.prepare(`SELECT term, data FROM ${segTable(seg)}`).raw();
      for (const [term, data] of rows.all() as [string, Uint8Array][]) {
        buf.clear();
        buf.decode(data, VARINT);
        for (let i = 0; i < buf.n; i++) {
          const doc = buf.docs[i] as number;
          if (!live.has(doc)) continue;
          const list = terms.get(doc);
          if (list) list.push([term, buf.tfs[i] as number]);
          else terms.set(doc, [[term, buf.tfs[i] as number]]);
        }
      }
      db.exec(`DROP TABLE IF EXISTS ${segTable(seg)}`);
      db.prepare('DELETE FROM lex_segments WHERE seg = ?').run(seg);
    }
    const insert = db.prepare('INSERT OR REPLACE INTO lex_tail (doc, terms) VALUES (?, ?)');
    for (const [doc, list] of terms) insert.run(doc, JSON.stringify(list));
  })();
}

/**
 * Segments get the block format of their lists recorded (lex_segments.format): those written before
 * it was recorded are VARINT (the column's default), and stay so until a merge rewrites them; new
 * segments are written SHORT_LISTS (PACKED blocks, lists of one block apart). An added column, so a file of the previous release opens and reads
 * its segments as they are.
 */
export function addPostingsFormat(db: Database.Database): void {
  const columns = db.prepare('PRAGMA table_info(lex_segments)').all() as { name: string }[];
  if (!columns.some((c) => c.name === 'format')) db.exec('ALTER TABLE lex_segments ADD COLUMN format INTEGER NOT NULL DEFAULT 0');
}

/**
 * An index of the single postings table (every segment's rows in one) gets a table per segment,
 * once; lists of the layout before blocks come without counts and skip tables (given in `load`).
 */
export function splitPostings(db: Database.Database): void {
  if (!db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'lex_postings'").get()) return;
  const columns = db.prepare('PRAGMA table_info(lex_postings)').all() as { name: string }[];
  const blocks = columns.some((c) => c.name === 'skip') ? 'n, skip' : 'NULL, NULL';
  db.transaction(() => {
    const segs = db.prepare('SELECT seg FROM lex_segments UNION SELECT DISTINCT seg FROM lex_postings').pluck().all() as number[];
    for (const seg of segs) {
      createSegTable(db, seg, false);
      db.prepare(
        `INSERT INTO ${segTable(seg)} (term, n, skip, data) SELECT term, ${blocks}, data FROM lex_postings WHERE seg = ? ORDER BY term`,
      ).run(seg);
    }
    db.exec('DROP TABLE lex_postings');
  })();
}

/**
 * Lists written before blocks existed get their skip tables and counts (the data bytes are the
 * same); a chunk deleted since has no length left, so its block's bound takes length 0, and it
 * is recorded as a dead chunk of its segment.
 */
export function addSkipTables(store: LexicalStore): void {
  // once done, marked in meta: finding lists without skip tables would scan every list
  if (store.db.prepare("SELECT 1 FROM meta WHERE key = 'blocks'").get()) return;
  const buf = new PostingsBuffer();
  // the data bytes stay as they are: the skip tables are of their varint blocks
  const writer = new PostingsWriter(VARINT);
  const addDead = store.db.prepare('INSERT OR IGNORE INTO lex_dead (doc, seg) VALUES (?, ?)');
  store.db.transaction(() => {
    for (const seg of store.segInfo.keys()) {
      const table = segTable(seg);
      const read = store.db.prepare(`SELECT term, data FROM ${table} WHERE skip IS NULL`).raw();
      const update = store.db.prepare(`UPDATE ${table} SET n = ?, skip = ? WHERE term = ?`);
      const dead = new Set<number>();
      for (const [term, data] of read.all() as [string, Uint8Array][]) {
        buf.clear();
        buf.decode(data, VARINT);
        for (let i = 0; i < buf.n; i++) {
          const doc = buf.docs[i] as number;
          if (!store.chunks.alive(doc)) dead.add(doc);
          writer.add(doc, buf.tfs[i] as number, store.chunks.alive(doc) ? store.chunks.len(doc) : 0);
        }
        const list = writer.take();
        update.run(list.n, list.skip, term);
      }
      const info = store.segInfo.get(seg);
      for (const doc of [...dead].sort((a, b) => a - b)) {
        addDead.run(doc, seg);
        info?.dead.push(doc);
      }
    }
    store.db.prepare("INSERT INTO meta (key, value) VALUES ('blocks', '128')").run();
    store.bump();
  })();
}

/**
 * Segments of the layout before parts get their parts table, and their lists of more than
 * PART_BLOCKS blocks move into parts (the same bytes, cut at block ends), so that a query reads only
 * the parts holding the blocks it decodes instead of every list whole. One segment per transaction,
 * a list at a time (a segment's long lists are most of its bytes); a run cut short goes on at the
 * next open, and the layout is marked done in meta once every segment is.
 */
export function partLongLists(store: LexicalStore): void {
  const { db } = store;
  if (db.prepare("SELECT 1 FROM meta WHERE key = 'parts'").get()) return;
  for (const seg of store.segInfo.keys()) {
    const table = segTable(seg);
    db.transaction(() => {
      createSegTable(db, seg, false);
      const long = db
        .prepare(`SELECT term FROM ${table} WHERE length(skip) > ? AND length(data) > 0`)
        .pluck()
        .all(PART_BLOCKS * 16) as string[];
      const read = db.prepare(`SELECT n, skip, data FROM ${table} WHERE term = ?`).raw();
      const remove = db.prepare(`DELETE FROM ${table} WHERE term = ?`);
      const stmts = store.segStmts(seg);
      for (const term of long) {
        const [n, skip, data] = read.get(term) as [number, Uint8Array, Uint8Array];
        remove.run(term);
        writeList(stmts, term, n, skip, data);
      }
    })();
  }
  db.prepare("INSERT INTO meta (key, value) VALUES ('parts', ?)").run(String(PART_BLOCKS));
}
