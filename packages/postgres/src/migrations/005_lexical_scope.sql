-- BM25 per set of collections: each posting carries its chunk's collection, so a query reads only
-- the postings (and N, avgdl) of the collections it may see, and nothing of the others.
ALTER TABLE lex_postings ADD COLUMN collection_id text;
UPDATE lex_postings p SET collection_id = c.collection_id FROM lex_chunks c WHERE c.chunk_id = p.chunk_id;
ALTER TABLE lex_postings ALTER COLUMN collection_id SET NOT NULL;
CREATE INDEX lex_postings_scope ON lex_postings (term, collection_id) INCLUDE (chunk_id, tf);
CREATE INDEX lex_chunks_collection ON lex_chunks (collection_id, len);
