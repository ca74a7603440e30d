import { existsSync } from 'node:fs';
import Database from 'better-sqlite3';
import { idsTable, vectorLayout } from './vector-tables.js';

/** The chunks of an embedded vector store file (vectors.db), or null when there is none. */
export function vectorFileChunks(path: string): Map<string, string> | null {
  if (!existsSync(path)) return null;
  const db = new Database(path, { readonly: true });
  try {
    const layout = vectorLayout(db);
    if (!layout) return new Map();
    const rows = db
      .prepare(`SELECT chunk_id, version_id FROM ${idsTable(layout)}`)
      .raw()
      .all() as [string, string][];
    return new Map(rows);
  } finally {
    db.close();
  }
}
