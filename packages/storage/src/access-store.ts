import type {
  AccessStore,
  ApiToken,
  AuditEntry,
  Feedback,
  FeedbackVerdict,
  HistoryAnswer,
  HistoryEntry,
  Invitation,
  Invitee,
  Membership,
  NewAuditEntry,
  NewHistoryEntry,
  NewInvitation,
  NewUser,
  Role,
  User,
} from '@pinpoint/core';
import { createError, membershipSchema, newId } from '@pinpoint/core';
import { accessMigrations } from './access-schema.js';
import type { SqliteDatabase } from './database.js';
import { migrate, openDatabase } from './database.js';

type Row = Record<string, unknown>;

const now = (): string => new Date().toISOString();

const userFromRow = (r: Row): User => ({
  user_id: String(r.user_id),
  email: String(r.email),
  admin: Number(r.admin) === 1,
  created_at: String(r.created_at),
});

const tokenFromRow = (r: Row): ApiToken => ({
  token_id: String(r.token_id),
  user_id: String(r.user_id),
  name: String(r.name),
  created_at: String(r.created_at),
  last_used_at: (r.last_used_at as string | null) ?? null,
  revoked_at: (r.revoked_at as string | null) ?? null,
});

const auditFromRow = (r: Row): AuditEntry => ({
  audit_id: String(r.audit_id),
  at: String(r.at),
  user_id: (r.user_id as string | null) ?? null,
  action: String(r.action),
  collection_id: (r.collection_id as string | null) ?? null,
  target: (r.target as string | null) ?? null,
  detail: JSON.parse(String(r.detail)) as Record<string, unknown>,
});

const historyFromRow = (r: Row): HistoryEntry => ({
  history_id: String(r.history_id),
  user_id: String(r.user_id),
  collection_id: (r.collection_id as string | null) ?? null,
  question: String(r.question),
  answer: JSON.parse(String(r.answer)) as HistoryAnswer,
  asked_at: String(r.asked_at),
  feedback:
    r.verdict === null || r.verdict === undefined
      ? null
      : { verdict: r.verdict as FeedbackVerdict, note: (r.note as string | null) ?? null, at: String(r.feedback_at) },
});

const invitationFromRow = (r: Row): Invitation => ({
  invitation_id: String(r.invitation_id),
  collection_id: String(r.collection_id),
  email: String(r.email),
  role: r.role as Role,
  invited_by: (r.invited_by as string | null) ?? null,
  invited_by_email: (r.invited_by_email as string | null) ?? null,
  created_at: String(r.created_at),
  expires_at: String(r.expires_at),
  accepted_at: (r.accepted_at as string | null) ?? null,
  accepted_by: (r.accepted_by as string | null) ?? null,
  revoked_at: (r.revoked_at as string | null) ?? null,
});

const INVITATION_SELECT = `SELECT i.*, u.email AS invited_by_email FROM invitations i
  LEFT JOIN users u ON u.user_id = i.invited_by`;
/** Unused, unrevoked and unexpired at the time given as the next parameter. */
const PENDING = 'i.accepted_at IS NULL AND i.revoked_at IS NULL AND i.expires_at > ?';
/** A role's rank, so that accepting an invitation never lowers a member's role. */
const rankOf = (column: string) => `CASE ${column} WHEN 'admin' THEN 3 WHEN 'editor' THEN 2 ELSE 1 END`;

const HISTORY_SELECT = `SELECT h.*, f.verdict, f.note, f.at AS feedback_at FROM question_history h
  LEFT JOIN answer_feedback f ON f.history_id = h.history_id`;

/** The AccessStore port on the SQLite metadata file (its own migration scope). */
export class SqliteAccessStore implements AccessStore {
  readonly #db: SqliteDatabase;

  constructor(path: string) {
    this.#db = openDatabase(path);
    migrate(this.#db, 'access', accessMigrations);
  }

  async createUser(input: NewUser, options: { onlyIfNoUsers?: boolean } = {}): Promise<User | null> {
    return this.#db
      .transaction(() => {
        if (options.onlyIfNoUsers && this.#db.prepare('SELECT 1 FROM users LIMIT 1').get()) return null;
        return this.#insertUser(input);
      })
      .immediate();
  }

  /** Inside a transaction: PP_CONFLICT when the email is taken. */
  #insertUser(input: NewUser): User {
    const key = input.email.toLowerCase();
    if (this.#db.prepare('SELECT 1 FROM users WHERE email_key = ?').get(key))
      throw createError('PP_CONFLICT', `A user with the email ${input.email} already exists.`);
    const user: User = { user_id: newId('usr'), email: input.email, admin: input.admin, created_at: now() };
    this.#db
      .prepare('INSERT INTO users (user_id, email, email_key, password_hash, admin, created_at) VALUES (?, ?, ?, ?, ?, ?)')
      .run(user.user_id, user.email, key, input.password_hash, user.admin ? 1 : 0, user.created_at);
    return user;
  }

  async getUser(userId: string): Promise<User | null> {
    const row = this.#db.prepare('SELECT * FROM users WHERE user_id = ?').get(userId) as Row | undefined;
    return row ? userFromRow(row) : null;
  }

  async findUserByEmail(email: string): Promise<{ user: User; password_hash: string } | null> {
    const row = this.#db.prepare('SELECT * FROM users WHERE email_key = ?').get(email.toLowerCase()) as Row | undefined;
    return row ? { user: userFromRow(row), password_hash: String(row.password_hash) } : null;
  }

  async listUsers(): Promise<User[]> {
    return (this.#db.prepare('SELECT * FROM users ORDER BY created_at, user_id').all() as Row[]).map(userFromRow);
  }

  async countUsers(): Promise<number> {
    return Number((this.#db.prepare('SELECT count(*) AS n FROM users').get() as Row).n);
  }

  async deleteUser(userId: string): Promise<boolean> {
    return this.#db.prepare('DELETE FROM users WHERE user_id = ?').run(userId).changes > 0;
  }

  async createSession(s: { session_hash: string; user_id: string; expires_at: string }): Promise<void> {
    this.#db
      .prepare('INSERT INTO sessions (session_hash, user_id, expires_at) VALUES (?, ?, ?)')
      .run(s.session_hash, s.user_id, s.expires_at);
  }

  async getSession(sessionHash: string, at: string): Promise<{ user_id: string; expires_at: string } | null> {
    const row = this.#db
      .prepare('SELECT user_id, expires_at FROM sessions WHERE session_hash = ? AND expires_at > ?')
      .get(sessionHash, at) as Row | undefined;
    return row ? { user_id: String(row.user_id), expires_at: String(row.expires_at) } : null;
  }

  async deleteSession(sessionHash: string): Promise<void> {
    this.#db.prepare('DELETE FROM sessions WHERE session_hash = ?').run(sessionHash);
  }

  async createToken(t: { token_id: string; user_id: string; name: string; token_hash: string }): Promise<ApiToken> {
    const created_at = now();
    this.#db
      .prepare('INSERT INTO api_tokens (token_id, user_id, name, token_hash, created_at) VALUES (?, ?, ?, ?, ?)')
      .run(t.token_id, t.user_id, t.name, t.token_hash, created_at);
    return { token_id: t.token_id, user_id: t.user_id, name: t.name, created_at, last_used_at: null, revoked_at: null };
  }

  async findToken(tokenId: string): Promise<{ token: ApiToken; token_hash: string } | null> {
    const row = this.#db.prepare('SELECT * FROM api_tokens WHERE token_id = ? AND revoked_at IS NULL').get(tokenId) as
      | Row
      | undefined;
    return row ? { token: tokenFromRow(row), token_hash: String(row.token_hash) } : null;
  }

  async listTokens(userId: string): Promise<ApiToken[]> {
    const rows = this.#db.prepare('SELECT * FROM api_tokens WHERE user_id = ? ORDER BY created_at, token_id').all(userId);
    return (rows as Row[]).map(tokenFromRow);
  }

  async revokeToken(tokenId: string, at: string): Promise<boolean> {
    if (!this.#db.prepare('SELECT 1 FROM api_tokens WHERE token_id = ?').get(tokenId)) return false;
    this.#db.prepare('UPDATE api_tokens SET revoked_at = ? WHERE token_id = ? AND revoked_at IS NULL').run(at, tokenId);
    return true;
  }

  async touchToken(tokenId: string, at: string): Promise<void> {
    this.#db.prepare('UPDATE api_tokens SET last_used_at = ? WHERE token_id = ?').run(at, tokenId);
  }

  async setMembership(collectionId: string, userId: string, role: Role): Promise<void> {
    if (!this.#db.prepare('SELECT 1 FROM users WHERE user_id = ?').get(userId))
      throw createError('PP_NOT_FOUND', `User ${userId} does not exist.`);
    this.#db
      .prepare(
        `INSERT INTO memberships (collection_id, user_id, role, created_at) VALUES (?, ?, ?, ?)
         ON CONFLICT (collection_id, user_id) DO UPDATE SET role = excluded.role`,
      )
      .run(collectionId, userId, role, now());
  }

  async removeMembership(collectionId: string, userId: string): Promise<boolean> {
    return (
      this.#db.prepare('DELETE FROM memberships WHERE collection_id = ? AND user_id = ?').run(collectionId, userId).changes > 0
    );
  }

  async listMembers(collectionId: string): Promise<Membership[]> {
    const rows = this.#db
      .prepare(
        `SELECT m.collection_id, m.user_id, u.email, m.role, m.created_at FROM memberships m
         JOIN users u ON u.user_id = m.user_id WHERE m.collection_id = ? ORDER BY u.email_key, m.user_id`,
      )
      .all(collectionId) as Row[];
    return rows.map((r) => membershipSchema.parse(r));
  }

  async getRole(collectionId: string, userId: string): Promise<Role | null> {
    const row = this.#db
      .prepare('SELECT role FROM memberships WHERE collection_id = ? AND user_id = ?')
      .get(collectionId, userId) as Row | undefined;
    return row ? (row.role as Role) : null;
  }

  async memberCollectionIds(userId: string): Promise<string[]> {
    const rows = this.#db.prepare('SELECT collection_id FROM memberships WHERE user_id = ? ORDER BY collection_id').all(userId);
    return (rows as Row[]).map((r) => String(r.collection_id));
  }

  async createInvitation(input: NewInvitation): Promise<Invitation> {
    return this.#db
      .transaction(() => {
        const key = input.email.toLowerCase();
        const at = now();
        this.#db
          .prepare(
            `UPDATE invitations SET revoked_at = ? WHERE collection_id = ? AND email_key = ?
             AND accepted_at IS NULL AND revoked_at IS NULL`,
          )
          .run(at, input.collection_id, key);
        this.#db
          .prepare(
            `INSERT INTO invitations (invitation_id, collection_id, email, email_key, role, invited_by, token_hash,
             created_at, expires_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
          )
          .run(
            input.invitation_id,
            input.collection_id,
            input.email,
            key,
            input.role,
            input.invited_by,
            input.token_hash,
            at,
            input.expires_at,
          );
        return this.#invitation(input.invitation_id) as Invitation;
      })
      .immediate();
  }

  #invitation(invitationId: string): Invitation | null {
    const row = this.#db.prepare(`${INVITATION_SELECT} WHERE i.invitation_id = ?`).get(invitationId) as Row | undefined;
    return row ? invitationFromRow(row) : null;
  }

  async findInvitation(invitationId: string): Promise<{ invitation: Invitation; token_hash: string } | null> {
    const row = this.#db.prepare(`${INVITATION_SELECT} WHERE i.invitation_id = ?`).get(invitationId) as Row | undefined;
    return row ? { invitation: invitationFromRow(row), token_hash: String(row.token_hash) } : null;
  }

  async listInvitations(collectionId: string, at: string): Promise<Invitation[]> {
    const rows = this.#db
      .prepare(`${INVITATION_SELECT} WHERE i.collection_id = ? AND ${PENDING} ORDER BY i.created_at DESC, i.invitation_id`)
      .all(collectionId, at) as Row[];
    return rows.map(invitationFromRow);
  }

  async revokeInvitation(collectionId: string, invitationId: string, at: string): Promise<boolean> {
    const sql = `UPDATE invitations AS i SET revoked_at = ? WHERE i.invitation_id = ? AND i.collection_id = ? AND ${PENDING}`;
    return this.#db.prepare(sql).run(at, invitationId, collectionId, at).changes > 0;
  }

  async acceptInvitation(
    invitationId: string,
    at: string,
    invitee: Invitee,
  ): Promise<{ invitation: Invitation; user: User } | null> {
    return this.#db
      .transaction(() => {
        const row = this.#db
          .prepare(`SELECT * FROM invitations i WHERE i.invitation_id = ? AND ${PENDING}`)
          .get(invitationId, at) as Row | undefined;
        if (!row) return null;
        const user = this.#invitee(invitee, String(row.email_key));
        if (!user) return null;
        this.#db
          .prepare('UPDATE invitations SET accepted_at = ?, accepted_by = ? WHERE invitation_id = ?')
          .run(at, user.user_id, invitationId);
        this.#db
          .prepare(
            `INSERT INTO memberships (collection_id, user_id, role, created_at) VALUES (?, ?, ?, ?)
             ON CONFLICT (collection_id, user_id) DO UPDATE SET role = CASE
               WHEN ${rankOf('excluded.role')} > ${rankOf('memberships.role')} THEN excluded.role ELSE memberships.role END`,
          )
          .run(row.collection_id, user.user_id, row.role, at);
        return { invitation: this.#invitation(invitationId) as Invitation, user };
      })
      .immediate();
  }

  /** The accepting user when their email is the invited one (created when new), else null. */
  #invitee(invitee: Invitee, emailKey: string): User | null {
    if ('new_user' in invitee)
      return invitee.new_user.email.toLowerCase() === emailKey ? this.#insertUser(invitee.new_user) : null;
    const row = this.#db.prepare('SELECT * FROM users WHERE user_id = ? AND email_key = ?').get(invitee.user_id, emailKey) as
      | Row
      | undefined;
    return row ? userFromRow(row) : null;
  }

  async appendHistory(entry: NewHistoryEntry): Promise<HistoryEntry> {
    const e: HistoryEntry = { history_id: newId('his'), asked_at: now(), feedback: null, ...entry };
    this.#db
      .prepare(
        'INSERT INTO question_history (history_id, user_id, collection_id, question, answer, asked_at) VALUES (?, ?, ?, ?, ?, ?)',
      )
      .run(e.history_id, e.user_id, e.collection_id, e.question, JSON.stringify(e.answer), e.asked_at);
    return e;
  }

  async listHistory(userId: string, options: { limit?: number } = {}): Promise<HistoryEntry[]> {
    const rows = this.#db
      .prepare(`${HISTORY_SELECT} WHERE h.user_id = ? ORDER BY h.seq DESC LIMIT ?`)
      .all(userId, options.limit ?? 100) as Row[];
    return rows.map(historyFromRow);
  }

  async getHistory(userId: string, historyId: string): Promise<HistoryEntry | null> {
    const row = this.#db.prepare(`${HISTORY_SELECT} WHERE h.user_id = ? AND h.history_id = ?`).get(userId, historyId) as
      | Row
      | undefined;
    return row ? historyFromRow(row) : null;
  }

  async setFeedback(userId: string, historyId: string, feedback: Omit<Feedback, 'at'>): Promise<Feedback | null> {
    const f: Feedback = { ...feedback, at: now() };
    return this.#db
      .transaction(() => {
        if (!this.#db.prepare('SELECT 1 FROM question_history WHERE history_id = ? AND user_id = ?').get(historyId, userId))
          return null;
        this.#db
          .prepare(
            `INSERT INTO answer_feedback (history_id, verdict, note, at) VALUES (?, ?, ?, ?)
             ON CONFLICT (history_id) DO UPDATE SET verdict = excluded.verdict, note = excluded.note, at = excluded.at`,
          )
          .run(historyId, f.verdict, f.note, f.at);
        return f;
      })
      .immediate();
  }

  async listFeedback(options: { limit?: number } = {}): Promise<HistoryEntry[]> {
    const rows = this.#db
      .prepare(`${HISTORY_SELECT} WHERE f.verdict IS NOT NULL ORDER BY h.seq LIMIT ?`)
      .all(options.limit ?? 100_000) as Row[];
    return rows.map(historyFromRow);
  }

  async pruneHistory(before: string): Promise<number> {
    return this.#db.prepare('DELETE FROM question_history WHERE asked_at < ?').run(before).changes;
  }

  async appendAudit(entry: NewAuditEntry): Promise<AuditEntry> {
    const e: AuditEntry = { audit_id: newId('aud'), at: now(), ...entry };
    this.#db
      .prepare(
        'INSERT INTO audit_log (audit_id, at, user_id, action, collection_id, target, detail) VALUES (?, ?, ?, ?, ?, ?, ?)',
      )
      .run(e.audit_id, e.at, e.user_id, e.action, e.collection_id, e.target, JSON.stringify(e.detail));
    return e;
  }

  async listAudit(options: { limit?: number; collectionId?: string } = {}): Promise<AuditEntry[]> {
    const rows = this.#db
      .prepare('SELECT * FROM audit_log WHERE (? IS NULL OR collection_id = ?) ORDER BY seq DESC LIMIT ?')
      .all(options.collectionId ?? null, options.collectionId ?? null, options.limit ?? 100) as Row[];
    return rows.map(auditFromRow);
  }

  async close(): Promise<void> {
    this.#db.close();
  }
}
