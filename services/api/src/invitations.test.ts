import { createIdentity } from '@pinpoint/engine';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../test/test-app.js';
import { startTestApp, uploadFiles } from '../test/test-app.js';
import { redactInviteLink } from './security.js';

const PASSWORD = 'correct horse battery';
type Headers = Record<string, string>;

function cookieOf(res: { headers: Record<string, unknown> }): string {
  const raw = res.headers['set-cookie'];
  const line = (Array.isArray(raw) ? raw[0] : String(raw)) as string;
  return line.split(';')[0] as string;
}

const tokenOf = (url: string): string => url.split('/invite/')[1] as string;

describe('invitations (PINPOINT_AUTH=on)', () => {
  let t: TestApp;
  let root: Headers;
  let col: string;
  const inject = (method: 'GET' | 'POST' | 'DELETE', url: string, headers: Headers = {}, payload?: object) =>
    t.app.inject({ method, url, headers, ...(payload ? { payload } : {}) });
  const invite = (email: string, role: string, headers = root, collection = col) =>
    inject('POST', `/api/collections/${collection}/invitations`, headers, { email, role });
  const accept = (token: string, password?: string, headers: Headers = {}) =>
    inject('POST', '/api/invitations/accept', headers, password === undefined ? { token } : { token, password });
  const signIn = async (email: string, password = PASSWORD): Promise<Headers> => {
    const res = await inject('POST', '/api/auth/login', {}, { email, password });
    return { cookie: cookieOf(res), 'x-csrf-token': res.json().csrf_token };
  };

  beforeAll(async () => {
    t = await startTestApp({
      PINPOINT_AUTH: 'on',
      PINPOINT_WORKER: 'false',
      PINPOINT_RATE_LIMIT_LOGIN: '50',
      PINPOINT_PUBLIC_URL: 'https://pinpoint.example.org/',
    });
    const setup = await inject('POST', '/api/auth/setup', {}, { email: 'root@x.test', password: PASSWORD });
    root = { cookie: cookieOf(setup), 'x-csrf-token': setup.json().csrf_token };
    col = (await inject('POST', '/api/collections', root, { name: 'Handbooks' })).json().collection_id;
  });
  afterAll(async () => t?.close());

  it('an admin invites a new email: the link is shown once, its secret stored only as a hash; the invitee sets a password and is signed in', async () => {
    const res = await invite('Bob@x.test', 'editor');
    expect(res.statusCode).toBe(201);
    const { invitation, url } = res.json();
    expect(url).toMatch(/^https:\/\/pinpoint\.example\.org\/invite\/pp_inv_[0-9a-f]{20}_[A-Za-z0-9_-]{43}$/);
    expect(invitation).toMatchObject({ email: 'Bob@x.test', role: 'editor', invited_by_email: 'root@x.test' });
    const secret = url.split('_').slice(3).join('_');
    expect(JSON.stringify(await t.access.findInvitation(invitation.invitation_id))).not.toContain(secret);
    const listed = await inject('GET', `/api/collections/${col}/invitations`, root);
    expect(listed.json().invitations.map((i: { invitation_id: string }) => i.invitation_id)).toEqual([invitation.invitation_id]);
    expect(listed.body).not.toContain(secret);

    const preview = await inject('POST', '/api/invitations/preview', {}, { token: tokenOf(url) });
    expect(preview.json()).toMatchObject({
      collection_name: 'Handbooks',
      email: 'Bob@x.test',
      role: 'editor',
      invited_by_email: 'root@x.test',
      account_exists: false,
    });
    expect((await accept(tokenOf(url))).json().error.code).toBe('PP_VALIDATION');
    expect((await accept(tokenOf(url), 'short')).json().error.code).toBe('PP_VALIDATION');
    const accepted = await accept(tokenOf(url), PASSWORD);
    expect(accepted.statusCode).toBe(200);
    expect(String(accepted.headers['set-cookie'])).toMatch(/pp_session=.*HttpOnly.*SameSite=Lax/);
    expect(accepted.json()).toMatchObject({ auth: 'on', user: { email: 'Bob@x.test', admin: false } });
    const bob = { cookie: cookieOf(accepted), 'x-csrf-token': accepted.json().csrf_token };
    expect((await inject('GET', '/api/collections', bob)).json().collections).toMatchObject([
      { name: 'Handbooks', role: 'editor' },
    ]);
    const up = await uploadFiles(t.app, col, [{ name: 'a.txt', bytes: new TextEncoder().encode('Editors upload.') }], bob);
    expect(up).toHaveLength(1);
    expect((await inject('GET', `/api/collections/${col}/invitations`, root)).json().invitations).toEqual([]);
    expect((await signIn('bob@x.test')).cookie).toMatch(/^pp_session=/);
  });

  it('answers one code and one message for a used, revoked, tampered, unknown or malformed link', async () => {
    const used = tokenOf((await invite('carol@x.test', 'viewer')).json().url);
    expect((await accept(used, PASSWORD)).statusCode).toBe(200);
    const revokedRes = (await invite('dave@x.test', 'viewer')).json();
    const revoked = tokenOf(revokedRes.url);
    const del = await inject('DELETE', `/api/collections/${col}/invitations/${revokedRes.invitation.invitation_id}`, root);
    expect(del.statusCode).toBe(204);
    const live = tokenOf((await invite('erin@x.test', 'viewer')).json().url);
    const tampered = `${live.slice(0, -3)}${live.endsWith('AAA') ? 'BBB' : 'AAA'}`;
    const unknown = `pp_inv_${'0'.repeat(20)}_${'A'.repeat(43)}`;
    const answers = [];
    for (const token of [used, revoked, tampered, unknown, 'not-a-token']) {
      for (const res of [await accept(token, PASSWORD), await inject('POST', '/api/invitations/preview', {}, { token })]) {
        answers.push([res.statusCode, res.json().error.code, res.json().error.message]);
      }
    }
    expect(new Set(answers.map((a) => JSON.stringify(a))).size).toBe(1);
    expect(answers[0]?.slice(0, 2)).toEqual([404, 'PP_INVITATION_INVALID']);
    expect((await accept(live, PASSWORD)).statusCode).toBe(200);
  });

  it('an existing account proves its password (or is the signed-in user); members cannot be invited again', async () => {
    const identity = createIdentity(t.access);
    await identity.addUser('frank@x.test', PASSWORD);
    await identity.addUser('grace@x.test', PASSWORD);
    const url = (await invite('frank@x.test', 'viewer')).json().url;
    expect((await inject('POST', '/api/invitations/preview', {}, { token: tokenOf(url) })).json().account_exists).toBe(true);
    expect((await accept(tokenOf(url))).statusCode).toBe(401);
    expect((await accept(tokenOf(url), 'wrong password here')).json().error.code).toBe('PP_UNAUTHORIZED');
    // signed in as someone else, a password is still needed: the invitation is the email's
    const grace = await signIn('grace@x.test');
    expect((await accept(tokenOf(url), undefined, grace)).statusCode).toBe(401);
    const frank = await signIn('frank@x.test');
    const accepted = await accept(tokenOf(url), undefined, frank);
    expect(accepted.json().user.email).toBe('frank@x.test');
    expect(cookieOf(accepted)).not.toBe(frank.cookie);
    expect((await inject('GET', '/api/collections', frank)).statusCode).toBe(401);
    const again = await invite('FRANK@x.test', 'admin');
    expect([again.statusCode, again.json().error.code]).toEqual([409, 'PP_CONFLICT']);
  });

  it('only admins of the collection invite, list and revoke; others and outsiders get the 404 of a missing collection', async () => {
    const editor = await signIn('bob@x.test');
    const outsider = await signIn('grace@x.test');
    const pending = (await invite('henry@x.test', 'viewer')).json().invitation.invitation_id;
    const missing = await invite('x@x.test', 'viewer', root, 'col_doesnotexist');
    const same = (res: { statusCode: number; json(): { error: { message: string } } }, id: string) => [
      res.statusCode,
      res.json().error.message.replace(id, 'X'),
    ];
    const expected = same(missing, 'col_doesnotexist');
    for (const who of [editor, outsider]) {
      expect(same(await invite('x@x.test', 'viewer', who), col)).toEqual(expected);
      expect(same(await inject('GET', `/api/collections/${col}/invitations`, who), col)).toEqual(expected);
      expect(same(await inject('DELETE', `/api/collections/${col}/invitations/${pending}`, who), col)).toEqual(expected);
    }
    // an admin of another collection cannot reach this one's invitation through their own
    const own = (await inject('POST', '/api/collections', outsider, { name: 'Graces' })).json().collection_id;
    expect((await inject('DELETE', `/api/collections/${own}/invitations/${pending}`, outsider)).statusCode).toBe(404);
    expect((await inject('GET', `/api/collections/${own}/invitations`, outsider)).json().invitations).toEqual([]);
    const listed = (await inject('GET', `/api/collections/${col}/invitations`, root)).json().invitations;
    expect(listed.map((i: { invitation_id: string }) => i.invitation_id)).toContain(pending);
    expect((await inject('POST', `/api/collections/${col}/invitations`, { cookie: root.cookie as string }, {})).statusCode).toBe(
      403,
    );
    const actions = (await inject('GET', `/api/audit?collection_id=${col}`, root))
      .json()
      .entries.map((e: { action: string }) => e.action);
    expect(actions).toEqual(expect.arrayContaining(['invitation.create', 'invitation.accept', 'invitation.revoke']));
  });

  it('refuses a cross-site accept, limits attempts per address, and keeps link secrets out of the logs', async () => {
    const cross = await accept('pp_inv_x', PASSWORD, { origin: 'http://evil.example' });
    expect([cross.statusCode, cross.json().error.code]).toEqual([403, 'PP_FORBIDDEN_ORIGIN']);
    const codes: number[] = [];
    for (let i = 0; i < 60; i++) codes.push((await accept('pp_inv_guess', PASSWORD)).statusCode);
    expect(codes).toContain(429);
    expect(redactInviteLink('/invite/pp_inv_0123_abc?x=1')).toBe('/invite/[redacted]?x=1');
  });
});

describe('invitations expire after PINPOINT_INVITE_TTL_HOURS; none with auth off', () => {
  it('a link past its time answers PP_INVITATION_INVALID and is no longer listed', async () => {
    const t = await startTestApp({ PINPOINT_AUTH: 'on', PINPOINT_WORKER: 'false', PINPOINT_INVITE_TTL_HOURS: '0.0003' });
    try {
      const setup = await t.app.inject({
        method: 'POST',
        url: '/api/auth/setup',
        payload: { email: 'r@x.test', password: PASSWORD },
      });
      const root = { cookie: cookieOf(setup), 'x-csrf-token': setup.json().csrf_token };
      const col = (await t.app.inject({ method: 'POST', url: '/api/collections', headers: root, payload: { name: 'c' } })).json();
      const url = `/api/collections/${col.collection_id}/invitations`;
      const res = await t.app.inject({ method: 'POST', url, headers: root, payload: { email: 'late@x.test', role: 'viewer' } });
      await new Promise((r) => setTimeout(r, 1500));
      const late = await t.app.inject({
        method: 'POST',
        url: '/api/invitations/accept',
        payload: { token: tokenOf(res.json().url), password: PASSWORD },
      });
      expect([late.statusCode, late.json().error.code]).toEqual([404, 'PP_INVITATION_INVALID']);
      expect((await t.app.inject({ url, headers: root })).json().invitations).toEqual([]);
    } finally {
      await t.close();
    }
    const off = await startTestApp({ PINPOINT_WORKER: 'false' });
    try {
      const col = (await off.app.inject({ method: 'POST', url: '/api/collections', payload: { name: 'c' } })).json();
      const res = await off.app.inject({
        method: 'POST',
        url: `/api/collections/${col.collection_id}/invitations`,
        payload: { email: 'a@x.test', role: 'viewer' },
      });
      expect([res.statusCode, res.json().error.code]).toEqual([400, 'PP_VALIDATION']);
    } finally {
      await off.close();
    }
  });
});
