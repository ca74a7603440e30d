import type Database from 'better-sqlite3';

/**
 * The tables of an embedded vector file (vectors.db).
 *
 * A file made now keeps apart what a chunk's row held together: each (version, document,
 * collection) once in `pp_vector_versions`, each chunk's id, page and version there in
 * `pp_vector_rows`, and its vector in `pp_vector_data` under the same integer key as its row.
 * `pp_vectors` is a view of the three with the columns of the single table earlier releases wrote,
 * so every read is one SQL text for either layout. A page of vectors now holds five (384 dimensions
 * as half floats, 768 bytes, and an integer key) where a row with its three ids (some 110 bytes)
 * held four, and a chunk's own row is some 45 bytes. On the 100k-chunk scale folder the same rows
 * take 93.7 MB against 111.3 (−16 %; the ids apart but not shared, 102.8).
 *
 * A file of an earlier release keeps its single `pp_vectors` table and is written as before: the
 * layout is told by what `pp_vectors` is, a table or a view.
 */
export type VectorLayout = 'split' | 'single';

const SPLIT = `
  CREATE TABLE pp_vector_versions (
    id INTEGER PRIMARY KEY, version_id TEXT NOT NULL, document_id TEXT NOT NULL, collection_id TEXT NOT NULL,
    UNIQUE (version_id, document_id, collection_id));
  CREATE TABLE pp_vector_rows (
    id INTEGER PRIMARY KEY, chunk_id TEXT NOT NULL UNIQUE, version INTEGER NOT NULL, page_index INTEGER);
  CREATE INDEX pp_vector_rows_version ON pp_vector_rows(version);
  CREATE TABLE pp_vector_data (id INTEGER PRIMARY KEY, vector BLOB NOT NULL);
  CREATE VIEW pp_vectors AS
    SELECT r.chunk_id AS chunk_id, v.version_id AS version_id, v.document_id AS document_id,
      v.collection_id AS collection_id, r.page_index AS page_index, d.vector AS vector
    FROM pp_vector_rows r JOIN pp_vector_versions v ON v.id = r.version JOIN pp_vector_data d ON d.id = r.id;
  CREATE VIEW pp_vector_ids AS
    SELECT r.chunk_id AS chunk_id, v.version_id AS version_id, v.document_id AS document_id,
      v.collection_id AS collection_id, r.page_index AS page_index
    FROM pp_vector_rows r JOIN pp_vector_versions v ON v.id = r.version;`;

/** The file's layout, its tables made first when it has none (a new file is split). */
export function ensureVectorTables(db: Database.Database): VectorLayout {
  const found = vectorLayout(db);
  if (found) return found;
  db.exec(SPLIT);
  return 'split';
}

/** The layout of a file's vector tables; null when it has none. */
export function vectorLayout(db: Database.Database): VectorLayout | null {
  const row = db.prepare("SELECT type FROM sqlite_schema WHERE name = 'pp_vectors'").get() as { type: string } | undefined;
  if (!row) return null;
  return row.type === 'view' ? 'split' : 'single';
}

/** What holds each chunk's ids and page without its vector (pp_vectors less its vector column): reading it reads no vector. */
export function idsTable(layout: VectorLayout): string {
  return layout === 'split' ? 'pp_vector_ids' : 'pp_vectors';
}

/** The table of one row per chunk, to count them. */
export function rowsTable(layout: VectorLayout): string {
  return layout === 'split' ? 'pp_vector_rows' : 'pp_vectors';
}

/** Writes of one layout: a chunk's vector stored (replacing the chunk's row), a version's deleted, all deleted. */
export interface VectorWrites {
  /** Stores the row, replacing the chunk's; the version the chunk was stored under before (null: new). */
  put(row: {
    chunk_id: string;
    version_id: string;
    document_id: string;
    collection_id: string;
    page_index: number | null;
    vector: Uint8Array;
  }): string | null;
  deleteVersion(versionId: string): void;
  deleteAll(): void;
}

export function vectorWrites(db: Database.Database, layout: VectorLayout): VectorWrites {
  if (layout === 'single') {
    const storedAs = db.prepare('SELECT version_id FROM pp_vectors WHERE chunk_id = ?').pluck();
    const insert = db.prepare(
      `INSERT OR REPLACE INTO pp_vectors (chunk_id, version_id, document_id, collection_id, page_index, vector)
       VALUES (@chunk_id, @version_id, @document_id, @collection_id, @page_index, @vector)`,
    );
    const deleteVersion = db.prepare('DELETE FROM pp_vectors WHERE version_id = ?');
    return {
      put: (row) => {
        const before = (storedAs.get(row.chunk_id) as string | undefined) ?? null;
        insert.run(row);
        return before;
      },
      deleteVersion: (versionId) => deleteVersion.run(versionId),
      deleteAll: () => db.exec('DELETE FROM pp_vectors'),
    };
  }
  const find = db.prepare(
    'SELECT r.id AS id, v.version_id AS version_id FROM pp_vector_rows r JOIN pp_vector_versions v ON v.id = r.version WHERE r.chunk_id = ?',
  );
  const versionKey = db
    .prepare('SELECT id FROM pp_vector_versions WHERE version_id = ? AND document_id = ? AND collection_id = ?')
    .pluck();
  const insertVersion = db.prepare('INSERT INTO pp_vector_versions (version_id, document_id, collection_id) VALUES (?, ?, ?)');
  const insertRow = db.prepare('INSERT INTO pp_vector_rows (chunk_id, version, page_index) VALUES (?, ?, ?)');
  const updateRow = db.prepare('UPDATE pp_vector_rows SET version = ?, page_index = ? WHERE id = ?');
  const putVector = db.prepare('INSERT OR REPLACE INTO pp_vector_data (id, vector) VALUES (?, ?)');
  const versionKeys = 'SELECT id FROM pp_vector_versions WHERE version_id = ?';
  const deleteData = db.prepare(
    `DELETE FROM pp_vector_data WHERE id IN (SELECT id FROM pp_vector_rows WHERE version IN (${versionKeys}))`,
  );
  const deleteRows = db.prepare(`DELETE FROM pp_vector_rows WHERE version IN (${versionKeys})`);
  const deleteVersions = db.prepare('DELETE FROM pp_vector_versions WHERE version_id = ?');
  /** The key of a (version, document, collection), added when new. */
  const keyOf = (version: string, document: string, collection: string): number | bigint =>
    (versionKey.get(version, document, collection) as number | undefined) ??
    insertVersion.run(version, document, collection).lastInsertRowid;
  return {
    put: (row) => {
      const version = keyOf(row.version_id, row.document_id, row.collection_id);
      const found = find.get(row.chunk_id) as { id: number; version_id: string } | undefined;
      let id: number | bigint;
      if (found) {
        id = found.id;
        updateRow.run(version, row.page_index, id);
      } else id = insertRow.run(row.chunk_id, version, row.page_index).lastInsertRowid;
      putVector.run(id, row.vector);
      return found?.version_id ?? null;
    },
    deleteVersion: (versionId) => {
      deleteData.run(versionId);
      deleteRows.run(versionId);
      deleteVersions.run(versionId);
    },
    deleteAll: () => db.exec('DELETE FROM pp_vector_data; DELETE FROM pp_vector_rows; DELETE FROM pp_vector_versions;'),
  };
}
