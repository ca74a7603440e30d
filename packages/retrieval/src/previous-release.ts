import type Database from 'better-sqlite3';
import { PACKED, VARINT } from './block-codec.js';
import { writeList } from './lexical-store.js';
import { partsTable, SHORT_LISTS, segTable, shortTable } from './merge.js';
import { oneBlockSkip, PostingsBuffer, PostingsWriter, skipTable } from './postings.js';

/**
 * Rewrites an index file as the release before SHORT_LISTS wrote it, for the tests of opening such a
 * folder: every SHORT_LISTS segment's lists of one block back in its rowid table with their skip
 * tables (the same bytes), its short table dropped, the segment PACKED. The file must be closed by
 * its index.
 */
export function toPackedRelease(db: Database.Database): void {
  const segs = db.prepare('SELECT seg FROM lex_segments WHERE format = ?').pluck().all(SHORT_LISTS) as number[];
  db.transaction(() => {
    for (const seg of segs) {
      const insert = db.prepare(`INSERT INTO ${segTable(seg)} (term, n, skip, data) VALUES (?, ?, ?, ?)`);
      const rows = db
        .prepare(`SELECT term, min_len, data FROM ${shortTable(seg)} ORDER BY term`)
        .raw()
        .all() as [string, number, Uint8Array][];
      for (const [term, minLen, data] of rows) {
        const skip = oneBlockSkip(data, minLen);
        insert.run(term, skip.n, skip.bytes, data);
      }
      db.exec(`DROP TABLE ${shortTable(seg)}`);
    }
    db.prepare('UPDATE lex_segments SET format = ? WHERE format = ?').run(PACKED, SHORT_LISTS);
  })();
}

/**
 * Rewrites an index file as the release before the PACKED block format wrote it (after
 * toPackedRelease), for the tests of
 * opening such a folder: every segment's lists in the VARINT format (the same blocks and bounds, the
 * skip tables' end offsets those of the varint bytes; long lists in parts again) and no format
 * column in lex_segments. The file must be closed by its index.
 */
export function toPreviousRelease(db: Database.Database): void {
  toPackedRelease(db);
  const segs = db.prepare('SELECT seg FROM lex_segments WHERE format = ?').pluck().all(PACKED) as number[];
  const buf = new PostingsBuffer();
  const writer = new PostingsWriter(VARINT);
  db.transaction(() => {
    for (const seg of segs) {
      const table = segTable(seg);
      const parts = db.prepare(`SELECT data FROM ${partsTable(seg)} WHERE term = ? ORDER BY part`).pluck();
      const lists = (
        db.prepare(`SELECT term, n, skip, data FROM ${table}`).raw().all() as [string, number, Uint8Array, Uint8Array][]
      ).map(
        // an empty list is never written: no data means a list in parts
        ([term, n, skip, data]) => ({
          term,
          n,
          skip,
          data: data.length > 0 ? data : Buffer.concat(parts.all(term) as Uint8Array[]),
        }),
      );
      db.exec(`DELETE FROM ${table}; DELETE FROM ${partsTable(seg)}`);
      const stmts = {
        get: db.prepare(`SELECT n, skip, data FROM ${table} WHERE term = ?`),
        insert: db.prepare(`INSERT INTO ${table} (term, n, skip, data) VALUES (?, ?, ?, ?)`),
        part: db.prepare(`SELECT data FROM ${partsTable(seg)} WHERE term = ? AND part = ?`),
        insertPart: db.prepare(`INSERT INTO ${partsTable(seg)} (term, part, data) VALUES (?, ?, ?)`),
        insertShort: null,
      };
      for (const { term, n, skip, data } of lists) {
        buf.clear();
        buf.decode(data, PACKED);
        for (let i = 0; i < buf.n; i++) writer.add(buf.docs[i] as number, buf.tfs[i] as number, 0);
        const list = writer.take();
        // each block's shortest length as the segment recorded it (a chunk deleted since has none left)
        const old = skipTable(skip);
        const ends = skipTable(list.skip);
        for (let b = 3; b < old.length; b += 4) ends[b] = old[b] as number;
        writeList(stmts, term, n, list.skip, list.data);
      }
    }
    db.exec('ALTER TABLE lex_segments DROP COLUMN format');
  })();
}
