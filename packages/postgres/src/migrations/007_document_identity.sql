-- What each version is about and when (names, kind, period, each with where it was read from), read
-- at ingest, and an editor's correction kept with the document so that every version inherits it.
ALTER TABLE versions ADD COLUMN identity jsonb;
ALTER TABLE documents ADD COLUMN identity_correction jsonb;
