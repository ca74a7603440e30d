-- Lexical index: pre-analysed terms per chunk, scored with BM25 at query time.
CREATE TABLE lex_chunks (
  chunk_id text PRIMARY KEY,
  version_id text NOT NULL,
  document_id text NOT NULL,
  collection_id text NOT NULL,
  page_index integer,
  len integer NOT NULL
);
CREATE INDEX lex_chunks_version ON lex_chunks (version_id);

CREATE TABLE lex_postings (
  term text NOT NULL,
  chunk_id text NOT NULL REFERENCES lex_chunks (chunk_id) ON DELETE CASCADE,
  tf integer NOT NULL,
  PRIMARY KEY (term, chunk_id)
);
CREATE INDEX lex_postings_chunk ON lex_postings (chunk_id);

CREATE TABLE lex_meta (key text PRIMARY KEY, value text NOT NULL);
