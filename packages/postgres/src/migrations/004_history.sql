-- Each user's question history (the answer as given, citations included) and their feedback on it.
-- question and answer are json, not text/jsonb: json keeps every string verbatim, U+0000 included.
CREATE TABLE question_history (
  seq bigserial PRIMARY KEY,
  history_id text NOT NULL UNIQUE,
  user_id text NOT NULL REFERENCES users (user_id) ON DELETE CASCADE,
  collection_id text,
  question json NOT NULL,
  answer json NOT NULL,
  asked_at text NOT NULL
);
CREATE INDEX question_history_by_user ON question_history (user_id, seq);

CREATE TABLE answer_feedback (
  history_id text PRIMARY KEY REFERENCES question_history (history_id) ON DELETE CASCADE,
  verdict text NOT NULL CHECK (verdict IN ('helpful', 'wrong_citation', 'should_have_refused')),
  note json,
  at text NOT NULL
);

-- Deleting a document asks which of its blobs no other artifact still refers to.
CREATE INDEX artifacts_by_blob ON artifacts (blob_key);
