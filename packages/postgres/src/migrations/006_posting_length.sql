-- A posting carries its chunk's length, so BM25 is scored from the postings alone: a search reads
-- the postings of its terms (and collections) and joins the chunk table only to apply a document,
-- version or page filter, never once per posting.
ALTER TABLE lex_postings ADD COLUMN len integer;
UPDATE lex_postings p SET len = c.len FROM lex_chunks c WHERE c.chunk_id = p.chunk_id;
ALTER TABLE lex_postings ALTER COLUMN len SET NOT NULL;
DROP INDEX lex_postings_scope;
CREATE INDEX lex_postings_scope ON lex_postings (term, collection_id) INCLUDE (chunk_id, tf, len);
