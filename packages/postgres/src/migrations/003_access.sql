-- Identity and access: users, sessions, API tokens, collection memberships, the audit log.
-- Times are ISO-8601 text in UTC, compared as text, as the SQLite adapter does.
CREATE TABLE users (
  user_id text PRIMARY KEY,
  email text NOT NULL,
  email_key text NOT NULL UNIQUE,
  password_hash text NOT NULL,
  admin boolean NOT NULL,
  created_at text NOT NULL
);

CREATE TABLE sessions (
  session_hash text PRIMARY KEY,
  user_id text NOT NULL REFERENCES users (user_id) ON DELETE CASCADE,
  expires_at text NOT NULL
);

CREATE TABLE api_tokens (
  token_id text PRIMARY KEY,
  user_id text NOT NULL REFERENCES users (user_id) ON DELETE CASCADE,
  name text NOT NULL,
  token_hash text NOT NULL,
  created_at text NOT NULL,
  last_used_at text,
  revoked_at text
);

CREATE TABLE memberships (
  collection_id text NOT NULL,
  user_id text NOT NULL REFERENCES users (user_id) ON DELETE CASCADE,
  role text NOT NULL CHECK (role IN ('viewer', 'editor', 'admin')),
  created_at text NOT NULL,
  PRIMARY KEY (collection_id, user_id)
);
CREATE INDEX memberships_by_user ON memberships (user_id);

CREATE TABLE audit_log (
  seq bigserial PRIMARY KEY,
  audit_id text NOT NULL UNIQUE,
  at text NOT NULL,
  user_id text,
  action text NOT NULL,
  collection_id text,
  target text,
  detail jsonb NOT NULL
);
