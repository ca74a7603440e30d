import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { AccessStore, ApiToken, Principal, User } from '@pinpoint/core';
import { createError } from '@pinpoint/core';
import { decoyPasswordHash, hashPassword, verifyPassword } from './passwords.js';

const sha256 = (s: string): string => createHash('sha256').update(s).digest('hex');
const secret = (): string => randomBytes(32).toString('base64url');
const TOKEN_RE = /^pp_(tok_[0-9a-f]{20})_([A-Za-z0-9_-]{43})$/;

export const principalOf = (user: User): Principal => ({
  kind: 'user',
  user_id: user.user_id,
  email: user.email,
  admin: user.admin,
});

export interface Session {
  /** The cookie value: shown to the browser only. */
  token: string;
  /** The CSRF token that state-changing requests of this session send in `x-csrf-token`. */
  csrf: string;
  expires_at: string;
  user: User;
}

export interface Identity {
  readonly store: AccessStore;
  addUser(email: string, password: string, options?: { admin?: boolean }): Promise<User>;
  /** The first instance admin of a fresh instance; PP_CONFLICT once any user exists. */
  setupFirstAdmin(email: string, password: string): Promise<User>;
  needsSetup(): Promise<boolean>;
  removeUser(email: string): Promise<User>;
  /** A new session (the login rotates it: the previous one, if given, is dropped). PP_UNAUTHORIZED when wrong. */
  login(email: string, password: string, previousSessionToken?: string): Promise<Session>;
  /** The user of that email and password; PP_UNAUTHORIZED (one message, same time) when either is wrong. */
  checkPassword(email: string, password: string): Promise<User>;
  /** A new session of a user already proven (login, an accepted invitation); the previous one, if given, is dropped. */
  openSession(user: User, previousSessionToken?: string): Promise<Session>;
  logout(sessionToken: string): Promise<void>;
  /** The principal of a session cookie, or null. */
  authenticateSession(sessionToken: string): Promise<{ principal: Principal; csrf: string } | null>;
  /** The principal of `Authorization: Bearer pp_…`, or null (unknown, revoked, or its user gone). */
  authenticateToken(bearer: string): Promise<Principal | null>;
  /** A personal API token: the secret is returned once and stored only as a hash. */
  createToken(userId: string, name: string): Promise<{ token: string; info: ApiToken }>;
  listTokens(userId: string): Promise<ApiToken[]>;
  /** Revokes a token; with `ownerId`, only the owner's (404 otherwise). */
  revokeToken(tokenId: string, ownerId?: string): Promise<void>;
}

const EMAIL_RE = /^[^\s@]{1,64}@[^\s@]{1,255}$/;

/** The email trimmed; PP_VALIDATION when it is not one. */
export function checkEmail(email: string): string {
  const e = email.trim();
  if (!EMAIL_RE.test(e)) throw createError('PP_VALIDATION', `"${email}" is not an email address.`);
  return e;
}

/** Users, sessions and tokens over an AccessStore: the one place secrets are hashed and compared. */
export function createIdentity(store: AccessStore, options: { sessionTtlSeconds?: number } = {}): Identity {
  const ttl = options.sessionTtlSeconds ?? 7 * 24 * 3600;
  let decoy: Promise<string> | undefined;
  const csrfOf = (sessionToken: string): string => sha256(`csrf\u0000${sessionToken}`);
  const identity: Identity = {
    store,
    addUser: async (email, password, o = {}) =>
      (await store.createUser({
        email: checkEmail(email),
        password_hash: await hashPassword(password),
        admin: o.admin ?? false,
      })) as User,
    setupFirstAdmin: async (email, password) => {
      const user = await store.createUser(
        { email: checkEmail(email), password_hash: await hashPassword(password), admin: true },
        { onlyIfNoUsers: true },
      );
      if (!user) throw createError('PP_CONFLICT', 'This instance is already set up; sign in instead.');
      return user;
    },
    needsSetup: async () => (await store.countUsers()) === 0,
    removeUser: async (email) => {
      const found = await store.findUserByEmail(email);
      if (!found) throw createError('PP_NOT_FOUND', `No user ${email}.`);
      await store.deleteUser(found.user.user_id);
      return found.user;
    },
    checkPassword: async (email, password) => {
      const found = await store.findUserByEmail(email.trim());
      decoy ??= decoyPasswordHash();
      const ok = await verifyPassword(password, found?.password_hash ?? (await decoy));
      if (!found || !ok) throw createError('PP_UNAUTHORIZED', 'The email or password is wrong.');
      return found.user;
    },
    openSession: async (user, previous) => {
      if (previous) await store.deleteSession(sha256(previous));
      const token = secret();
      const expires_at = new Date(Date.now() + ttl * 1000).toISOString();
      await store.createSession({ session_hash: sha256(token), user_id: user.user_id, expires_at });
      return { token, csrf: csrfOf(token), expires_at, user };
    },
    login: async (email, password, previous) => identity.openSession(await identity.checkPassword(email, password), previous),
    logout: (token) => store.deleteSession(sha256(token)),
    authenticateSession: async (token) => {
      const session = await store.getSession(sha256(token), new Date().toISOString());
      const user = session && (await store.getUser(session.user_id));
      return user ? { principal: principalOf(user), csrf: csrfOf(token) } : null;
    },
    authenticateToken: async (bearer) => {
      const m = TOKEN_RE.exec(bearer);
      if (!m?.[1] || !m[2]) return null;
      const found = await store.findToken(m[1]);
      if (!found) return null;
      const given = Buffer.from(sha256(m[2]), 'hex');
      const expected = Buffer.from(found.token_hash, 'hex');
      if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null;
      const user = await store.getUser(found.token.user_id);
      if (!user) return null;
      await store.touchToken(found.token.token_id, new Date().toISOString());
      return principalOf(user);
    },
    createToken: async (userId, name) => {
      if (!(await store.getUser(userId))) throw createError('PP_NOT_FOUND', `User ${userId} does not exist.`);
      const tokenId = `tok_${randomBytes(10).toString('hex')}`;
      const s = secret();
      const info = await store.createToken({
        token_id: tokenId,
        user_id: userId,
        name: name.trim() || 'token',
        token_hash: sha256(s),
      });
      return { token: `pp_${tokenId}_${s}`, info };
    },
    listTokens: (userId) => store.listTokens(userId),
    revokeToken: async (tokenId, ownerId) => {
      const owned = ownerId === undefined || (await store.listTokens(ownerId)).some((t) => t.token_id === tokenId);
      if (!owned || !(await store.revokeToken(tokenId, new Date().toISOString())))
        throw createError('PP_NOT_FOUND', `Token ${tokenId} does not exist.`);
    },
  };
  return identity;
}
