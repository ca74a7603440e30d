import { createIdentity } from '@pinpoint/engine';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../test/test-app.js';
import { startTestApp, uploadFiles } from '../test/test-app.js';
import { configFor } from './config.js';

const PASSWORD = 'correct horse battery';

function cookieOf(res: { headers: Record<string, unknown> }): string {
  const raw = res.headers['set-cookie'];
  const line = (Array.isArray(raw) ? raw[0] : String(raw)) as string;
  return line.split(';')[0] as string;
}

describe('configuration of auth', () => {
  it('refuses PINPOINT_AUTH=off off loopback, naming the setting; defaults on for distributed and non-loopback', () => {
    expect(() => configFor('/tmp/x', { PINPOINT_AUTH: 'off', PINPOINT_HOST: '0.0.0.0' })).toThrow(/PINPOINT_AUTH/);
    expect(configFor('/tmp/x', { PINPOINT_HOST: '0.0.0.0' }).auth.enabled).toBe(true);
    expect(configFor('/tmp/x', { PINPOINT_MODE: 'distributed' }).auth.enabled).toBe(true);
    expect(configFor('/tmp/x').auth.enabled).toBe(false);
    expect(configFor('/tmp/x', { PINPOINT_AUTH: 'off', PINPOINT_HOST: '::1' }).auth.enabled).toBe(false);
    expect(configFor('/tmp/x').auth.allowedHosts).toEqual(['127.0.0.1', 'localhost', '::1']);
  });
});

describe('identity: setup, sessions, CSRF, tokens, members, hardening (PINPOINT_AUTH=on)', () => {
  let t: TestApp;
  let adminCookie: string;
  let adminCsrf: string;
  const admin = (extra: Record<string, string> = {}) => ({ cookie: adminCookie, 'x-csrf-token': adminCsrf, ...extra });

  beforeAll(async () => {
    t = await startTestApp({ PINPOINT_AUTH: 'on', PINPOINT_WORKER: 'false', PINPOINT_RATE_LIMIT_LOGIN: '5' });
  });
  afterAll(async () => t?.close());

  it('answers 401 to anonymous calls except health, session and the signed download', async () => {
    expect((await t.app.inject({ url: '/api/health' })).statusCode).toBe(200);
    expect((await t.app.inject({ url: '/api/collections' })).statusCode).toBe(401);
    expect((await t.app.inject({ method: 'POST', url: '/api/ask', payload: { question: 'x' } })).json().error.code).toBe(
      'PP_UNAUTHORIZED',
    );
    const session = (await t.app.inject({ url: '/api/auth/session' })).json();
    expect(session).toMatchObject({ auth: 'on', user: null, needs_setup: true });
  });

  it('creates the first admin once, with an HttpOnly SameSite=Lax cookie, then refuses a second setup', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/auth/setup',
      payload: { email: 'root@x.test', password: PASSWORD },
    });
    expect(res.statusCode).toBe(200);
    const setCookie = String(res.headers['set-cookie']);
    expect(setCookie).toMatch(/HttpOnly/);
    expect(setCookie).toMatch(/SameSite=Lax/);
    expect(setCookie).not.toMatch(/Secure/);
    adminCookie = cookieOf(res);
    adminCsrf = res.json().csrf_token;
    expect(res.json().user).toMatchObject({ email: 'root@x.test', admin: true });
    const again = await t.app.inject({
      method: 'POST',
      url: '/api/auth/setup',
      payload: { email: 'evil@x.test', password: PASSWORD },
    });
    expect(again.statusCode).toBe(409);
  });

  it('rotates the session on login; a wrong password and an unknown email get the same 401', async () => {
    const login = await t.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      headers: { cookie: adminCookie },
      payload: { email: 'ROOT@x.test', password: PASSWORD },
    });
    expect(login.statusCode).toBe(200);
    const fresh = cookieOf(login);
    expect(fresh).not.toBe(adminCookie);
    expect((await t.app.inject({ url: '/api/collections', headers: { cookie: adminCookie } })).statusCode).toBe(401);
    adminCookie = fresh;
    adminCsrf = login.json().csrf_token;
    const wrong = await t.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: { email: 'root@x.test', password: 'nope-nope-nope' },
    });
    const unknown = await t.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: { email: 'who@x.test', password: 'nope-nope-nope' },
    });
    expect([wrong.statusCode, unknown.statusCode]).toEqual([401, 401]);
    expect(wrong.json().error.message).toBe(unknown.json().error.message);
  });

  it('requires the CSRF token on state-changing cookie requests', async () => {
    const without = await t.app.inject({
      method: 'POST',
      url: '/api/collections',
      headers: { cookie: adminCookie },
      payload: { name: 'a' },
    });
    expect(without.statusCode).toBe(403);
    expect(without.json().error.code).toBe('PP_FORBIDDEN_ORIGIN');
    const forged = await t.app.inject({
      method: 'POST',
      url: '/api/collections',
      headers: { cookie: adminCookie, 'x-csrf-token': 'f'.repeat(64) },
      payload: { name: 'a' },
    });
    expect(forged.statusCode).toBe(403);
    const ok = await t.app.inject({ method: 'POST', url: '/api/collections', headers: admin(), payload: { name: 'a' } });
    expect(ok.statusCode).toBe(201);
  });

  it('rejects a foreign Origin (403) and a DNS-rebinding Host (421), on every route', async () => {
    const cross = await t.app.inject({
      method: 'POST',
      url: '/api/collections',
      headers: admin({ origin: 'http://evil.example' }),
      payload: { name: 'x' },
    });
    expect(cross.statusCode).toBe(403);
    const nullOrigin = await t.app.inject({ method: 'POST', url: '/api/auth/login', headers: { origin: 'null' }, payload: {} });
    expect(nullOrigin.statusCode).toBe(403);
    const same = await t.app.inject({
      method: 'POST',
      url: '/api/collections',
      headers: admin({ origin: 'http://localhost:8080' }),
      payload: { name: 'same-origin' },
    });
    expect(same.statusCode).toBe(201);
    for (const url of ['/api/health', '/api/collections', '/', '/api/download/ver_x']) {
      const rebound = await t.app.inject({ url, headers: { host: 'attacker.example:8080', cookie: adminCookie } });
      expect(rebound.statusCode, url).toBe(421);
      expect(rebound.json().error.code).toBe('PP_MISDIRECTED_HOST');
    }
  });

  it('sets security headers on every response, errors included', async () => {
    for (const res of [await t.app.inject({ url: '/api/health' }), await t.app.inject({ url: '/api/collections' })]) {
      expect(res.headers['x-content-type-options']).toBe('nosniff');
      expect(res.headers['referrer-policy']).toBe('no-referrer');
      expect(res.headers['x-frame-options']).toBe('DENY');
      expect(String(res.headers['content-security-policy'])).toContain("default-src 'none'");
      expect(res.headers['x-request-id']).toBeTruthy();
    }
  });

  it('personal API tokens: shown once, stored hashed, work as Bearer without CSRF, die when revoked', async () => {
    const created = await t.app.inject({ method: 'POST', url: '/api/auth/tokens', headers: admin(), payload: { name: 'ci' } });
    expect(created.statusCode).toBe(201);
    const { token, info } = created.json();
    expect(token).toMatch(/^pp_tok_/);
    const listed = (await t.app.inject({ url: '/api/auth/tokens', headers: admin() })).json().tokens;
    expect(JSON.stringify(listed)).not.toContain(token.split('_').pop());
    const bearer = { authorization: `Bearer ${token}` };
    expect(
      (await t.app.inject({ method: 'POST', url: '/api/collections', headers: bearer, payload: { name: 'b' } })).statusCode,
    ).toBe(201);
    const tampered = { authorization: `Bearer ${token.slice(0, -2)}xx` };
    expect((await t.app.inject({ url: '/api/collections', headers: tampered })).statusCode).toBe(401);
    expect(
      (await t.app.inject({ method: 'DELETE', url: `/api/auth/tokens/${info.token_id}`, headers: admin() })).statusCode,
    ).toBe(204);
    expect((await t.app.inject({ url: '/api/collections', headers: bearer })).statusCode).toBe(401);
    const audit = (await t.app.inject({ url: '/api/audit', headers: admin() })).json().entries;
    expect(audit.map((e: { action: string }) => e.action)).toContain('token.create');
  });

  it('members: the creator is admin; outsiders get 404, viewers cannot upload, admins manage members', async () => {
    const identity = createIdentity(t.access);
    const alice = await identity.addUser('alice@x.test', PASSWORD);
    const bob = await identity.addUser('bob@x.test', PASSWORD);
    const as = async (email: string) => {
      const res = await t.app.inject({ method: 'POST', url: '/api/auth/login', payload: { email, password: PASSWORD } });
      return { cookie: cookieOf(res), 'x-csrf-token': res.json().csrf_token as string };
    };
    const a = await as('alice@x.test');
    const b = await as('bob@x.test');
    const col = (await t.app.inject({ method: 'POST', url: '/api/collections', headers: a, payload: { name: 'alice' } })).json();
    const members = (await t.app.inject({ url: `/api/collections/${col.collection_id}/members`, headers: a })).json().members;
    expect(members).toMatchObject([{ user_id: alice.user_id, role: 'admin' }]);
    const outsider = await t.app.inject({ url: `/api/collections/${col.collection_id}/members`, headers: b });
    expect(outsider.statusCode).toBe(404);
    const missing = await t.app.inject({ url: '/api/collections/col_doesnotexist/members', headers: b });
    expect(outsider.json().error.message.replace(col.collection_id, 'X')).toBe(
      missing.json().error.message.replace('col_doesnotexist', 'X'),
    );
    expect((await t.app.inject({ url: '/api/collections', headers: b })).json().collections).toEqual([]);
    const put = await t.app.inject({
      method: 'PUT',
      url: `/api/collections/${col.collection_id}/members/${bob.user_id}`,
      headers: a,
      payload: { role: 'viewer' },
    });
    expect(put.json()).toMatchObject({ email: 'bob@x.test', role: 'viewer' });
    expect((await t.app.inject({ url: '/api/collections', headers: b })).json().collections).toMatchObject([{ role: 'viewer' }]);
    await expect(
      uploadFiles(t.app, col.collection_id, [{ name: 'a.txt', bytes: new TextEncoder().encode('hello') }], b),
    ).rejects.toThrow(/404/);
    const byBob = await t.app.inject({ url: `/api/collections/${col.collection_id}/members`, headers: b });
    expect(byBob.statusCode).toBe(404);
    const del = await t.app.inject({
      method: 'DELETE',
      url: `/api/collections/${col.collection_id}/members/${bob.user_id}`,
      headers: a,
    });
    expect(del.statusCode).toBe(204);
    expect((await t.app.inject({ url: '/api/collections', headers: b })).json().collections).toEqual([]);
    const actions = (await t.app.inject({ url: `/api/audit?collection_id=${col.collection_id}`, headers: a })).json().entries;
    expect(actions.map((e: { action: string }) => e.action)).toEqual(['member.remove', 'member.set', 'collection.create']);
    expect((await t.app.inject({ url: '/api/audit', headers: a })).statusCode).toBe(404);
  });

  it('limits sign-in attempts per email (429 PP_RATE_LIMITED)', async () => {
    const codes: number[] = [];
    for (let i = 0; i < 7; i++) {
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/auth/login',
        payload: { email: 'victim@x.test', password: 'guess-guess-guess' },
      });
      codes.push(res.statusCode);
    }
    expect(codes.slice(0, 5)).toEqual([401, 401, 401, 401, 401]);
    expect(codes.at(-1)).toBe(429);
  });
});
