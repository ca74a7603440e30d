-- Catalog: collections, documents, immutable versions and their artifacts.
CREATE TABLE collections (
  collection_id text PRIMARY KEY,
  name text NOT NULL,
  created_at timestamptz NOT NULL
);

CREATE TABLE documents (
  document_id text PRIMARY KEY,
  collection_id text NOT NULL REFERENCES collections (collection_id) ON DELETE CASCADE,
  name text NOT NULL,
  created_at timestamptz NOT NULL,
  UNIQUE (collection_id, name)
);

CREATE TABLE versions (
  version_id text PRIMARY KEY,
  document_id text NOT NULL REFERENCES documents (document_id) ON DELETE CASCADE,
  collection_id text NOT NULL,
  number integer NOT NULL,
  source_sha256 text NOT NULL,
  original_name text NOT NULL,
  declared_mime text,
  sniffed_mime text,
  format text,
  size bigint NOT NULL,
  recipe jsonb NOT NULL,
  state text NOT NULL,
  error_code text,
  error_message text,
  diagnostics jsonb NOT NULL DEFAULT '[]',
  stats jsonb NOT NULL DEFAULT '{}',
  created_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL,
  UNIQUE (document_id, number)
);
-- Not unique: a reprocess (same bytes, new recipe or parser) is a new version of the same bytes.
CREATE INDEX versions_document_sha ON versions (document_id, source_sha256);
CREATE INDEX versions_collection_state ON versions (collection_id, state);
CREATE INDEX versions_state_document ON versions (state, document_id, number DESC);

CREATE TABLE artifacts (
  version_id text NOT NULL REFERENCES versions (version_id) ON DELETE CASCADE,
  kind text NOT NULL,
  name text NOT NULL,
  sha256 text NOT NULL,
  size bigint NOT NULL,
  mime text NOT NULL,
  blob_key text NOT NULL,
  PRIMARY KEY (version_id, kind, name)
);

-- Content: replaced as a whole per version. Bodies are json (not jsonb) so text is kept verbatim.
CREATE TABLE elements (
  version_id text NOT NULL,
  element_id text NOT NULL,
  ordinal integer NOT NULL,
  body json NOT NULL,
  PRIMARY KEY (version_id, element_id)
);

CREATE TABLE chunks (
  chunk_id text PRIMARY KEY,
  version_id text NOT NULL,
  ordinal integer NOT NULL,
  body json NOT NULL
);
CREATE INDEX chunks_version ON chunks (version_id, ordinal);
