import type { AccessStore } from '@pinpoint/core';
import { describe, expect, it } from 'vitest';
import type { PortFactory } from './fixture.js';
import { withFreshPort } from './fixture.js';

const later = (s: number): string => new Date(Date.now() + s * 1000).toISOString();

/** The AccessStore port's semantics; the SQLite and PostgreSQL adapters must both pass it. */
export function describeAccessStoreConformance(name: string, factory: PortFactory<AccessStore>): void {
  const use = withFreshPort(factory);
  describe(`AccessStore conformance: ${name}`, () => {
    it(
      'creates users once per email (case-insensitive); the first-admin setup is atomic',
      use(async (store) => {
        const first = await Promise.all(
          [1, 2, 3].map((i) =>
            store.createUser({ email: `a${i}@x.test`, password_hash: 'h', admin: true }, { onlyIfNoUsers: true }),
          ),
        );
        expect(first.filter((u) => u !== null)).toHaveLength(1);
        const bob = await store.createUser({ email: 'Bob@X.test', password_hash: 'hb', admin: false });
        await expect(store.createUser({ email: 'bob@x.TEST', password_hash: 'h', admin: false })).rejects.toMatchObject({
          code: 'PP_CONFLICT',
        });
        expect(await store.findUserByEmail('BOB@x.test')).toEqual({ user: bob, password_hash: 'hb' });
        expect(await store.getUser(bob?.user_id ?? '')).toEqual(bob);
        expect(await store.countUsers()).toBe(2);
        expect((await store.listUsers()).map((u) => u.email)).toContain('Bob@X.test');
        expect(await store.findUserByEmail('nobody@x.test')).toBeNull();
      }),
    );

    it(
      'sessions expire and are deleted; tokens are found until revoked',
      use(async (store) => {
        const u = await store.createUser({ email: 's@x.test', password_hash: 'h', admin: false });
        const userId = u?.user_id ?? '';
        await store.createSession({ session_hash: 'live', user_id: userId, expires_at: later(60) });
        await store.createSession({ session_hash: 'old', user_id: userId, expires_at: later(-60) });
        expect(await store.getSession('live', later(0))).toMatchObject({ user_id: userId });
        expect(await store.getSession('old', later(0))).toBeNull();
        await store.deleteSession('live');
        expect(await store.getSession('live', later(0))).toBeNull();
        const t = await store.createToken({ token_id: 'tok_1', user_id: userId, name: 'ci', token_hash: 'th' });
        expect(await store.findToken('tok_1')).toEqual({ token: t, token_hash: 'th' });
        await store.touchToken('tok_1', later(0));
        expect((await store.listTokens(userId))[0]?.last_used_at).not.toBeNull();
        expect(await store.revokeToken('tok_1', later(0))).toBe(true);
        expect(await store.revokeToken('tok_1', later(0))).toBe(true);
        expect(await store.revokeToken('tok_missing', later(0))).toBe(false);
        expect(await store.findToken('tok_1')).toBeNull();
        expect((await store.listTokens(userId))[0]?.revoked_at).not.toBeNull();
      }),
    );

    it(
      'memberships: one role per user and collection, members listed by email; removing a user removes everything of theirs',
      use(async (store) => {
        const a = await store.createUser({ email: 'm1@x.test', password_hash: 'h', admin: false });
        const b = await store.createUser({ email: 'm2@x.test', password_hash: 'h', admin: false });
        const [ua, ub] = [a?.user_id ?? '', b?.user_id ?? ''];
        await store.setMembership('col_1', ua, 'viewer');
        await store.setMembership('col_1', ua, 'editor');
        await store.setMembership('col_2', ua, 'admin');
        await store.setMembership('col_1', ub, 'viewer');
        await expect(store.setMembership('col_1', 'usr_missing', 'viewer')).rejects.toMatchObject({ code: 'PP_NOT_FOUND' });
        expect(await store.getRole('col_1', ua)).toBe('editor');
        expect(await store.getRole('col_3', ua)).toBeNull();
        expect(await store.memberCollectionIds(ua)).toEqual(['col_1', 'col_2']);
        expect((await store.listMembers('col_1')).map((m) => [m.email, m.role])).toEqual([
          ['m1@x.test', 'editor'],
          ['m2@x.test', 'viewer'],
        ]);
        expect(await store.removeMembership('col_1', ub)).toBe(true);
        expect(await store.removeMembership('col_1', ub)).toBe(false);
        await store.createToken({ token_id: 'tok_a', user_id: ua, name: 'n', token_hash: 'x' });
        expect(await store.deleteUser(ua)).toBe(true);
        expect(await store.memberCollectionIds(ua)).toEqual([]);
        expect(await store.findToken('tok_a')).toBeNull();
        expect(await store.deleteUser(ua)).toBe(false);
      }),
    );

    it(
      'the audit log keeps entries newest first, filterable by collection',
      use(async (store) => {
        await store.appendAudit({
          user_id: 'usr_1',
          action: 'upload',
          collection_id: 'col_1',
          target: 'ver_1',
          detail: { n: 1 },
        });
        await store.appendAudit({ user_id: null, action: 'download', collection_id: 'col_2', target: 'ver_2', detail: {} });
        const all = await store.listAudit();
        expect(all.map((e) => e.action)).toEqual(['download', 'upload']);
        expect(all[1]?.detail).toEqual({ n: 1 });
        expect((await store.listAudit({ collectionId: 'col_1' })).map((e) => e.target)).toEqual(['ver_1']);
        expect(await store.listAudit({ limit: 1 })).toHaveLength(1);
      }),
    );
  });
}
