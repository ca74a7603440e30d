import { createIdentity } from '@pinpoint/engine';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AuthDeployment } from '../test/leak-deployments.js';
import { embeddedAuthDeployment } from '../test/leak-deployments.js';
import { settle, uploadFiles } from '../test/test-app.js';

/**
 * A question's scope never widens access: two collections hold two companies' reports; a member of
 * the first asks about the second's company, by name and by picking its documents, and gets
 * nothing of it — while the admin, who reads both, is scoped to it. Corrections are for editors.
 */
const PASSWORD = 'a password long enough';
type Headers = Record<string, string>;

const report = (company: string, year: number) =>
  new TextEncoder().encode(
    `${company} annual report. For the fiscal year ended December 31, ${year}, net sales were ${year - 1000} million.`,
  );

describe('question scope and collection access (PINPOINT_AUTH=on)', () => {
  let t: AuthDeployment;
  const headers: Record<'root' | 'member', Headers> = { root: {}, member: {} };
  const cols = { mine: '', theirs: '' };
  const theirs = { documents: [] as string[], versions: [] as string[] };

  beforeAll(async () => {
    t = await embeddedAuthDeployment({ PINPOINT_PARSE_ISOLATE: 'false' });
    const identity = createIdentity(t.access);
    for (const name of ['root', 'member'] as const) {
      const user = await identity.addUser(`${name}@scope.test`, PASSWORD, { admin: name === 'root' });
      headers[name] = { authorization: `Bearer ${(await identity.createToken(user.user_id, 'test')).token}` };
      if (name === 'member') {
        const create = { method: 'POST' as const, url: '/api/collections', headers: headers.root };
        cols.mine = (await t.app.inject({ ...create, payload: { name: 'Mine' } })).json().collection_id;
        cols.theirs = (await t.app.inject({ ...create, payload: { name: 'Theirs' } })).json().collection_id;
        const url = `/api/collections/${cols.mine}/members/${user.user_id}`;
        await t.app.inject({ method: 'PUT', url, headers: headers.root, payload: { role: 'editor' } });
      }
    }
    const mine = await uploadFiles(
      t.app,
      cols.mine,
      [{ name: 'Quillon_2022_10K.txt', bytes: report('Quillon', 2022) }],
      headers.root,
    );
    const other = await uploadFiles(
      t.app,
      cols.theirs,
      [
        { name: 'Vexmoor_2021_10K.txt', bytes: report('Vexmoor', 2021) },
        { name: 'Vexmoor_2022_10K.txt', bytes: report('Vexmoor', 2022) },
      ],
      headers.root,
    );
    theirs.documents = other.map((u) => u.document.document_id);
    theirs.versions = other.map((u) => u.version.version_id);
    await settle(
      t.app,
      [...mine, ...other].map((u) => u.version.version_id),
      headers.root,
    );
  }, 120_000);
  afterAll(async () => t?.close());

  const ask = (who: 'root' | 'member', payload: object) =>
    t.app.inject({ method: 'POST', url: '/api/ask', headers: headers[who], payload });
  const mentions = (body: string) => [...theirs.versions, ...theirs.documents, 'Vexmoor_'].some((id) => body.includes(id));

  it('scopes the admin, who reads both collections, to the company and year named', async () => {
    const res = (await ask('root', { question: 'What were Vexmoor’s net sales in FY2022?' })).json();
    expect(res.scope.documents.map((d: { file: string }) => d.file)).toEqual(['Vexmoor_2022_10K.txt']);
    expect(res.scope.summary).toBe("Searched Vexmoor_2022_10K.txt — named by 'Vexmoor' and 'FY2022'");
  });

  it('never reaches a collection the caller may not read: not by naming its company, not by picking its documents', async () => {
    const named = await ask('member', { question: 'What were Vexmoor’s net sales in FY2022?' });
    expect(named.statusCode).toBe(200);
    expect(named.json().scope).toBeUndefined();
    expect(mentions(named.body)).toBe(false);
    const picked = await ask('member', { question: 'What were net sales?', filters: { document_ids: theirs.documents } });
    expect(picked.statusCode).toBe(200);
    expect(picked.json().scope?.documents ?? []).toEqual([]);
    expect(mentions(picked.body)).toBe(false);
    const inTheirs = await ask('member', { question: 'What were Vexmoor’s net sales?', collection_id: cols.theirs });
    expect(inTheirs.statusCode).toBe(404);
    const own = (await ask('member', { question: 'What were Quillon’s net sales in FY2022?' })).json();
    expect(own.scope.documents.map((d: { file: string }) => d.file)).toEqual(['Quillon_2022_10K.txt']);
  });

  it('lets editors of the collection correct an identity, and no one else', async () => {
    const doc = theirs.documents[0] as string;
    const put = (who: 'root' | 'member', correction: object | null) =>
      t.app.inject({ method: 'PUT', url: `/api/documents/${doc}/identity`, headers: headers[who], payload: { correction } });
    expect((await put('member', { names: ['Mine now'] })).statusCode).toBe(404);
    const corrected = await put('root', { names: ['Vexmoor Holdings'], period: { fiscal_year: 2021, end_date: '2021-12-31' } });
    expect(corrected.statusCode).toBe(200);
    expect(corrected.json().identity.names).toEqual([{ value: 'Vexmoor Holdings', source: 'editor' }]);
    expect((await put('root', { names: [''] })).statusCode).toBe(400);
    expect((await put('root', null)).json().identity.names[0]).toEqual({ value: 'Vexmoor', source: 'file_name' });
  });
});
