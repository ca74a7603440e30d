import { createIdentity, UrlSigner } from '@pinpoint/engine';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../test/test-app.js';
import { settle, startTestApp, uploadFiles } from '../test/test-app.js';
import { buildApp } from './app.js';
import { configFor } from './config.js';

const PASSWORD = 'a password long enough';
const SECRET = 'test-secret-0123456789abcdef';

describe('signed download URLs', () => {
  let t: TestApp;
  let alice: Record<string, string>;
  let bobId: string;
  let bob: Record<string, string>;
  let collectionId: string;
  let versionId: string;
  let otherVersionId: string;
  const html = '<html><body><script>alert(1)</script><p>Quarterly figures: revenue rose.</p></body></html>';

  const login = async (email: string) => {
    const res = await t.app.inject({ method: 'POST', url: '/api/auth/login', payload: { email, password: PASSWORD } });
    return { cookie: String(res.headers['set-cookie']).split(';')[0] as string, 'x-csrf-token': res.json().csrf_token as string };
  };
  const urlFor = async (who: Record<string, string>, version: string, query = '') =>
    (await t.app.inject({ url: `/api/versions/${version}/download-url${query}`, headers: who })).json().url as string;

  beforeAll(async () => {
    t = await startTestApp({ PINPOINT_AUTH: 'on', PINPOINT_PARSE_ISOLATE: 'false' });
    const identity = createIdentity(t.access);
    await identity.addUser('alice@x.test', PASSWORD);
    bobId = (await identity.addUser('bob@x.test', PASSWORD)).user_id;
    alice = await login('alice@x.test');
    bob = await login('bob@x.test');
    collectionId = (
      await t.app.inject({ method: 'POST', url: '/api/collections', headers: alice, payload: { name: 'c' } })
    ).json().collection_id;
    await t.app.inject({
      method: 'PUT',
      url: `/api/collections/${collectionId}/members/${bobId}`,
      headers: alice,
      payload: { role: 'viewer' },
    });
    const up = await uploadFiles(
      t.app,
      collectionId,
      [
        { name: 'report.html', bytes: new TextEncoder().encode(html) },
        { name: 'notes.txt', bytes: new TextEncoder().encode('Plain notes about the quarter.') },
      ],
      alice,
    );
    [versionId, otherVersionId] = up.map((r) => r.version.version_id) as [string, string];
    await settle(t.app, [versionId, otherVersionId], alice);
  }, 120_000);
  afterAll(async () => t?.close());

  it('a valid URL works without cookie or token: attachment, sniffed type, nosniff, no referrer', async () => {
    const url = await urlFor(bob, versionId);
    expect(url).toMatch(/[?&]kid=[0-9a-f]+/);
    const res = await t.app.inject({ url });
    expect(res.statusCode).toBe(200);
    expect(res.body).toBe(html);
    expect(res.headers['content-disposition']).toMatch(/^attachment; filename\*=UTF-8''report\.html$/);
    expect(res.headers['content-type']).toMatch(/^text\/html/);
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['referrer-policy']).toBe('no-referrer');
    expect(String(res.headers['content-security-policy'])).toContain('sandbox');
    const audit = (await t.app.inject({ url: `/api/audit?collection_id=${collectionId}`, headers: alice })).json().entries;
    expect(audit[0]).toMatchObject({ action: 'download', user_id: bobId, target: versionId });
  });

  it('rejects tampered, expired, other-version and other-artifact URLs', async () => {
    const url = new URL(await urlFor(bob, versionId), 'http://localhost');
    const variant = (edit: (u: URL) => void) => {
      const u = new URL(url);
      edit(u);
      return `${u.pathname}${u.search}`;
    };
    const sig = url.searchParams.get('sig') as string;
    const cases = {
      tampered: variant((u) => u.searchParams.set('sig', `${sig.slice(0, -1)}${sig.endsWith('0') ? '1' : '0'}`)),
      laterExpiry: variant((u) => u.searchParams.set('expires', String(Number(u.searchParams.get('expires')) + 3600))),
      otherVersion: variant((u) => {
        u.pathname = `/api/download/${otherVersionId}`;
      }),
      otherArtifact: variant((u) => u.searchParams.set('artifact', 'text')),
      otherUser: variant((u) => u.searchParams.set('u', 'usr_someoneelse')),
      unknownKey: variant((u) => u.searchParams.set('kid', 'abcdef123456')),
    };
    for (const [name, u] of Object.entries(cases)) {
      const res = await t.app.inject({ url: u });
      expect(res.statusCode, name).toBe(401);
      expect(res.json().error.code, name).toBe('PP_UNAUTHORIZED');
    }
    const expired = new UrlSigner(SECRET, 60).sign({ userId: bobId, versionId, kind: 'original' }, Date.now() - 3_600_000);
    expect((await t.app.inject({ url: expired.url })).statusCode).toBe(401);
    const unsigned = await t.app.inject({ url: `/api/versions/${versionId}/artifacts/original` });
    expect(unsigned.statusCode).toBe(401);
  });

  it('dies with the membership of its signer; the unsigned route needs a member', async () => {
    const url = await urlFor(bob, versionId);
    expect((await t.app.inject({ url: `/api/versions/${versionId}/artifacts/original`, headers: bob })).statusCode).toBe(200);
    await t.app.inject({ method: 'DELETE', url: `/api/collections/${collectionId}/members/${bobId}`, headers: alice });
    const res = await t.app.inject({ url });
    expect(res.statusCode).toBe(404);
    expect(res.json().error.code).toBe('PP_NOT_FOUND');
    expect((await t.app.inject({ url: `/api/versions/${versionId}/artifacts/original`, headers: bob })).statusCode).toBe(404);
    expect((await t.app.inject({ url: `/api/versions/${versionId}/download-url`, headers: bob })).statusCode).toBe(404);
  });

  it('rotation: a new key signs, the previous one still verifies, a retired one does not', async () => {
    const old = await urlFor(alice, versionId);
    const rotated = await buildApp(
      configFor(t.config.dataDir, {
        PINPOINT_AUTH: 'on',
        PINPOINT_LOG_LEVEL: 'silent',
        PINPOINT_SIGNING_PREVIOUS_SECRETS: SECRET,
      }),
      {
        engine: t.engine,
        access: t.access,
        signingSecret: 'the-next-secret-0123456789',
      },
    );
    const retired = await buildApp(configFor(t.config.dataDir, { PINPOINT_AUTH: 'on', PINPOINT_LOG_LEVEL: 'silent' }), {
      engine: t.engine,
      access: t.access,
      signingSecret: 'the-next-secret-0123456789',
    });
    try {
      expect((await rotated.inject({ url: old })).statusCode).toBe(200);
      const fresh = (await rotated.inject({ url: `/api/versions/${versionId}/download-url`, headers: alice })).json()
        .url as string;
      expect(new URL(fresh, 'http://x').searchParams.get('kid')).not.toBe(new URL(old, 'http://x').searchParams.get('kid'));
      expect((await rotated.inject({ url: fresh })).statusCode).toBe(200);
      expect((await t.app.inject({ url: fresh })).statusCode).toBe(401);
      expect((await retired.inject({ url: old })).statusCode).toBe(401);
    } finally {
      await rotated.close();
      await retired.close();
    }
  });
});
