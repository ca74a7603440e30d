-- BM25 statistics per set of collections: N and avgdl of the caller's collections read from this index alone.
CREATE INDEX lex_chunks_collection ON lex_chunks (collection_id, len);
