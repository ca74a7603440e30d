import type { z } from 'zod';
import type { FeedbackVerdict, HistoryAnswer, membershipSchema } from './contract.js';

/**
 * Identity and access (DESIGN.md §8): users, per-collection roles, sessions, API tokens and the
 * audit log. The AccessStore port lives beside the MetadataStore, in the same database.
 */

export type Role = 'viewer' | 'editor' | 'admin';

/** viewer: search, ask, read, download; editor: + upload, reprocess; admin: + members. */
export const ROLE_RANK: Readonly<Record<Role, number>> = { viewer: 1, editor: 2, admin: 3 };

export interface User {
  user_id: string;
  email: string;
  /** An instance admin reads every collection and alone sees the job console of all of them. */
  admin: boolean;
  created_at: string;
}

/**
 * Who is asking. `local` is the single user of PINPOINT_AUTH=off on a loopback address: every
 * collection, no membership. Everything the engine answers is scoped by the principal.
 */
export type Principal = { kind: 'user'; user_id: string; email: string; admin: boolean } | { kind: 'local' };

export const LOCAL_PRINCIPAL: Principal = Object.freeze({ kind: 'local' });

export type Membership = z.infer<typeof membershipSchema>;

export interface ApiToken {
  token_id: string;
  user_id: string;
  name: string;
  created_at: string;
  last_used_at: string | null;
  revoked_at: string | null;
}

export interface AuditEntry {
  audit_id: string;
  at: string;
  user_id: string | null;
  action: string;
  collection_id: string | null;
  target: string | null;
  detail: Record<string, unknown>;
}

export type NewAuditEntry = Omit<AuditEntry, 'audit_id' | 'at'>;

export interface NewUser {
  email: string;
  password_hash: string;
  admin: boolean;
}

/**
 * An invitation of an email into one collection with a role. Its link's secret is stored only as a
 * sha256; it can be accepted once, until `expires_at`, unless revoked.
 */
export interface Invitation {
  invitation_id: string;
  collection_id: string;
  email: string;
  role: Role;
  /** The inviter; null when invited from the server's command line, or the inviter was removed. */
  invited_by: string | null;
  invited_by_email: string | null;
  created_at: string;
  expires_at: string;
  accepted_at: string | null;
  accepted_by: string | null;
  revoked_at: string | null;
}

export interface NewInvitation {
  invitation_id: string;
  collection_id: string;
  email: string;
  role: Role;
  invited_by: string | null;
  token_hash: string;
  expires_at: string;
}

/** Who accepts an invitation: an existing user (whose email must be the invited one), or a new user with that email. */
export type Invitee = { user_id: string } | { new_user: NewUser };

export interface Feedback {
  verdict: FeedbackVerdict;
  note: string | null;
  at: string;
}

/** One question a user asked, with the answer as it was given (citations included), and their feedback on it. */
export interface HistoryEntry {
  history_id: string;
  user_id: string;
  /** The collection asked in; null when the question searched every readable collection. */
  collection_id: string | null;
  question: string;
  answer: HistoryAnswer;
  asked_at: string;
  feedback: Feedback | null;
}

export type NewHistoryEntry = Pick<HistoryEntry, 'user_id' | 'collection_id' | 'question' | 'answer'>;

export interface AccessStore {
  /** PP_CONFLICT when the email is taken. With onlyIfNoUsers, null when any user exists (atomic). */
  createUser(input: NewUser, options?: { onlyIfNoUsers?: boolean }): Promise<User | null>;
  getUser(userId: string): Promise<User | null>;
  /** Emails compare case-insensitively. */
  findUserByEmail(email: string): Promise<{ user: User; password_hash: string } | null>;
  listUsers(): Promise<User[]>;
  countUsers(): Promise<number>;
  /** Removes the user with their sessions, tokens, memberships, history and feedback. */
  deleteUser(userId: string): Promise<boolean>;

  createSession(session: { session_hash: string; user_id: string; expires_at: string }): Promise<void>;
  /** The user of an unexpired session. */
  getSession(sessionHash: string, now: string): Promise<{ user_id: string; expires_at: string } | null>;
  deleteSession(sessionHash: string): Promise<void>;

  createToken(token: { token_id: string; user_id: string; name: string; token_hash: string }): Promise<ApiToken>;
  /** An unrevoked token with its stored hash (the caller compares in constant time). */
  findToken(tokenId: string): Promise<{ token: ApiToken; token_hash: string } | null>;
  listTokens(userId: string): Promise<ApiToken[]>;
  /** Revoking twice is a no-op; false when no such token. */
  revokeToken(tokenId: string, now: string): Promise<boolean>;
  touchToken(tokenId: string, now: string): Promise<void>;

  setMembership(collectionId: string, userId: string, role: Role): Promise<void>;
  removeMembership(collectionId: string, userId: string): Promise<boolean>;
  listMembers(collectionId: string): Promise<Membership[]>;
  getRole(collectionId: string, userId: string): Promise<Role | null>;
  /** The collections the user is a member of, any role. */
  memberCollectionIds(userId: string): Promise<string[]>;

  /** Creates an invitation; an earlier pending one of the same email to the same collection is revoked. */
  createInvitation(input: NewInvitation): Promise<Invitation>;
  /** The invitation with its stored hash (the caller compares in constant time), whatever its state. */
  findInvitation(invitationId: string): Promise<{ invitation: Invitation; token_hash: string } | null>;
  /** The collection's invitations still pending at `at` (unused, unrevoked, unexpired), newest first. */
  listInvitations(collectionId: string, at: string): Promise<Invitation[]>;
  /** Revokes a pending invitation of that collection; false when there is none (another collection's included). */
  revokeInvitation(collectionId: string, invitationId: string, at: string): Promise<boolean>;
  /**
   * Atomically: marks a pending invitation used, creates the invitee when new (PP_CONFLICT when the
   * email is taken), and grants the role (an existing higher role is kept). Null, with nothing
   * changed, when the invitation is not pending at `at` or the invitee's email is not the invited one.
   */
  acceptInvitation(invitationId: string, at: string, invitee: Invitee): Promise<{ invitation: Invitation; user: User } | null>;

  appendHistory(entry: NewHistoryEntry): Promise<HistoryEntry>;
  /** The user's own entries, newest first. */
  listHistory(userId: string, options?: { limit?: number }): Promise<HistoryEntry[]>;
  /** The entry when it is the user's, else null. */
  getHistory(userId: string, historyId: string): Promise<HistoryEntry | null>;
  /** Sets (or replaces) the user's feedback on their own entry; null when the entry is not theirs. */
  setFeedback(userId: string, historyId: string, feedback: Omit<Feedback, 'at'>): Promise<Feedback | null>;
  /** Every entry that has feedback, oldest first (the admins' export). */
  listFeedback(options?: { limit?: number }): Promise<HistoryEntry[]>;
  /** Deletes every user's entries asked before `before` (ISO time), with their feedback; returns how many. */
  pruneHistory(before: string): Promise<number>;

  appendAudit(entry: NewAuditEntry): Promise<AuditEntry>;
  /** Newest first. */
  listAudit(options?: { limit?: number; collectionId?: string }): Promise<AuditEntry[]>;

  close(): Promise<void>;
}
