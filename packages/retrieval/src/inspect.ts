import { existsSync } from 'node:fs';
import Database from 'better-sqlite3';
import { partsTable, SHORT_LISTS, segTable, shortTable } from './merge.js';

/** What an index file holds and what of its storage is damaged, read without opening the index itself. */
export interface IndexInspection {
  /** chunk id → version id of every chunk the index would return. */
  chunks: Map<string, string>;
  /** Each damage in a sentence (a lost segment names itself and the chunks it held). */
  problems: string[];
  /** Versions with chunks the damage makes unfindable. */
  damagedVersions: Set<string>;
}

interface SegmentRow {
  seg: number;
  collection_id: string;
  last_doc: number;
  format: number;
}

/**
 * Reads an embedded lexical index file (lexical.db) as verify needs it: its chunks, whether every
 * segment listed still has its table, and whether every chunk is either in a segment's range of
 * its collection or waiting in the saved tail. A missing file is reported, not created.
 */
export function inspectLexicalFile(path: string): IndexInspection {
  const result: IndexInspection = { chunks: new Map(), problems: [], damagedVersions: new Set() };
  if (!existsSync(path)) {
    result.problems.push(`lexical index ${path} is missing`);
    return result;
  }
  const db = new Database(path, { readonly: true });
  try {
    const tables = new Set(db.prepare("SELECT name FROM sqlite_schema WHERE type = 'table'").pluck().all() as string[]);
    // a file of the release before formats were recorded has no format column: its segments are VARINT
    const formats = (db.prepare('PRAGMA table_info(lex_segments)').all() as { name: string }[]).some((c) => c.name === 'format');
    const segments = db
      .prepare(`SELECT seg, collection_id, last_doc, ${formats ? 'format' : '0 AS format'} FROM lex_segments ORDER BY last_doc`)
      .all() as SegmentRow[];
    const pending = new Set(db.prepare('SELECT doc FROM lex_pending UNION SELECT doc FROM lex_tail').pluck().all() as number[]);
    // once long lists are in parts (meta 'parts'), a segment without its parts table has lost them
    const parted = db.prepare("SELECT 1 FROM meta WHERE key = 'parts'").get() !== undefined;
    const missing = ({ seg, format }: SegmentRow) =>
      [segTable(seg), ...(parted ? [partsTable(seg)] : []), ...(format === SHORT_LISTS ? [shortTable(seg)] : [])]
        .filter((table) => !tables.has(table))
        .join(', ');
    const lost = segments.filter((s) => missing(s) !== '');
    const rows = db.prepare('SELECT doc, chunk_id, version_id, collection_id FROM lex_chunks ORDER BY doc').all() as {
      doc: number;
      chunk_id: string;
      version_id: string;
      collection_id: string;
    }[];
    const lostChunks = new Map<number, number>();
    for (const row of rows) {
      result.chunks.set(row.chunk_id, row.version_id);
      const home = segments.find((s) => s.collection_id === row.collection_id && s.last_doc >= row.doc);
      if (!home && pending.has(row.doc)) continue;
      if (home && !lost.includes(home)) continue;
      result.damagedVersions.add(row.version_id);
      if (home) lostChunks.set(home.seg, (lostChunks.get(home.seg) ?? 0) + 1);
      else lostChunks.set(-1, (lostChunks.get(-1) ?? 0) + 1);
    }
    for (const s of lost) {
      result.problems.push(
        `lexical segment ${s.seg} (table ${missing(s)}, collection ${s.collection_id}) is missing: ${lostChunks.get(s.seg) ?? 0} chunks unfindable`,
      );
    }
    const loose = lostChunks.get(-1);
    if (loose) result.problems.push(`${loose} lexical chunks are in no segment and not in the saved tail`);
    return result;
  } finally {
    db.close();
  }
}
