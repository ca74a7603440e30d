import type { Chunk, Element } from '@pinpoint/core';
import type { Migration, SqliteDatabase } from './database.js';
import type { VersionIds } from './metadata-content.js';
import { insertContent } from './metadata-content.js';

/** Migration 3: every version's elements and chunks from the JSON rows of migration 1 into the compact tables. */
function moveContent(db: SqliteDatabase): void {
  const versions = db
    .prepare('SELECT seq, version_id, document_id, collection_id FROM versions ORDER BY seq')
    .all() as VersionIds[];
  const elements = db.prepare('SELECT body FROM elements WHERE version_id = ? ORDER BY ordinal');
  const chunks = db.prepare('SELECT body FROM chunks WHERE version_id = ? ORDER BY ordinal');
  const parsed = <T>(rows: unknown[]): T[] => rows.map((r) => JSON.parse((r as { body: string }).body) as T);
  for (const v of versions) {
    insertContent(db, v, parsed<Element>(elements.all(v.version_id)), parsed<Chunk>(chunks.all(v.version_id)));
  }
  db.exec('DROP TABLE elements; DROP TABLE chunks;');
}

export const metadataMigrations: readonly Migration[] = [
  {
    id: 1,
    name: 'initial',
    sql: `
CREATE TABLE collections (
  collection_id TEXT PRIMARY KEY, name TEXT NOT NULL, created_at TEXT NOT NULL);
CREATE TABLE documents (
  document_id TEXT PRIMARY KEY,
  collection_id TEXT NOT NULL REFERENCES collections(collection_id),
  name TEXT NOT NULL, created_at TEXT NOT NULL,
  UNIQUE (collection_id, name));
CREATE TABLE versions (
  version_id TEXT PRIMARY KEY,
  document_id TEXT NOT NULL REFERENCES documents(document_id),
  collection_id TEXT NOT NULL,
  number INTEGER NOT NULL,
  source_sha256 TEXT NOT NULL,
  original_name TEXT NOT NULL,
  declared_mime TEXT, sniffed_mime TEXT, format TEXT,
  size INTEGER NOT NULL,
  recipe TEXT NOT NULL,
  state TEXT NOT NULL,
  error_code TEXT, error_message TEXT,
  diagnostics TEXT NOT NULL DEFAULT '[]',
  stats TEXT NOT NULL DEFAULT '{}',
  created_at TEXT NOT NULL, updated_at TEXT NOT NULL,
  UNIQUE (document_id, number));
CREATE INDEX versions_by_sha ON versions (document_id, source_sha256);
CREATE INDEX versions_by_collection ON versions (collection_id, state);
CREATE TABLE artifacts (
  version_id TEXT NOT NULL REFERENCES versions(version_id),
  kind TEXT NOT NULL, name TEXT NOT NULL,
  sha256 TEXT NOT NULL, size INTEGER NOT NULL, mime TEXT NOT NULL, blob_key TEXT NOT NULL,
  PRIMARY KEY (version_id, kind, name));
CREATE TABLE elements (
  version_id TEXT NOT NULL REFERENCES versions(version_id),
  element_id TEXT NOT NULL, ordinal INTEGER NOT NULL, body TEXT NOT NULL,
  PRIMARY KEY (version_id, element_id));
CREATE TABLE chunks (
  chunk_id TEXT PRIMARY KEY,
  version_id TEXT NOT NULL REFERENCES versions(version_id),
  ordinal INTEGER NOT NULL, body TEXT NOT NULL);
CREATE INDEX chunks_by_version ON chunks (version_id, ordinal);
`,
  },
  {
    id: 2,
    name: 'artifacts-by-blob',
    // Deleting a document asks which of its blobs no other artifact still refers to.
    sql: 'CREATE INDEX artifacts_by_blob ON artifacts (blob_key);',
  },
  {
    id: 3,
    name: 'compact-content',
    // Elements and chunks keyed by (version seq, position): rows and index entries append in the
    // order versions are created, instead of landing at random places of indexes on text ids; and
    // nothing derivable stored twice (metadata-content.ts). ~5.4 kB per chunk before, see README.
    sql: `
ALTER TABLE versions ADD COLUMN seq INTEGER;
UPDATE versions SET seq = rowid;
CREATE UNIQUE INDEX versions_by_seq ON versions (seq);
CREATE TABLE version_elements (
  id INTEGER PRIMARY KEY, element_id TEXT, meta TEXT NOT NULL, text TEXT NOT NULL);
CREATE INDEX version_elements_by_id ON version_elements (element_id) WHERE element_id IS NOT NULL;
CREATE TABLE version_chunks (
  id INTEGER PRIMARY KEY, chunk_id TEXT, meta TEXT NOT NULL,
  text TEXT, retrieval_prefix TEXT, retrieval_text TEXT);
CREATE UNIQUE INDEX version_chunks_by_id ON version_chunks (chunk_id) WHERE chunk_id IS NOT NULL;
`,
    up: moveContent,
  },
  {
    id: 4,
    name: 'document-identity',
    // What each version is about and when (read at ingest), and an editor's correction that every
    // version of the document inherits (DESIGN.md §3 "Identity"). JSON, read with the version.
    sql: `
ALTER TABLE versions ADD COLUMN identity TEXT;
ALTER TABLE documents ADD COLUMN identity_correction TEXT;
`,
  },
];
