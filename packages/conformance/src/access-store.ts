import type { AccessStore } from '@pinpoint/core';
import { describe, expect, it } from 'vitest';
import { invitationConformance } from './access-invitations.js';
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

    invitationConformance(use);

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

    it(
      'question history: each user sees only their own entries, newest first; feedback is per entry and replaced',
      use(async (store) => {
        const a = (await store.createUser({ email: 'h1@x.test', password_hash: 'h', admin: false }))?.user_id ?? '';
        const b = (await store.createUser({ email: 'h2@x.test', password_hash: 'h', admin: false }))?.user_id ?? '';
        const answer = (question: string) => ({
          question,
          answer: `Answer to ${question} \u0000 日本語 𠮷`,
          refused: false,
          citations: [],
        });
        const first = await store.appendHistory({ user_id: a, collection_id: 'col_1', question: 'one?', answer: answer('one?') });
        const second = await store.appendHistory({
          user_id: a,
          collection_id: null,
          question: 'two\u0000?',
          answer: answer('two?'),
        });
        const theirs = await store.appendHistory({ user_id: b, collection_id: 'col_1', question: 'b?', answer: answer('b?') });
        expect(first.feedback).toBeNull();
        expect((await store.listHistory(a)).map((e) => e.question)).toEqual(['two\u0000?', 'one?']);
        expect(await store.listHistory(a, { limit: 1 })).toHaveLength(1);
        expect(await store.getHistory(a, first.history_id)).toEqual(first);
        expect(await store.getHistory(a, theirs.history_id)).toBeNull();
        expect(await store.setFeedback(a, theirs.history_id, { verdict: 'helpful', note: null })).toBeNull();
        expect(await store.setFeedback(a, 'his_missing', { verdict: 'helpful', note: null })).toBeNull();
        const f = await store.setFeedback(a, second.history_id, { verdict: 'wrong_citation', note: 'the page is off' });
        expect(f).toMatchObject({ verdict: 'wrong_citation', note: 'the page is off' });
        await store.setFeedback(a, second.history_id, { verdict: 'should_have_refused', note: null });
        await store.setFeedback(b, theirs.history_id, { verdict: 'helpful', note: 'ノート' });
        expect((await store.getHistory(a, second.history_id))?.feedback).toMatchObject({
          verdict: 'should_have_refused',
          note: null,
        });
        const exported = await store.listFeedback();
        expect(exported.map((e) => [e.history_id, e.feedback?.verdict])).toEqual([
          [second.history_id, 'should_have_refused'],
          [theirs.history_id, 'helpful'],
        ]);
        expect(exported[1]?.answer).toEqual(answer('b?'));
        expect(await store.pruneHistory(first.asked_at)).toBe(0);
        const cut = new Date(Date.parse(theirs.asked_at) + 1).toISOString();
        expect(await store.pruneHistory(cut)).toBe(3);
        expect(await store.listHistory(b)).toEqual([]);
        expect(await store.listFeedback()).toEqual([]);
        const kept = await store.appendHistory({ user_id: a, collection_id: null, question: 'three?', answer: answer('three?') });
        expect(await store.pruneHistory(kept.asked_at)).toBe(0);
        expect((await store.listHistory(a)).map((e) => e.question)).toEqual(['three?']);
        await store.setFeedback(a, kept.history_id, { verdict: 'helpful', note: null });
        await store.setFeedback(
          b,
          (await store.appendHistory({ user_id: b, collection_id: null, question: 'c?', answer: answer('c?') })).history_id,
          { verdict: 'helpful', note: null },
        );
        expect(await store.deleteUser(a)).toBe(true);
        expect(await store.listHistory(a)).toEqual([]);
        expect((await store.listFeedback()).map((e) => e.user_id)).toEqual([b]);
      }),
    );
  });
}
