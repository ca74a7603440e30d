import type {
  AccessStore,
  ApiToken,
  AuditEntry,
  Feedback,
  FeedbackVerdict,
  HistoryAnswer,
  HistoryEntry,
  Membership,
  NewAuditEntry,
  NewHistoryEntry,
  NewUser,
  Role,
  User,
} from '@pinpoint/core';
import { createError, membershipSchema, newId } from '@pinpoint/core';
import type pg from 'pg';
import { inTransaction, openMigratedPool } from './migrate.js';
import type { PgMetadataStoreOptions } from './pg-metadata-store.js';

type Row = Record<string, unknown>;

const now = (): string => new Date().toISOString();
const orNull = (v: unknown): string | null => (v === null || v === undefined ? null : String(v));

const toUser = (r: Row): User => ({
  user_id: String(r.user_id),
  email: String(r.email),
  admin: r.admin === true,
  created_at: String(r.created_at),
});

const toToken = (r: Row): ApiToken => ({
  token_id: String(r.token_id),
  user_id: String(r.user_id),
  name: String(r.name),
  created_at: String(r.created_at),
  last_used_at: orNull(r.last_used_at),
  revoked_at: orNull(r.revoked_at),
});

const toAudit = (r: Row): AuditEntry => ({
  audit_id: String(r.audit_id),
  at: String(r.at),
  user_id: orNull(r.user_id),
  action: String(r.action),
  collection_id: orNull(r.collection_id),
  target: orNull(r.target),
  detail: r.detail as Record<string, unknown>,
});

const toHistory = (r: Row): HistoryEntry => ({
  history_id: String(r.history_id),
  user_id: String(r.user_id),
  collection_id: orNull(r.collection_id),
  question: String(r.question),
  answer: r.answer as HistoryAnswer,
  asked_at: String(r.asked_at),
  feedback:
    r.verdict === null || r.verdict === undefined
      ? null
      : { verdict: r.verdict as FeedbackVerdict, note: orNull(r.note), at: String(r.feedback_at) },
});

const HISTORY_SELECT = `SELECT h.*, f.verdict, f.note, f.at AS feedback_at FROM question_history h
  LEFT JOIN answer_feedback f ON f.history_id = h.history_id`;

/** AccessStore on PostgreSQL, in the metadata schema (migration 003). */
export class PgAccessStore implements AccessStore {
  private constructor(private readonly pool: pg.Pool) {}

  static async open(options: PgMetadataStoreOptions): Promise<PgAccessStore> {
    return new PgAccessStore(await openMigratedPool(options, 3));
  }

  async createUser(input: NewUser, options: { onlyIfNoUsers?: boolean } = {}): Promise<User | null> {
    return inTransaction(this.pool, async (client) => {
      await client.query("SELECT pg_advisory_xact_lock(hashtext('pinpoint:users'))");
      if (options.onlyIfNoUsers && (await client.query('SELECT 1 FROM users LIMIT 1')).rowCount) return null;
      const key = input.email.toLowerCase();
      if ((await client.query('SELECT 1 FROM users WHERE email_key = $1', [key])).rowCount) {
        throw createError('PP_CONFLICT', `A user with the email ${input.email} already exists.`);
      }
      const user: User = { user_id: newId('usr'), email: input.email, admin: input.admin, created_at: now() };
      const values = [user.user_id, user.email, key, input.password_hash, user.admin, user.created_at];
      await client.query('INSERT INTO users VALUES ($1, $2, $3, $4, $5, $6)', values);
      return user;
    });
  }

  private async rows(sql: string, params: unknown[] = []): Promise<Row[]> {
    return (await this.pool.query(sql, params)).rows as Row[];
  }

  async getUser(userId: string): Promise<User | null> {
    const [row] = await this.rows('SELECT * FROM users WHERE user_id = $1', [userId]);
    return row ? toUser(row) : null;
  }

  async findUserByEmail(email: string): Promise<{ user: User; password_hash: string } | null> {
    const [row] = await this.rows('SELECT * FROM users WHERE email_key = $1', [email.toLowerCase()]);
    return row ? { user: toUser(row), password_hash: String(row.password_hash) } : null;
  }

  async listUsers(): Promise<User[]> {
    return (await this.rows('SELECT * FROM users ORDER BY created_at, user_id')).map(toUser);
  }

  async countUsers(): Promise<number> {
    const [row] = await this.rows('SELECT count(*)::int AS n FROM users');
    return Number(row?.n ?? 0);
  }

  async deleteUser(userId: string): Promise<boolean> {
    return ((await this.pool.query('DELETE FROM users WHERE user_id = $1', [userId])).rowCount ?? 0) > 0;
  }

  async createSession(s: { session_hash: string; user_id: string; expires_at: string }): Promise<void> {
    await this.pool.query('INSERT INTO sessions VALUES ($1, $2, $3)', [s.session_hash, s.user_id, s.expires_at]);
  }

  async getSession(sessionHash: string, at: string): Promise<{ user_id: string; expires_at: string } | null> {
    const [row] = await this.rows('SELECT user_id, expires_at FROM sessions WHERE session_hash = $1 AND expires_at > $2', [
      sessionHash,
      at,
    ]);
    return row ? { user_id: String(row.user_id), expires_at: String(row.expires_at) } : null;
  }

  async deleteSession(sessionHash: string): Promise<void> {
    await this.pool.query('DELETE FROM sessions WHERE session_hash = $1', [sessionHash]);
  }

  async createToken(t: { token_id: string; user_id: string; name: string; token_hash: string }): Promise<ApiToken> {
    const [row] = await this.rows(
      'INSERT INTO api_tokens (token_id, user_id, name, token_hash, created_at) VALUES ($1, $2, $3, $4, $5) RETURNING *',
      [t.token_id, t.user_id, t.name, t.token_hash, now()],
    );
    return toToken(row as Row);
  }

  async findToken(tokenId: string): Promise<{ token: ApiToken; token_hash: string } | null> {
    const [row] = await this.rows('SELECT * FROM api_tokens WHERE token_id = $1 AND revoked_at IS NULL', [tokenId]);
    return row ? { token: toToken(row), token_hash: String(row.token_hash) } : null;
  }

  async listTokens(userId: string): Promise<ApiToken[]> {
    return (await this.rows('SELECT * FROM api_tokens WHERE user_id = $1 ORDER BY created_at, token_id', [userId])).map(toToken);
  }

  async revokeToken(tokenId: string, at: string): Promise<boolean> {
    const found = await this.rows('SELECT 1 FROM api_tokens WHERE token_id = $1', [tokenId]);
    if (found.length === 0) return false;
    await this.pool.query('UPDATE api_tokens SET revoked_at = $1 WHERE token_id = $2 AND revoked_at IS NULL', [at, tokenId]);
    return true;
  }

  async touchToken(tokenId: string, at: string): Promise<void> {
    await this.pool.query('UPDATE api_tokens SET last_used_at = $1 WHERE token_id = $2', [at, tokenId]);
  }

  async setMembership(collectionId: string, userId: string, role: Role): Promise<void> {
    if ((await this.rows('SELECT 1 FROM users WHERE user_id = $1', [userId])).length === 0) {
      throw createError('PP_NOT_FOUND', `User ${userId} does not exist.`);
    }
    await this.pool.query(
      `INSERT INTO memberships VALUES ($1, $2, $3, $4)
       ON CONFLICT (collection_id, user_id) DO UPDATE SET role = excluded.role`,
      [collectionId, userId, role, now()],
    );
  }

  async removeMembership(collectionId: string, userId: string): Promise<boolean> {
    const r = await this.pool.query('DELETE FROM memberships WHERE collection_id = $1 AND user_id = $2', [collectionId, userId]);
    return (r.rowCount ?? 0) > 0;
  }

  async listMembers(collectionId: string): Promise<Membership[]> {
    const rows = await this.rows(
      `SELECT m.collection_id, m.user_id, u.email, m.role, m.created_at FROM memberships m
       JOIN users u ON u.user_id = m.user_id WHERE m.collection_id = $1 ORDER BY u.email_key, m.user_id`,
      [collectionId],
    );
    return rows.map((r) => membershipSchema.parse(r));
  }

  async getRole(collectionId: string, userId: string): Promise<Role | null> {
    const [row] = await this.rows('SELECT role FROM memberships WHERE collection_id = $1 AND user_id = $2', [
      collectionId,
      userId,
    ]);
    return row ? (row.role as Role) : null;
  }

  async memberCollectionIds(userId: string): Promise<string[]> {
    const rows = await this.rows('SELECT collection_id FROM memberships WHERE user_id = $1 ORDER BY collection_id', [userId]);
    return rows.map((r) => String(r.collection_id));
  }

  async appendHistory(entry: NewHistoryEntry): Promise<HistoryEntry> {
    const e: HistoryEntry = { history_id: newId('his'), asked_at: now(), feedback: null, ...entry };
    await this.pool.query(
      'INSERT INTO question_history (history_id, user_id, collection_id, question, answer, asked_at) VALUES ($1, $2, $3, $4, $5, $6)',
      [e.history_id, e.user_id, e.collection_id, JSON.stringify(e.question), JSON.stringify(e.answer), e.asked_at],
    );
    return e;
  }

  async listHistory(userId: string, options: { limit?: number } = {}): Promise<HistoryEntry[]> {
    const rows = await this.rows(`${HISTORY_SELECT} WHERE h.user_id = $1 ORDER BY h.seq DESC LIMIT $2`, [
      userId,
      options.limit ?? 100,
    ]);
    return rows.map(toHistory);
  }

  async getHistory(userId: string, historyId: string): Promise<HistoryEntry | null> {
    const [row] = await this.rows(`${HISTORY_SELECT} WHERE h.user_id = $1 AND h.history_id = $2`, [userId, historyId]);
    return row ? toHistory(row) : null;
  }

  async setFeedback(userId: string, historyId: string, feedback: Omit<Feedback, 'at'>): Promise<Feedback | null> {
    const f: Feedback = { ...feedback, at: now() };
    const r = await this.pool.query(
      `INSERT INTO answer_feedback (history_id, verdict, note, at)
       SELECT history_id, $3, $4, $5 FROM question_history WHERE history_id = $1 AND user_id = $2
       ON CONFLICT (history_id) DO UPDATE SET verdict = excluded.verdict, note = excluded.note, at = excluded.at`,
      [historyId, userId, f.verdict, f.note === null ? null : JSON.stringify(f.note), f.at],
    );
    return (r.rowCount ?? 0) > 0 ? f : null;
  }

  async listFeedback(options: { limit?: number } = {}): Promise<HistoryEntry[]> {
    const rows = await this.rows(`${HISTORY_SELECT} WHERE f.verdict IS NOT NULL ORDER BY h.seq LIMIT $1`, [
      options.limit ?? 100_000,
    ]);
    return rows.map(toHistory);
  }

  async pruneHistory(before: string): Promise<number> {
    return (await this.pool.query('DELETE FROM question_history WHERE asked_at < $1', [before])).rowCount ?? 0;
  }

  async appendAudit(entry: NewAuditEntry): Promise<AuditEntry> {
    const e: AuditEntry = { audit_id: newId('aud'), at: now(), ...entry };
    await this.pool.query(
      'INSERT INTO audit_log (audit_id, at, user_id, action, collection_id, target, detail) VALUES ($1, $2, $3, $4, $5, $6, $7)',
      [e.audit_id, e.at, e.user_id, e.action, e.collection_id, e.target, JSON.stringify(e.detail)],
    );
    return e;
  }

  async listAudit(options: { limit?: number; collectionId?: string } = {}): Promise<AuditEntry[]> {
    const rows = await this.rows(
      'SELECT * FROM audit_log WHERE ($1::text IS NULL OR collection_id = $1) ORDER BY seq DESC LIMIT $2',
      [options.collectionId ?? null, options.limit ?? 100],
    );
    return rows.map(toAudit);
  }

  async close(): Promise<void> {
    await this.pool.end();
  }
}
