import { randomUUID } from 'node:crypto';
import type { Role } from '@pinpoint/core';
import { createIdentity } from '@pinpoint/engine';
import { startFakeOllama, startFakeQdrant } from '@pinpoint/testing';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AuthDeployment } from '../test/leak-deployments.js';
import { distributedAuthDeployment, embeddedAuthDeployment } from '../test/leak-deployments.js';
import { settle, uploadFiles } from '../test/test-app.js';

/**
 * The leak property: whatever the users, collections, memberships, documents and revocations, no
 * search, ask, stream, citation, version, element, artifact, download URL, job list or job event
 * returns or counts anything of a collection the caller cannot read. Every document shares the word
 * SHARED, so a search for it must return exactly the caller's readable documents — never more, and
 * never fewer because foreign ones took places in the top-k.
 */

const SHARED = 'zephyrine';
const USERS = 3;
const COLLECTIONS = 3;
const PASSWORD = 'a password long enough';

/** The company a collection's reports are about, as a question writes it. */
const company = (secret: string): string => `${secret[0]?.toUpperCase()}${secret.slice(1)}`;

const letters = (n: number): string =>
  Array.from({ length: n }, () => String.fromCharCode(97 + Math.floor(Math.random() * 26))).join('');

interface World {
  creators: number[];
  grants: { user: number; col: number; role: Role }[];
  revokes: { user: number; col: number }[];
  docs: number[];
}

const worldArb: fc.Arbitrary<World> = fc.record({
  creators: fc.array(fc.nat(USERS - 1), { minLength: COLLECTIONS, maxLength: COLLECTIONS }),
  grants: fc.array(
    fc.record({
      user: fc.nat(USERS - 1),
      col: fc.nat(COLLECTIONS - 1),
      role: fc.constantFrom<Role>('viewer', 'editor', 'admin'),
    }),
    { maxLength: 6 },
  ),
  revokes: fc.array(fc.record({ user: fc.nat(USERS - 1), col: fc.nat(COLLECTIONS - 1) }), { maxLength: 3 }),
  docs: fc.array(fc.integer({ min: 1, max: 2 }), { minLength: COLLECTIONS, maxLength: COLLECTIONS }),
});

type Headers = Record<string, string>;

interface Built {
  users: { id: string; headers: Headers }[];
  cols: { id: string; secret: string; versions: string[]; documents: string[]; invitation: string }[];
  /** user index → the history entry of the question they asked before the revocations. */
  history: string[];
  /** user index → readable collection indexes, after grants and revocations. */
  readable: Set<number>[];
  /** user index → the collection indexes they administer, after grants and revocations. */
  administered: Set<number>[];
}

async function bearerUser(d: AuthDeployment, email: string, admin = false): Promise<{ id: string; headers: Headers }> {
  const identity = createIdentity(d.access);
  const user = await identity.addUser(email, PASSWORD, { admin });
  const { token } = await identity.createToken(user.user_id, 'leak-test');
  return { id: user.user_id, headers: { authorization: `Bearer ${token}` } };
}

async function build(d: AuthDeployment, root: Headers, w: World): Promise<Built> {
  const run = randomUUID().slice(0, 8);
  const users = await Promise.all(Array.from({ length: USERS }, (_, i) => bearerUser(d, `u${i}-${run}@x.test`)));
  const model = users.map(() => new Map<number, Role>());
  const cols: Built['cols'] = [];
  for (let c = 0; c < COLLECTIONS; c++) {
    const creator = users[w.creators[c] as number] as Built['users'][number];
    const res = await d.app.inject({
      method: 'POST',
      url: '/api/collections',
      headers: creator.headers,
      payload: { name: `c${c}-${run}` },
    });
    model[w.creators[c] as number]?.set(c, 'admin');
    const secret = letters(12);
    // each collection's reports are named after it (its company), so a question naming the company scopes to them
    const files = Array.from({ length: w.docs[c] as number }, (_, i) => ({
      name: `${company(secret)}_${2021 + i}_10K.txt`,
      bytes: new TextEncoder().encode(`The ${SHARED} ledger ${i} of this team records ${secret} figures for the quarter.`),
    }));
    const up = await uploadFiles(d.app, res.json().collection_id, files, creator.headers);
    const invited = await d.app.inject({
      method: 'POST',
      url: `/api/collections/${res.json().collection_id}/invitations`,
      headers: root,
      payload: { email: `invitee${c}-${run}@x.test`, role: 'viewer' },
    });
    cols.push({
      id: res.json().collection_id,
      secret,
      versions: up.map((u) => u.version.version_id),
      documents: up.map((u) => u.document.document_id),
      invitation: invited.json().invitation.invitation_id,
    });
  }
  for (const g of w.grants) {
    const url = `/api/collections/${cols[g.col]?.id}/members/${users[g.user]?.id}`;
    expect((await d.app.inject({ method: 'PUT', url, headers: root, payload: { role: g.role } })).statusCode).toBe(200);
    model[g.user]?.set(g.col, g.role);
  }
  await settle(
    d.app,
    cols.flatMap((c) => c.versions),
    root,
  );
  // Each user asks (and judges the answer) while still a member: the revocations below must then
  // withhold what their history holds of the collections they lose.
  const history: string[] = [];
  for (const u of users) {
    const asked = await d.app.inject({
      method: 'POST',
      url: '/api/ask',
      headers: u.headers,
      payload: { question: `Which ${SHARED} figures does the ledger record?` },
    });
    const id = asked.json().history_id as string;
    history.push(id);
    const feedback = { verdict: 'helpful', note: 'leak test' };
    const res = await d.app.inject({ method: 'PUT', url: `/api/history/${id}/feedback`, headers: u.headers, payload: feedback });
    expect(res.statusCode).toBe(200);
  }
  for (const r of w.revokes) {
    await d.app.inject({
      method: 'DELETE',
      url: `/api/collections/${cols[r.col]?.id}/members/${users[r.user]?.id}`,
      headers: root,
    });
    model[r.user]?.delete(r.col);
  }
  const administered = model.map((m) => new Set([...m].flatMap(([col, role]) => (role === 'admin' ? [col] : []))));
  return { users, cols, history, readable: model.map((m) => new Set(m.keys())), administered };
}

/** Every version id mentioned anywhere in a response body. */
const versionIdsIn = (body: string): string[] => [...new Set(body.match(/ver_[0-9a-f]{20}/g) ?? [])];

async function sse(d: AuthDeployment, path: string, headers: Headers, body: unknown): Promise<string> {
  const res = await fetch(`${d.url}${path}`, {
    method: 'POST',
    headers: { ...headers, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  expect(res.status).toBe(200);
  return res.text();
}

async function checkUser(d: AuthDeployment, b: Built, u: number, runVersions: Set<string>): Promise<void> {
  const { headers } = b.users[u] as Built['users'][number];
  const readable = b.readable[u] as Set<number>;
  const okVersions = new Set(b.cols.flatMap((c, i) => (readable.has(i) ? c.versions : [])));
  const okCols = new Set(b.cols.flatMap((c, i) => (readable.has(i) ? [c.id] : [])));
  const get = (url: string) => d.app.inject({ url, headers });
  const post = (url: string, payload: unknown) => d.app.inject({ method: 'POST', url, headers, payload: payload as object });
  const onlyReadable = (body: string, what: string) => {
    for (const v of versionIdsIn(body)) expect(okVersions.has(v) || !runVersions.has(v), `${what} shows ${v}`).toBe(true);
    for (const v of versionIdsIn(body)) expect(runVersions.has(v) ? okVersions.has(v) : false, `${what} shows ${v}`).toBe(true);
  };

  const collections = (await get('/api/collections')).json().collections.map((c: { collection_id: string }) => c.collection_id);
  expect(new Set(collections)).toEqual(okCols);
  const search = (await post('/api/search', { query: SHARED, k: 100 })).json();
  expect(new Set(search.hits.map((h: { version_id: string }) => h.version_id))).toEqual(okVersions);
  const documents = (await get('/api/documents')).json().documents;
  expect(documents.length).toBe(okVersions.size);
  onlyReadable(JSON.stringify(documents), 'documents');
  onlyReadable((await get('/api/jobs')).body, 'jobs');
  const history = (await get('/api/history')).body;
  onlyReadable(history, 'history');
  onlyReadable((await get(`/api/history/${b.history[u]}`)).body, 'history entry');
  for (const [other, id] of b.history.entries()) {
    if (other === u) continue;
    expect((await get(`/api/history/${id}`)).statusCode, 'history of another user').toBe(404);
    const judged = await d.app.inject({
      method: 'PUT',
      url: `/api/history/${id}/feedback`,
      headers,
      payload: { verdict: 'wrong_citation' },
    });
    expect(judged.statusCode, 'feedback on another user’s answer').toBe(404);
  }
  expect((await get('/api/admin/feedback.jsonl')).statusCode, 'feedback export').toBe(404);
  await checkInvitations(d, b, u);

  for (const [i, c] of b.cols.entries()) {
    if (!readable.has(i)) continue;
    // the caller's own reports: the question that names their company, and no period, is scoped to the newest of them
    const named = (await post('/api/ask', { question: `What ${SHARED} figures does ${company(c.secret)} record?` })).json();
    const scoped = (named.scope?.documents ?? []).map((x: { version_id: string }) => x.version_id);
    expect(new Set(scoped), 'scope of a readable company').toEqual(new Set(c.versions.slice(-1)));
  }
  for (const [i, c] of b.cols.entries()) {
    if (readable.has(i)) continue;
    expect(history, 'history').not.toContain(c.secret);
    for (const doc of c.documents) {
      const del = await d.app.inject({ method: 'DELETE', url: `/api/documents/${doc}`, headers });
      expect([del.statusCode, del.json().error.message]).toEqual([404, `Document ${doc} does not exist.`]);
      expect((await get(`/api/documents/${doc}`)).statusCode).toBe(404);
    }
    const secretHits = JSON.stringify((await post('/api/search', { query: c.secret, k: 100 })).json().hits);
    onlyReadable(secretHits, 'search');
    expect(secretHits).not.toContain(c.secret);
    onlyReadable((await post('/api/ask', { question: `What ${SHARED} figures does ${c.secret} record?` })).body, 'ask');
    onlyReadable(await sse(d, '/api/ask/stream', headers, { question: `${c.secret} ${SHARED} figures?` }), 'ask/stream');
    // a question naming the collection's company and period, or the caller picking its documents: no scope reaches it
    const named = (
      await post('/api/ask', { question: `What ${SHARED} figures does ${company(c.secret)} record in FY2021?` })
    ).json();
    onlyReadable(JSON.stringify(named), 'ask naming the company');
    expect(named.scope?.documents ?? [], 'scope of a company the caller cannot read').toEqual([]);
    const picked = (await post('/api/ask', { question: `${SHARED} figures?`, filters: { document_ids: c.documents } })).json();
    onlyReadable(JSON.stringify(picked), 'ask about picked documents');
    expect(picked.scope?.documents ?? [], 'picked documents the caller cannot read').toEqual([]);
    for (const doc of c.documents) {
      const url = `/api/documents/${doc}/identity`;
      const put = await d.app.inject({ method: 'PUT', url, headers, payload: { correction: { names: ['Mine'] } } });
      expect(put.statusCode, 'identity correction').toBe(404);
    }
    const missing = `/api/search`;
    const scoped = await post(missing, { query: SHARED, collection_id: c.id });
    const nowhere = await post(missing, { query: SHARED, collection_id: 'col_00000000000000000000' });
    expect([scoped.statusCode, scoped.json().error.message.replace(c.id, 'X')]).toEqual([
      404,
      nowhere.json().error.message.replace('col_00000000000000000000', 'X'),
    ]);
    for (const url of [
      `/api/documents?collection_id=${c.id}`,
      `/api/jobs?collection_id=${c.id}`,
      `/api/collections/${c.id}/members`,
    ]) {
      expect((await get(url)).statusCode, url).toBe(404);
    }
    for (const v of c.versions) {
      const filtered = await post('/api/search', { query: SHARED, k: 100, filters: { version_ids: [v] } });
      expect(filtered.json().hits, 'version filter').toEqual([]);
      onlyReadable((await post('/api/ask', { question: `${SHARED} ${c.secret}?`, filters: { version_ids: [v] } })).body, 'ask');
      for (const url of [
        `/api/versions/${v}`,
        `/api/versions/${v}/elements`,
        `/api/versions/${v}/artifacts/original`,
        `/api/versions/${v}/artifacts/text`,
        `/api/versions/${v}/download-url`,
        `/api/jobs?version_id=${v}`,
      ]) {
        const res = await get(url);
        expect(res.statusCode, url).toBe(404);
        expect(res.body).not.toContain(c.secret);
      }
      const cite = await post('/api/citations/resolve', { version_id: v, element_id: 'el_x' });
      expect(cite.statusCode).toBe(404);
      expect(cite.json().error.message).toBe(`Version ${v} does not exist.`);
      expect((await post(`/api/versions/${v}/reprocess`, {})).statusCode).toBe(404);
    }
  }
}

/**
 * Invitations: only a collection's admins list, create and revoke them (others get 404), a list shows
 * that collection's invitations alone, and no invitation is reached through another collection.
 */
async function checkInvitations(d: AuthDeployment, b: Built, u: number): Promise<void> {
  const { headers } = b.users[u] as Built['users'][number];
  const admin = b.administered[u] as Set<number>;
  for (const [i, c] of b.cols.entries()) {
    const base = `/api/collections/${c.id}/invitations`;
    const listed = await d.app.inject({ url: base, headers });
    expect(listed.statusCode, `invitations of c${i}`).toBe(admin.has(i) ? 200 : 404);
    if (admin.has(i))
      expect(listed.json().invitations.map((x: { invitation_id: string }) => x.invitation_id)).toEqual([c.invitation]);
    else {
      const created = await d.app.inject({ method: 'POST', url: base, headers, payload: { email: 'z@x.test', role: 'admin' } });
      expect(created.statusCode, 'invite into a collection one does not administer').toBe(404);
    }
    for (const other of b.cols) {
      if (other.id === c.id && admin.has(i)) continue;
      const del = await d.app.inject({ method: 'DELETE', url: `${base}/${other.invitation}`, headers });
      expect(del.statusCode, 'revoke an invitation through another collection').toBe(404);
    }
  }
}

/** A response without its timings (the machine's, not the data's) and the id of its history entry (new per ask). */
const untimed = (body: unknown): unknown =>
  JSON.parse(JSON.stringify(body, (key, value) => (key === 'timings' || key === 'history_id' ? undefined : value)));

/** What user `u` gets from a search and an ask, and the lexical work of the search. */
async function observe(d: AuthDeployment, b: Built, u: number): Promise<unknown> {
  const { headers } = b.users[u] as Built['users'][number];
  const post = (url: string, payload: object) => d.app.inject({ method: 'POST', url, headers, payload });
  const search = await post('/api/search', { query: `${SHARED} ledger figures quarter`, k: 100 });
  const work = d.lexicalWork();
  const ask = await post('/api/ask', { question: `Which ${SHARED} ledger records figures for the quarter?` });
  return { search: untimed(search.json()), work, ask: untimed(ask.json()) };
}

/**
 * Documents of a collection nobody else can read, full of the query's words and of every length,
 * change nothing any user gets: not the hits, their order or scores, not the answer or its gate,
 * and not the work the lexical index does (postings lists looked up, postings read, chunks scored).
 */
async function checkForeignDocsChangeNothing(d: AuthDeployment, b: Built, root: Headers, runVersions: Set<string>) {
  const before = [];
  for (let u = 0; u < USERS; u++) before.push(await observe(d, b, u));
  const res = await d.app.inject({
    method: 'POST',
    url: '/api/collections',
    headers: root,
    payload: { name: `foreign-${letters(8)}` },
  });
  const files = Array.from({ length: 4 }, (_, i) => ({
    name: `foreign${i}.txt`,
    bytes: new TextEncoder().encode(
      `${`The ${SHARED} ledger figures for the quarter. `.repeat(1 + i * 7)}${letters(6)} ${letters(9)} ${'quarter '.repeat(i)}`,
    ),
  }));
  const up = await uploadFiles(d.app, res.json().collection_id, files, root);
  for (const v of up) runVersions.add(v.version.version_id);
  await settle(
    d.app,
    up.map((v) => v.version.version_id),
    root,
  );
  for (let u = 0; u < USERS; u++) expect(await observe(d, b, u), `user ${u} with foreign documents present`).toEqual(before[u]);
}

/** The job event stream of user `u` while every collection's versions are re-processed: nothing foreign arrives. */
async function checkJobEvents(d: AuthDeployment, b: Built, u: number, root: Headers): Promise<void> {
  const okCols = new Set(b.cols.flatMap((c, i) => ((b.readable[u] as Set<number>).has(i) ? [c.id] : [])));
  const controller = new AbortController();
  const res = await fetch(`${d.url}/api/jobs/events`, { headers: b.users[u]?.headers ?? {}, signal: controller.signal });
  expect(res.status).toBe(200);
  const seen: string[] = [];
  const reading = (async () => {
    const decoder = new TextDecoder();
    try {
      for await (const chunk of res.body as AsyncIterable<Uint8Array>) {
        for (const m of decoder.decode(chunk).matchAll(/"collection_id":"(col_[0-9a-f]+)"/g)) seen.push(m[1] as string);
      }
    } catch {
      // aborted
    }
  })();
  const reprocessed: string[] = [];
  for (const c of b.cols) {
    const res = await d.app.inject({ method: 'POST', url: `/api/versions/${c.versions[0]}/reprocess`, headers: root });
    reprocessed.push(res.json().version.version_id);
  }
  await settle(d.app, reprocessed, root);
  await new Promise((r) => setTimeout(r, 300));
  controller.abort();
  await reading;
  for (const col of seen) expect(okCols.has(col), `job event of ${col}`).toBe(true);
  if (okCols.size > 0) expect(seen.length).toBeGreaterThan(0);
}

function leakSuite(
  name: string,
  open: (env: Record<string, string>) => Promise<AuthDeployment>,
  extraEnv: () => Record<string, string>,
) {
  describe(`no leak across collections: ${name}`, () => {
    let d: AuthDeployment;
    let root: Headers;
    const runVersions = new Set<string>();
    let ollama: Awaited<ReturnType<typeof startFakeOllama>>;

    beforeAll(async () => {
      ollama = await startFakeOllama(32);
      d = await open({
        PINPOINT_PARSE_ISOLATE: 'false',
        PINPOINT_RATE_LIMIT_ASK: '100000',
        PINPOINT_RATE_LIMIT_UPLOAD: '100000',
        PINPOINT_EMBEDDER: 'ollama',
        PINPOINT_EMBEDDER_MODEL: 'fake-embed',
        PINPOINT_EMBEDDER_DIMENSIONS: '32',
        PINPOINT_OLLAMA_URL: ollama.url,
        ...extraEnv(),
      });
      root = (await bearerUser(d, 'root@x.test', true)).headers;
    }, 120_000);
    afterAll(async () => {
      await d?.close();
      await ollama?.close();
    });

    it('holds for generated users, memberships, documents and revocations', async () => {
      await fc.assert(
        fc.asyncProperty(worldArb, async (w) => {
          const b = await build(d, root, w);
          for (const c of b.cols) for (const v of c.versions) runVersions.add(v);
          for (let u = 0; u < USERS; u++) await checkUser(d, b, u, runVersions);
          await checkForeignDocsChangeNothing(d, b, root, runVersions);
          await checkJobEvents(d, b, 0, root);
        }),
        { numRuns: 3, seed: 9, endOnFailure: true },
      );
    }, 600_000);
  });
}

let qdrant: Awaited<ReturnType<typeof startFakeQdrant>>;
beforeAll(async () => {
  qdrant = await startFakeQdrant();
});
afterAll(async () => qdrant?.close());

leakSuite('embedded (SQLite, embedded vectors)', embeddedAuthDeployment, () => ({ PINPOINT_VECTORS: 'embedded' }));
leakSuite('distributed (PostgreSQL, BullMQ, Qdrant protocol)', distributedAuthDeployment, () => ({
  PINPOINT_VECTORS: 'qdrant',
  PINPOINT_QDRANT_URL: qdrant.url,
  PINPOINT_QDRANT_COLLECTION: `pp_leak_${randomUUID().slice(0, 8)}`,
}));
