import Database from 'better-sqlite3';

/**
 * A vectors.db as releases before the split made it: ids and vector in one `pp_vectors` table, the
 * embedding space claimed as `space` (an open for that space keeps its rows), no write counted yet.
 */
export function singleTableFile(path: string, space: string): void {
  const db = new Database(path);
  db.exec(`CREATE TABLE pp_vectors (
    chunk_id TEXT PRIMARY KEY, version_id TEXT NOT NULL, document_id TEXT NOT NULL,
    collection_id TEXT NOT NULL, page_index INTEGER, vector BLOB NOT NULL);
    CREATE INDEX pp_vectors_version ON pp_vectors(version_id);
    CREATE TABLE pp_vectors_space (id INTEGER PRIMARY KEY CHECK (id = 1), space TEXT NOT NULL);
    CREATE TABLE pp_vectors_generation (id INTEGER PRIMARY KEY CHECK (id = 1), n INTEGER NOT NULL);
    INSERT INTO pp_vectors_generation (id, n) VALUES (1, 0);`);
  db.prepare('INSERT INTO pp_vectors_space (id, space) VALUES (1, ?)').run(space);
  db.close();
}
