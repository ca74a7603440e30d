import type { AccessStore, NewInvitation, Role } from '@pinpoint/core';
import { expect, it } from 'vitest';
import type { PortTest } from './fixture.js';

const later = (s: number): string => new Date(Date.now() + s * 1000).toISOString();

let serial = 0;
const invitation = (collection_id: string, email: string, role: Role, invited_by: string | null, ttl = 3600): NewInvitation => ({
  invitation_id: `inv_${String(++serial).padStart(20, '0')}`,
  collection_id,
  email,
  role,
  invited_by,
  token_hash: `hash-${serial}`,
  expires_at: later(ttl),
});

/** The invitation part of the AccessStore port (called inside describeAccessStoreConformance). */
export function invitationConformance(use: PortTest<AccessStore>): void {
  it(
    'invitations: pending ones listed per collection, newest first; a new one replaces the pending one of that email; revoking is scoped to the collection',
    use(async (store) => {
      const admin = (await store.createUser({ email: 'adm@x.test', password_hash: 'h', admin: false }))?.user_id ?? '';
      const first = await store.createInvitation(invitation('col_1', 'Ann@X.test', 'viewer', admin));
      expect(first).toMatchObject({ email: 'Ann@X.test', role: 'viewer', invited_by: admin, invited_by_email: 'adm@x.test' });
      expect(first).toMatchObject({ accepted_at: null, accepted_by: null, revoked_at: null });
      expect(await store.findInvitation(first.invitation_id)).toEqual({ invitation: first, token_hash: `hash-${serial}` });
      const again = await store.createInvitation(invitation('col_1', 'ann@x.TEST', 'editor', null));
      const other = await store.createInvitation(invitation('col_2', 'ann@x.test', 'admin', admin));
      const expired = await store.createInvitation(invitation('col_1', 'old@x.test', 'viewer', admin, -1));
      expect((await store.listInvitations('col_1', later(0))).map((i) => i.invitation_id)).toEqual([again.invitation_id]);
      expect((await store.findInvitation(first.invitation_id))?.invitation.revoked_at).not.toBeNull();
      expect((await store.findInvitation(expired.invitation_id))?.invitation.revoked_at).toBeNull();
      expect(again.invited_by_email).toBeNull();
      // another collection's invitation cannot be revoked through this one
      expect(await store.revokeInvitation('col_1', other.invitation_id, later(0))).toBe(false);
      expect(await store.listInvitations('col_2', later(0))).toEqual([other]);
      expect(await store.revokeInvitation('col_2', other.invitation_id, later(0))).toBe(true);
      expect(await store.revokeInvitation('col_2', other.invitation_id, later(0))).toBe(false);
      expect(await store.revokeInvitation('col_1', expired.invitation_id, later(0))).toBe(false);
      expect(await store.listInvitations('col_2', later(0))).toEqual([]);
      expect(await store.findInvitation('inv_missing')).toBeNull();
      // the inviter's removal keeps the invitation, without its inviter
      await store.deleteUser(admin);
      expect((await store.findInvitation(again.invitation_id))?.invitation.invited_by).toBeNull();
    }),
  );

  it(
    'accepting creates the invitee once, grants the role and uses the invitation up, atomically; nothing else can accept it',
    use(async (store) => {
      const inv = await store.createInvitation(invitation('col_1', 'New@x.test', 'editor', null));
      const newUser = (email: string) => ({ new_user: { email, password_hash: 'pw', admin: false } });
      expect(await store.acceptInvitation(inv.invitation_id, later(0), newUser('someone@x.test'))).toBeNull();
      const results = await Promise.all(
        [1, 2, 3].map(() => store.acceptInvitation(inv.invitation_id, later(0), newUser('new@x.test'))),
      );
      const accepted = results.filter((r) => r !== null);
      expect(accepted).toHaveLength(1);
      const { user, invitation: used } = accepted[0] as NonNullable<(typeof results)[number]>;
      expect(user).toMatchObject({ email: 'new@x.test', admin: false });
      expect(await store.findUserByEmail('NEW@x.test')).toMatchObject({ password_hash: 'pw' });
      expect(used).toMatchObject({ accepted_by: user.user_id, revoked_at: null });
      expect(used.accepted_at).not.toBeNull();
      expect(await store.getRole('col_1', user.user_id)).toBe('editor');
      expect(await store.listInvitations('col_1', later(0))).toEqual([]);
      expect(await store.revokeInvitation('col_1', inv.invitation_id, later(0))).toBe(false);
      expect(await store.countUsers()).toBe(1);
    }),
  );

  it(
    'an existing user accepts only an invitation of their own email; a higher role is kept; expired, revoked and taken emails change nothing',
    use(async (store) => {
      const bob = (await store.createUser({ email: 'bob@x.test', password_hash: 'h', admin: false }))?.user_id ?? '';
      const eve = (await store.createUser({ email: 'eve@x.test', password_hash: 'h', admin: false }))?.user_id ?? '';
      await store.setMembership('col_2', bob, 'admin');
      const toBob = await store.createInvitation(invitation('col_2', 'BOB@x.test', 'viewer', null));
      expect(await store.acceptInvitation(toBob.invitation_id, later(0), { user_id: eve })).toBeNull();
      expect(await store.acceptInvitation(toBob.invitation_id, later(0), { user_id: 'usr_missing' })).toBeNull();
      expect(await store.acceptInvitation(toBob.invitation_id, later(7200), { user_id: bob })).toBeNull();
      expect((await store.acceptInvitation(toBob.invitation_id, later(0), { user_id: bob }))?.user.user_id).toBe(bob);
      expect(await store.getRole('col_2', bob)).toBe('admin');
      expect(await store.getRole('col_2', eve)).toBeNull();
      const revoked = await store.createInvitation(invitation('col_3', 'eve@x.test', 'viewer', null));
      await store.revokeInvitation('col_3', revoked.invitation_id, later(0));
      expect(await store.acceptInvitation(revoked.invitation_id, later(0), { user_id: eve })).toBeNull();
      const taken = await store.createInvitation(invitation('col_3', 'eve@x.test', 'viewer', null));
      const asNew = { new_user: { email: 'eve@x.test', password_hash: 'h2', admin: false } };
      await expect(store.acceptInvitation(taken.invitation_id, later(0), asNew)).rejects.toMatchObject({ code: 'PP_CONFLICT' });
      expect((await store.findInvitation(taken.invitation_id))?.invitation.accepted_at).toBeNull();
      expect(await store.getRole('col_3', eve)).toBeNull();
      expect(await store.acceptInvitation('inv_missing', later(0), { user_id: eve })).toBeNull();
      await store.deleteUser(bob);
      expect((await store.findInvitation(toBob.invitation_id))?.invitation).toMatchObject({ accepted_by: null });
    }),
  );
}
