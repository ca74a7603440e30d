import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type {
  AccessStore,
  Invitation,
  InvitationPreview,
  Invitee,
  MetadataStore,
  NewAuditEntry,
  Principal,
  Role,
  User,
} from '@pinpoint/core';
import { createError } from '@pinpoint/core';
import type { GuardedEngine } from './guarded.js';
import type { Identity } from './identity.js';
import { checkEmail, principalOf } from './identity.js';
import { hashPassword, MIN_PASSWORD_LENGTH } from './passwords.js';

const sha256 = (s: string): string => createHash('sha256').update(s).digest('hex');
const nowIso = (): string => new Date().toISOString();
/** `pp_inv_<id>_<secret>`: the id finds the row, the secret's hash is compared in constant time. */
const LINK_TOKEN_RE = /^pp_(inv_[0-9a-f]{20})_([A-Za-z0-9_-]{43})$/;

/** One answer for every token that cannot be accepted, so that a token cannot be probed. */
const invalid = () =>
  createError(
    'PP_INVITATION_INVALID',
    'This invitation link cannot be used: it is unknown, expired, already used or revoked. Ask for a new link.',
  );

export interface CreatedInvitation {
  invitation: Invitation;
  /** The link's token: returned once, stored only as a hash. */
  token: string;
}

/**
 * Invitations into a collection: its admins (and instance admins) invite an email with a role, list
 * and revoke the pending ones; whoever holds the link sees what it offers and accepts it once.
 */
export interface Invitations {
  create(principal: Principal, collectionId: string, email: string, role: Role): Promise<CreatedInvitation>;
  list(principal: Principal, collectionId: string): Promise<Invitation[]>;
  revoke(principal: Principal, collectionId: string, invitationId: string): Promise<void>;
  /** What the link offers; PP_INVITATION_INVALID for any token that cannot be accepted now. */
  preview(token: string): Promise<InvitationPreview>;
  /**
   * Accepts the invitation: a new email chooses its password, an existing account proves its
   * password (or is the signed-in caller). Returns the member, whom the caller then signs in.
   */
  accept(token: string, options: { password?: string | undefined; principal?: Principal | null }): Promise<User>;
}

/** What invitations read and check through: the server's GuardedEngine (`invitationDepsOf`), or the operator's command line. */
export interface InvitationDeps {
  access: AccessStore;
  /** Collection names, for the link's preview. */
  metadata: Pick<MetadataStore, 'getCollection'>;
  /** PP_NOT_FOUND unless the caller holds the role in the collection. */
  authorize(principal: Principal, collectionId: string, role: Role): Promise<void>;
  audit(principal: Principal, entry: Omit<NewAuditEntry, 'user_id'>): Promise<void>;
}

export const invitationDepsOf = (guarded: GuardedEngine): InvitationDeps => ({
  access: guarded.access,
  metadata: guarded.engine.ports.metadata,
  authorize: guarded.authorize,
  audit: guarded.audit,
});

export function createInvitations(deps: InvitationDeps, identity: Identity, options: { ttlSeconds: number }): Invitations {
  const { access, metadata } = deps;
  const pending = async (token: string): Promise<Invitation> => {
    const m = LINK_TOKEN_RE.exec(token.trim());
    const found = m?.[1] && m[2] ? await access.findInvitation(m[1]) : null;
    if (!found || !m?.[2]) throw invalid();
    const given = Buffer.from(sha256(m[2]), 'hex');
    const expected = Buffer.from(found.token_hash, 'hex');
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) throw invalid();
    const inv = found.invitation;
    if (inv.accepted_at !== null || inv.revoked_at !== null || inv.expires_at <= nowIso()) throw invalid();
    return inv;
  };
  const inviteeFor = async (inv: Invitation, password: string | undefined, principal: Principal | null | undefined) => {
    const existing = await access.findUserByEmail(inv.email);
    if (existing) {
      const signedIn = principal?.kind === 'user' && principal.user_id === existing.user.user_id;
      if (!signedIn && !password)
        throw createError('PP_UNAUTHORIZED', `${inv.email} has an account: sign in with its password to accept.`);
      if (!signedIn) await identity.checkPassword(inv.email, password as string);
      return { invitee: { user_id: existing.user.user_id } as Invitee, created: false };
    }
    if (!password)
      throw createError('PP_VALIDATION', `Choose a password for ${inv.email} (at least ${MIN_PASSWORD_LENGTH} characters).`);
    const new_user = { email: inv.email, password_hash: await hashPassword(password), admin: false };
    return { invitee: { new_user } as Invitee, created: true };
  };

  return {
    create: async (p, collectionId, email, role) => {
      await deps.authorize(p, collectionId, 'admin');
      const address = checkEmail(email);
      const existing = await access.findUserByEmail(address);
      const current = existing && (await access.getRole(collectionId, existing.user.user_id));
      if (current) throw createError('PP_CONFLICT', `${address} is already a member (${current}); change the role in the list.`);
      const invitationId = `inv_${randomBytes(10).toString('hex')}`;
      const secret = randomBytes(32).toString('base64url');
      const invitation = await access.createInvitation({
        invitation_id: invitationId,
        collection_id: collectionId,
        email: address,
        role,
        invited_by: p.kind === 'user' ? p.user_id : null,
        token_hash: sha256(secret),
        expires_at: new Date(Date.now() + options.ttlSeconds * 1000).toISOString(),
      });
      const detail = { email: address, role, expires_at: invitation.expires_at };
      await deps.audit(p, { action: 'invitation.create', collection_id: collectionId, target: invitationId, detail });
      return { invitation, token: `pp_${invitationId}_${secret}` };
    },
    list: async (p, collectionId) => {
      await deps.authorize(p, collectionId, 'admin');
      return access.listInvitations(collectionId, nowIso());
    },
    revoke: async (p, collectionId, invitationId) => {
      await deps.authorize(p, collectionId, 'admin');
      if (!(await access.revokeInvitation(collectionId, invitationId, nowIso())))
        throw createError('PP_NOT_FOUND', `Invitation ${invitationId} does not exist.`);
      await deps.audit(p, { action: 'invitation.revoke', collection_id: collectionId, target: invitationId, detail: {} });
    },
    preview: async (token) => {
      const inv = await pending(token);
      const collection = await metadata.getCollection(inv.collection_id);
      if (!collection) throw invalid();
      return {
        collection_id: inv.collection_id,
        collection_name: collection.name,
        email: inv.email,
        role: inv.role,
        invited_by_email: inv.invited_by_email,
        expires_at: inv.expires_at,
        account_exists: (await access.findUserByEmail(inv.email)) !== null,
      };
    },
    accept: async (token, { password, principal }) => {
      const inv = await pending(token);
      const { invitee, created } = await inviteeFor(inv, password, principal);
      const accepted = await access.acceptInvitation(inv.invitation_id, nowIso(), invitee);
      if (!accepted) throw invalid();
      await deps.audit(principalOf(accepted.user), {
        action: 'invitation.accept',
        collection_id: inv.collection_id,
        target: inv.invitation_id,
        detail: { role: inv.role, new_account: created },
      });
      return accepted.user;
    },
  };
}
