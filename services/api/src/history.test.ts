import { createIdentity } from '@pinpoint/engine';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AuthDeployment } from '../test/leak-deployments.js';
import { distributedAuthDeployment, embeddedAuthDeployment } from '../test/leak-deployments.js';
import type { TestApp } from '../test/test-app.js';
import { settle, startTestApp, uploadFiles } from '../test/test-app.js';

const PASSWORD = 'a password long enough';
type Headers = Record<string, string>;

const MEMO = 'The harbour authority raised the mooring fee to 42 crowns in March after the storm damaged the north pier.';
const OTHER = 'The orchard cooperative ships plums to the coast every August.';

function historySuite(name: string, open: (env: Record<string, string>) => Promise<AuthDeployment>) {
  describe(`documents, question history and feedback (PINPOINT_AUTH=on, ${name})`, () => {
    let t: AuthDeployment;
    const users: Record<'root' | 'editor' | 'viewer' | 'outsider', { id: string; headers: Headers }> = {} as never;
    let col = '';
    let memo = { document_id: '', version_id: '' };

    beforeAll(async () => {
      t = await open({ PINPOINT_PARSE_ISOLATE: 'false' });
      const identity = createIdentity(t.access);
      for (const name of ['root', 'editor', 'viewer', 'outsider'] as const) {
        const user = await identity.addUser(`${name}@x.test`, PASSWORD, { admin: name === 'root' });
        const { token } = await identity.createToken(user.user_id, 'test');
        users[name] = { id: user.user_id, headers: { authorization: `Bearer ${token}` } };
      }
      col = (
        await t.app.inject({ method: 'POST', url: '/api/collections', headers: users.root.headers, payload: { name: 'Port' } })
      ).json().collection_id;
      for (const [name, role] of [
        ['editor', 'editor'],
        ['viewer', 'viewer'],
      ] as const) {
        const url = `/api/collections/${col}/members/${users[name].id}`;
        await t.app.inject({ method: 'PUT', url, headers: users.root.headers, payload: { role } });
      }
      const up = await uploadFiles(
        t.app,
        col,
        [
          { name: 'memo.txt', bytes: new TextEncoder().encode(MEMO) },
          { name: 'orchard.txt', bytes: new TextEncoder().encode(OTHER) },
        ],
        users.editor.headers,
      );
      await settle(
        t.app,
        up.map((u) => u.version.version_id),
        users.root.headers,
      );
      const first = up[0];
      if (!first) throw new Error('no upload');
      memo = { document_id: first.version.document_id, version_id: first.version.version_id };
    }, 120_000);
    afterAll(async () => t?.close());

    const as = (who: keyof typeof users) => ({
      get: (url: string) => t.app.inject({ url, headers: users[who].headers }),
      send: (method: 'POST' | 'PUT' | 'DELETE', url: string, payload?: object) =>
        t.app.inject({ method, url, headers: users[who].headers, ...(payload ? { payload } : {}) }),
    });

    let historyId = '';

    it('lists documents with their versions and states to every member; outsiders get 404', async () => {
      const docs = (await as('viewer').get(`/api/documents?collection_id=${col}`)).json().documents;
      expect(docs.map((d: { document: { name: string } }) => d.document.name).sort()).toEqual(['memo.txt', 'orchard.txt']);
      expect(docs[0].versions[0].state).toBe('ready');
      expect((await as('outsider').get(`/api/documents?collection_id=${col}`)).statusCode).toBe(404);
    });

    it('keeps each signed-in ask in the asker’s own history, with its citations', async () => {
      const res = await as('viewer').send('POST', '/api/ask', { question: 'What is the mooring fee?', collection_id: col });
      expect(res.statusCode).toBe(200);
      const answer = res.json();
      expect(answer.refused).toBe(false);
      expect(answer.history_id).toMatch(/^his_/);
      historyId = answer.history_id;
      const list = (await as('viewer').get('/api/history')).json().entries;
      expect(list).toHaveLength(1);
      expect(list[0]).toMatchObject({
        history_id: historyId,
        collection_id: col,
        question: 'What is the mooring fee?',
        withheld: false,
      });
      expect(list[0].answer.answer).toBe(answer.answer);
      expect(list[0].answer.citations).toEqual(answer.citations);
      expect(list[0].answer.retrieved).toBeUndefined();
      expect((await as('viewer').get(`/api/history/${historyId}`)).json().answer.citations[0].version_id).toBe(memo.version_id);
      // nobody else sees it, not even an instance admin through the history routes
      expect((await as('editor').get('/api/history')).json().entries).toEqual([]);
      for (const who of ['editor', 'root'] as const) {
        const other = await as(who).get(`/api/history/${historyId}`);
        expect(other.statusCode).toBe(404);
        expect(other.json().error.message).toBe(`History entry ${historyId} does not exist.`);
      }
    });

    it('the streamed ask is kept too, and its answer event names the entry', async () => {
      const res = await fetch(`${t.url}/api/ask/stream`, {
        method: 'POST',
        headers: { ...users.editor.headers, 'content-type': 'application/json' },
        body: JSON.stringify({ question: 'When is fruit shipped to the coast?' }),
      });
      const text = await res.text();
      const id = /"history_id":"(his_[0-9a-f]+)"/.exec(text)?.[1];
      expect(id).toBeDefined();
      expect((await as('editor').get('/api/history')).json().entries.map((e: { history_id: string }) => e.history_id)).toEqual([
        id,
      ]);
    });

    it('stores feedback on one’s own answer only, validates the verdict, and replaces it', async () => {
      const url = `/api/history/${historyId}/feedback`;
      expect((await as('editor').send('PUT', url, { verdict: 'helpful' })).statusCode).toBe(404);
      const bad = await as('viewer').send('PUT', url, { verdict: 'great' });
      expect([bad.statusCode, bad.json().error.code]).toEqual([400, 'PP_VALIDATION']);
      await as('viewer').send('PUT', url, { verdict: 'wrong_citation', note: 'first try' });
      const res = await as('viewer').send('PUT', url, { verdict: 'helpful', note: '  right on the pier memo  ' });
      expect(res.statusCode).toBe(200);
      expect(res.json().feedback).toMatchObject({ verdict: 'helpful', note: 'right on the pier memo' });
      expect((await as('viewer').get('/api/history')).json().entries[0].feedback.verdict).toBe('helpful');
    });

    it('exports judged answers as eval questions (DESIGN.md §6) to instance admins only', async () => {
      const refused = await as('editor').send('POST', '/api/ask', { question: 'Who painted the ceiling of the chapel?' });
      expect(refused.json().refused).toBe(true);
      await as('editor').send('PUT', `/api/history/${refused.json().history_id}/feedback`, { verdict: 'helpful' });
      for (const who of ['viewer', 'editor', 'outsider'] as const)
        expect((await as(who).get('/api/admin/feedback.jsonl')).statusCode).toBe(404);
      const res = await as('root').get('/api/admin/feedback.jsonl');
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toMatch(/application\/x-ndjson/);
      const lines = res.body
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l));
      expect(lines).toHaveLength(2);
      const [fee, chapel] = lines;
      expect(Object.keys(fee).slice(0, 6)).toEqual(['id', 'question', 'lang', 'answerable', 'answers', 'gold']);
      expect(fee).toMatchObject({
        id: historyId,
        question: 'What is the mooring fee?',
        lang: 'en',
        answerable: true,
        answers: [],
      });
      expect(fee.gold[0]).toMatchObject({ file: 'memo.txt' });
      expect(MEMO).toContain(fee.gold[0].quote);
      expect(fee.feedback).toMatchObject({ verdict: 'helpful', note: 'right on the pier memo', refused: false });
      expect(chapel).toMatchObject({ answerable: false, gold: [], feedback: { verdict: 'helpful', refused: true } });
    });

    it('viewers cannot delete (404, as for a missing document); an editor deletes document, versions, index entries and blobs', async () => {
      const url = `/api/documents/${memo.document_id}`;
      for (const who of ['viewer', 'outsider'] as const) {
        const res = await as(who).send('DELETE', url);
        expect(res.statusCode).toBe(404);
        expect(res.json().error.message).toBe(`Document ${memo.document_id} does not exist.`);
      }
      const blob = (await t.engine.ports.metadata.getArtifact(memo.version_id, 'original'))?.blob_key ?? '';
      expect(await t.engine.ports.blobs.has(blob)).toBe(true);
      const res = await as('editor').send('DELETE', url);
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({ document_id: memo.document_id, versions_deleted: 1 });
      expect((await as('editor').send('DELETE', url)).statusCode).toBe(404);
      expect(await t.engine.ports.blobs.has(blob)).toBe(false);
      expect((await as('viewer').get(`/api/versions/${memo.version_id}`)).statusCode).toBe(404);
      const docs = (await as('viewer').get(`/api/documents?collection_id=${col}`)).json().documents;
      expect(docs.map((d: { document: { name: string } }) => d.document.name)).toEqual(['orchard.txt']);
      const hits = (await as('viewer').send('POST', '/api/search', { query: 'mooring fee', k: 10 })).json().hits;
      expect(hits.filter((h: { file: string }) => h.file === 'memo.txt')).toEqual([]);
      const audit = (await as('root').get('/api/audit')).json().entries;
      expect(audit[0]).toMatchObject({ action: 'document.delete', user_id: users.editor.id, target: memo.document_id });
    });

    it('history re-checks on read: an answer citing a deleted or no longer readable document is withheld', async () => {
      const entry = (await as('viewer').get(`/api/history/${historyId}`)).json();
      expect(entry).toMatchObject({
        withheld: true,
        answer: { answer: '', citations: [] },
        question: 'What is the mooring fee?',
      });
      // a readable answer becomes withheld once the membership goes
      const again = (
        await as('viewer').send('POST', '/api/ask', { question: 'When are plums shipped?', collection_id: col })
      ).json();
      expect((await as('viewer').get(`/api/history/${again.history_id}`)).json().withheld).toBe(false);
      await as('root').send('DELETE', `/api/collections/${col}/members/${users.viewer.id}`);
      const after = (await as('viewer').get('/api/history')).json().entries;
      expect(after.map((e: { withheld: boolean }) => e.withheld)).toEqual([true, true]);
      expect(JSON.stringify(after)).not.toContain('orchard');
      expect(JSON.stringify(after)).not.toContain('August');
    });
  });
}

historySuite('embedded', embeddedAuthDeployment);
historySuite('distributed: PostgreSQL, BullMQ', distributedAuthDeployment);

describe('question history with PINPOINT_AUTH=off', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ PINPOINT_WORKER: 'false' });
  });
  afterAll(async () => t?.close());

  it('the single local user keeps no history and has the feedback export', async () => {
    const ask = (await t.app.inject({ method: 'POST', url: '/api/ask', payload: { question: 'anything?' } })).json();
    expect(ask.history_id).toBeUndefined();
    expect((await t.app.inject({ url: '/api/history' })).json()).toEqual({ entries: [] });
    const res = await t.app.inject({ url: '/api/admin/feedback.jsonl' });
    expect([res.statusCode, res.body]).toEqual([200, '']);
  });
});
