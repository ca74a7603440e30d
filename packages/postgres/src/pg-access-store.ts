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

const toInvitation = (r: Row): Invitation => ({
  invitation_id: String(r.invitation_id),
  collection_id: String(r.collection_id),
  email: String(r.email),
  role: r.role as Role,
  invited_by: orNull(r.invited_by),
  invited_by_email: orNull(r.invited_by_email),
  created_at: String(r.created_at),
  expires_at: String(r.expires_at),
  accepted_at: orNull(r.accepted_at),
  accepted_by: orNull(r.accepted_by),
  revoked_at: orNull(r.revoked_at),
});

const INVITATION_SELECT = `SELECT i.*, u.email AS invited_by_email FROM invitations i
  LEFT JOIN users u ON u.user_id = i.invited_by`;
/** Unused, unrevoked and unexpired at the time given as parameter `$n`. */
const pending = (n: number) => `i.accepted_at IS NULL AND i.revoked_at IS NULL AND i.expires_at > $${n}`;
/** A role's rank, so that accepting an invitation never lowers a member's role. */
const rankOf = (column: string) => `CASE ${column} WHEN 'admin' THEN 3 WHEN 'editor' THEN 2 ELSE 1 END`;

/** Inside a transaction holding the users lock: PP_CONFLICT when the email is taken. */
async function insertUser(client: pg.PoolClient, input: NewUser): Promise<User> {
  const key = input.email.toLowerCase();
  if ((await client.query('SELECT 1 FROM users WHERE email_key = $1', [key])).rowCount) {
    throw createError('PP_CONFLICT', `A user with the email ${input.email} already exists.`);
  }
  const user: User = { user_id: newId('usr'), email: input.email, admin: input.admin, created_at: now() };
  const values = [user.user_id, user.email, key, input.password_hash, user.admin, user.created_at];
  await client.query('INSERT INTO users VALUES ($1, $2, $3, $4, $5, $6)', values);
  return user;
}

const USERS_LOCK = "SELECT pg_advisory_xact_lock(hashtext('pinpoint:users'))";

/** The accepting user when their email is the invited one (created when new), else null. */
async function inviteeOf(client: pg.PoolClient, invitee: Invitee, emailKey: string): Promise<User | null> {
  if ('new_user' in invitee) {
    if (invitee.new_user.email.toLowerCase() !== emailKey) return null;
    await client.query(USERS_LOCK);
    return insertUser(client, invitee.new_user);
  }
  const found = await client.query('SELECT * FROM users WHERE user_id = $1 AND email_key = $2', [invitee.user_id, emailKey]);
  return found.rows[0] ? toUser(found.rows[0] as Row) : null;
}

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
      await client.query(USERS_LOCK);
      if (options.onlyIfNoUsers && (await client.query('SELECT 1 FROM users LIMIT 1')).rowCount) return null;
      return insertUser(client, input);
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

  async createInvitation(input: NewInvitation): Promise<Invitation> {
    return inTransaction(this.pool, async (client) => {
      const key = input.email.toLowerCase();
      const at = now();
      await client.query(
        `UPDATE invitations SET revoked_at = $1 WHERE collection_id = $2 AND email_key = $3
         AND accepted_at IS NULL AND revoked_at IS NULL`,
        [at, input.collection_id, key],
      );
      await client.query(
        `INSERT INTO invitations (invitation_id, collection_id, email, email_key, role, invited_by, token_hash,
         created_at, expires_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)`,
        [
          input.invitation_id,
          input.collection_id,
          input.email,
          key,
          input.role,
          input.invited_by,
          input.token_hash,
          at,
          input.expires_at,
        ],
      );
      const { rows } = await client.query(`${INVITATION_SELECT} WHERE i.invitation_id = $1`, [input.invitation_id]);
      return toInvitation(rows[0] as Row);
    });
  }

  async findInvitation(invitationId: string): Promise<{ invitation: Invitation; token_hash: string } | null> {
    const [row] = await this.rows(`${INVITATION_SELECT} WHERE i.invitation_id = $1`, [invitationId]);
    return row ? { invitation: toInvitation(row), token_hash: String(row.token_hash) } : null;
  }

  async listInvitations(collectionId: string, at: string): Promise<Invitation[]> {
    const rows = await this.rows(
      `${INVITATION_SELECT} WHERE i.collection_id = $1 AND ${pending(2)} ORDER BY i.created_at DESC, i.invitation_id`,
      [collectionId, at],
    );
    return rows.map(toInvitation);
  }

  async revokeInvitation(collectionId: string, invitationId: string, at: string): Promise<boolean> {
    const r = await this.pool.query(
      `UPDATE invitations i SET revoked_at = $2 WHERE i.invitation_id = $1 AND i.collection_id = $3 AND ${pending(2)}`,
      [invitationId, at, collectionId],
    );
    return (r.rowCount ?? 0) > 0;
  }

  async acceptInvitation(
    invitationId: string,
    at: string,
    invitee: Invitee,
  ): Promise<{ invitation: Invitation; user: User } | null> {
    return inTransaction(this.pool, async (client) => {
      // FOR UPDATE: a concurrent accept waits, then finds the invitation used.
      const { rows } = await client.query(`SELECT * FROM invitations i WHERE i.invitation_id = $1 AND ${pending(2)} FOR UPDATE`, [
        invitationId,
        at,
      ]);
      const row = rows[0] as Row | undefined;
      if (!row) return null;
      const user = await inviteeOf(client, invitee, String(row.email_key));
      if (!user) return null;
      await client.query('UPDATE invitations SET accepted_at = $2, accepted_by = $3 WHERE invitation_id = $1', [
        invitationId,
        at,
        user.user_id,
      ]);
      await client.query(
        `INSERT INTO memberships VALUES ($1, $2, $3, $4) ON CONFLICT (collection_id, user_id) DO UPDATE SET role = CASE
           WHEN ${rankOf('excluded.role')} > ${rankOf('memberships.role')} THEN excluded.role ELSE memberships.role END`,
        [row.collection_id, user.user_id, row.role, at],
      );
      const updated = await client.query(`${INVITATION_SELECT} WHERE i.invitation_id = $1`, [invitationId]);
      return { invitation: toInvitation(updated.rows[0] as Row), user };
    });
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
