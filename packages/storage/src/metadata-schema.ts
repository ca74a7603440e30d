import type { Migration } from './database.js';

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
];
