import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiError, createApiClient, setCsrfToken } from '../src/api/client.js';
import { type RunningApi, startApi, uploadViaApi, waitForReady } from './harness.js';

let server: RunningApi;
beforeAll(async () => {
  server = await startApi({ PINPOINT_WORKER_CONCURRENCY: '1' });
});
afterAll(async () => server?.stop());

describe("the web client checks every response against @pinpoint/core's contract (development and tests)", () => {
  it('runs with the checks on', () => {
    expect(import.meta.env.DEV).toBe(true);
  });

  it('accepts what the real API serves: collections, documents, versions, jobs, answers, resolved citations', async () => {
    const api = createApiClient(server.base);
    const text = '# Warranty\n\nThe warranty of the quokka lantern lasts twenty-four months from delivery.\n';
    const [uploaded] = await uploadViaApi(server.base, [{ name: 'warranty.md', bytes: new TextEncoder().encode(text) }]);
    const versionId = uploaded?.version.version_id ?? '';
    await waitForReady(server.base, versionId, 60_000);

    const { collections } = await api.collections();
    expect(collections.length).toBeGreaterThan(0);
    const { documents } = await api.documents(collections[0]?.collection_id);
    expect(documents[0]?.latest_ready_version_id).toBe(versionId);
    expect((await api.version(versionId)).version.state).toBe('ready');
    expect((await api.elements(versionId)).elements.length).toBeGreaterThan(0);
    expect((await api.jobs({ version_id: versionId })).jobs[0]?.state).toBe('succeeded');
    const answer = await api.ask('How long does the warranty of the quokka lantern last?');
    expect(answer.refused).toBe(false);
    const citation = answer.citations[0];
    if (!citation) throw new Error('no citation');
    const resolved = await api.resolve({
      version_id: citation.version_id,
      element_id: citation.element_id,
      anchor: citation.anchor,
    });
    expect(resolved.view.kind).toBe('text');
    expect(resolved.download_url).toMatch(/^\/api\/download\//);
    expect((await api.downloadUrl(versionId)).url).toMatch(/^\/api\/download\//);
  }, 90_000);

  it('accepts what the account routes serve: session, setup, tokens, users, members (PINPOINT_AUTH=on)', async () => {
    const secured = await startApi({ PINPOINT_AUTH: 'on', PINPOINT_WORKER: 'false' });
    // A browser keeps the session cookie; here a small jar on fetch does.
    const realFetch = globalThis.fetch;
    let cookie = '';
    globalThis.fetch = async (input, init) => {
      const headers = new Headers(init?.headers);
      if (cookie) headers.set('cookie', cookie);
      const res = await realFetch(input, { ...init, headers });
      const set = res.headers.get('set-cookie');
      if (set) cookie = set.split(';')[0] ?? '';
      return res;
    };
    try {
      const api = createApiClient(secured.base);
      expect(await api.session()).toMatchObject({ auth: 'on', user: null, needs_setup: true });
      const session = await api.setup('owner@example.com', 'correct horse battery staple');
      expect(session.user?.admin).toBe(true);
      setCsrfToken(session.csrf_token);
      const created = await api.createToken('scripts');
      expect(created.token.length).toBeGreaterThan(20);
      expect((await api.tokens()).tokens.map((t) => t.token_id)).toContain(created.info.token_id);
      expect((await api.findUser('owner@example.com')).users[0]?.email).toBe('owner@example.com');
      const collection = await api.createCollection('contract');
      const members = await api.members(collection.collection_id);
      expect(members.members[0]).toMatchObject({ email: 'owner@example.com', role: 'admin' });
      await api.revokeToken(created.info.token_id);
      await api.logout();
    } finally {
      globalThis.fetch = realFetch;
      setCsrfToken(null);
      await secured.stop();
    }
  }, 90_000);

  it('fails loudly, naming the field, when a server drifts from the contract', async () => {
    const drifted = createServer((_req, res) => {
      res.setHeader('content-type', 'application/json');
      res.end(JSON.stringify({ collections: [{ collection_id: 'col_1', name: 'default' }] }));
    });
    await new Promise<void>((r) => drifted.listen(0, '127.0.0.1', r));
    try {
      const api = createApiClient(`http://127.0.0.1:${(drifted.address() as AddressInfo).port}`);
      const err = await api.collections().catch((e: unknown) => e);
      expect(err).toBeInstanceOf(ApiError);
      expect(err).toMatchObject({ code: 'PP_CONTRACT', message: expect.stringContaining('collections.0.created_at') });
    } finally {
      drifted.close();
    }
  });
});
