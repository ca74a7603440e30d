-- Invitations into a collection: the link's secret is kept only as its sha256; an invitation is
-- accepted once, before expires_at, unless revoked. Times are ISO-8601 text in UTC, as in 003.
CREATE TABLE invitations (
  invitation_id text PRIMARY KEY,
  collection_id text NOT NULL,
  email text NOT NULL,
  email_key text NOT NULL,
  role text NOT NULL CHECK (role IN ('viewer', 'editor', 'admin')),
  invited_by text REFERENCES users (user_id) ON DELETE SET NULL,
  token_hash text NOT NULL,
  created_at text NOT NULL,
  expires_at text NOT NULL,
  accepted_at text,
  accepted_by text REFERENCES users (user_id) ON DELETE SET NULL,
  revoked_at text
);
CREATE INDEX invitations_by_collection ON invitations (collection_id, email_key);
