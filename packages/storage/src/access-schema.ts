import type { Migration } from './database.js';

/** Users, sessions, tokens, memberships and the audit log, in the metadata database (scope `access`). */
export const accessMigrations: readonly Migration[] = [
  {
    id: 1,
    name: 'identity',
    sql: `
CREATE TABLE users (
  user_id TEXT PRIMARY KEY, email TEXT NOT NULL, email_key TEXT NOT NULL UNIQUE,
  password_hash TEXT NOT NULL, admin INTEGER NOT NULL, created_at TEXT NOT NULL);
CREATE TABLE sessions (
  session_hash TEXT PRIMARY KEY,
  user_id TEXT NOT NULL REFERENCES users(user_id) ON DELETE CASCADE,
  expires_at TEXT NOT NULL);
CREATE TABLE api_tokens (
  token_id TEXT PRIMARY KEY,
  user_id TEXT NOT NULL REFERENCES users(user_id) ON DELETE CASCADE,
  name TEXT NOT NULL, token_hash TEXT NOT NULL, created_at TEXT NOT NULL,
  last_used_at TEXT, revoked_at TEXT);
CREATE TABLE memberships (
  collection_id TEXT NOT NULL,
  user_id TEXT NOT NULL REFERENCES users(user_id) ON DELETE CASCADE,
  role TEXT NOT NULL, created_at TEXT NOT NULL,
  PRIMARY KEY (collection_id, user_id));
CREATE INDEX memberships_by_user ON memberships (user_id);
CREATE TABLE audit_log (
  seq INTEGER PRIMARY KEY AUTOINCREMENT, audit_id TEXT NOT NULL UNIQUE, at TEXT NOT NULL,
  user_id TEXT, action TEXT NOT NULL, collection_id TEXT, target TEXT, detail TEXT NOT NULL);
`,
  },
  {
    id: 2,
    name: 'history',
    sql: `
CREATE TABLE question_history (
  seq INTEGER PRIMARY KEY AUTOINCREMENT, history_id TEXT NOT NULL UNIQUE,
  user_id TEXT NOT NULL REFERENCES users(user_id) ON DELETE CASCADE,
  collection_id TEXT, question TEXT NOT NULL, answer TEXT NOT NULL, asked_at TEXT NOT NULL);
CREATE INDEX question_history_by_user ON question_history (user_id, seq);
CREATE TABLE answer_feedback (
  history_id TEXT PRIMARY KEY REFERENCES question_history(history_id) ON DELETE CASCADE,
  verdict TEXT NOT NULL, note TEXT, at TEXT NOT NULL);
`,
  },
  {
    id: 3,
    name: 'invitations',
    sql: `
CREATE TABLE invitations (
  invitation_id TEXT PRIMARY KEY, collection_id TEXT NOT NULL, email TEXT NOT NULL, email_key TEXT NOT NULL,
  role TEXT NOT NULL, invited_by TEXT REFERENCES users(user_id) ON DELETE SET NULL,
  token_hash TEXT NOT NULL, created_at TEXT NOT NULL, expires_at TEXT NOT NULL,
  accepted_at TEXT, accepted_by TEXT REFERENCES users(user_id) ON DELETE SET NULL, revoked_at TEXT);
CREATE INDEX invitations_by_collection ON invitations (collection_id, email_key);
`,
  },
];
