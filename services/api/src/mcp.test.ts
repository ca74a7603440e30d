import { createHash } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { McpError } from '@modelcontextprotocol/sdk/types.js';
import { freePort } from '@pinpoint/conformance';
import type { Citation } from '@pinpoint/core';
import { createGuardedEngine, createIdentity, principalOf } from '@pinpoint/engine';
import { chromium } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { McpTestClient } from '../test/mcp-test-client.js';
import { connectMcp, evalDoc, evalQuestion, resultText } from '../test/mcp-test-client.js';
import type { TestApp } from '../test/test-app.js';
import { startTestApp } from '../test/test-app.js';

const repoRoot = new URL('../../../', import.meta.url);
const resultsDir = fileURLToPath(new URL('test-results/mcp/', repoRoot));
const MD = '000_梅雨.md';
const PDF = '001_グスタフ_マーラー.pdf';
const question = evalQuestion;

describe('the MCP server over Streamable HTTP at /mcp (SDK client, auth on, real engine and reader)', () => {
  let t: TestApp;
  let base: string;
  let client: Client;
  let bob: McpTestClient;
  let aliceCollection: string;
  let aliceToken: string;
  const PASSWORD = 'correct horse battery';

  const call = async (name: string, args: Record<string, unknown>): Promise<CallToolResult> =>
    (await client.callTool({ name, arguments: args })) as CallToolResult;

  beforeAll(async () => {
    const port = await freePort();
    base = `http://127.0.0.1:${port}`;
    t = await startTestApp({
      PINPOINT_AUTH: 'on',
      PINPOINT_PORT: String(port),
      PINPOINT_PUBLIC_URL: base,
      PINPOINT_WEB_DIST: fileURLToPath(new URL('web/dist', repoRoot)),
    });
    const identity = createIdentity(t.access);
    const guarded = createGuardedEngine(t.engine, t.access);
    const alice = await identity.addUser('alice@x.test', PASSWORD);
    const bobUser = await identity.addUser('bob@x.test', PASSWORD);
    aliceCollection = (await guarded.createCollection(principalOf(alice), 'alice-docs')).collection_id;
    await guarded.createCollection(principalOf(bobUser), 'bob-docs');
    const results = await guarded.upload(principalOf(alice), aliceCollection, [
      { name: MD, bytes: evalDoc(MD), declaredMime: null },
      { name: PDF, bytes: evalDoc(PDF), declaredMime: null },
    ]);
    const versions = await t.engine.waitForVersions(
      results.map((r) => r.version.version_id),
      { timeoutMs: 120_000 },
    );
    expect(versions.map((v) => v.state)).toEqual(['ready', 'ready']);
    await t.app.listen({ host: '127.0.0.1', port });
    const token = async (userId: string) => `Bearer ${(await identity.createToken(userId, 'mcp')).token}`;
    aliceToken = await token(alice.user_id);
    ({ client } = await connectMcp(base, { authorization: aliceToken }));
    bob = await connectMcp(base, { authorization: await token(bobUser.user_id) });
  });
  afterAll(async () => {
    await client?.close();
    await bob?.client.close();
    await t?.close();
  });

  it('lists the five tools with input and output schemas', async () => {
    const { tools } = await client.listTools();
    expect(tools.map((x) => x.name).sort()).toEqual(['ask', 'get_document', 'list_collections', 'open_citation', 'search']);
    const byName = new Map(tools.map((x) => [x.name, x]));
    expect(byName.get('search')?.inputSchema).toMatchObject({
      type: 'object',
      required: ['query'],
      properties: { query: { type: 'string' }, collection_id: { type: 'string' }, k: { type: 'integer', maximum: 50 } },
      additionalProperties: false,
    });
    expect(byName.get('ask')?.inputSchema.required).toEqual(['question']);
    expect(byName.get('open_citation')?.inputSchema.required).toEqual(['citation']);
    expect(byName.get('get_document')?.inputSchema.required).toEqual(['document_id']);
    for (const tool of tools) {
      expect(tool.outputSchema?.type, tool.name).toBe('object');
      expect(tool.annotations?.readOnlyHint, tool.name).toBe(true);
    }
    expect(Object.keys(byName.get('ask')?.outputSchema?.properties ?? {})).toEqual(
      expect.arrayContaining(['answer', 'refused', 'citations']),
    );
  });

  it('answers with citations into the ingested file, as structuredContent and text', async () => {
    const r = await call('ask', { question: question('a10336p10q0') });
    expect(r.isError).toBeFalsy();
    const a = r.structuredContent as { refused: boolean; answer: string; citations: Citation[] };
    expect(a.refused).toBe(false);
    expect(a.answer).toContain('シベリア気団');
    const cite = a.citations[0];
    expect(cite).toMatchObject({ file: MD, precision: 'exact', anchor: { kind: 'text', unit: 'codepoint' } });
    expect(cite?.quote.length).toBeGreaterThan(0);
    expect(cite?.version_id).toMatch(/\S/);
    // the same answer object as POST /api/ask gives
    const http = await t.app.inject({
      method: 'POST',
      url: '/api/ask',
      headers: { authorization: aliceToken },
      payload: { question: question('a10336p10q0') },
    });
    expect(a.citations).toEqual(http.json().citations);
    expect(resultText(r)).toContain(`[1] ${MD}`);
  });

  it('refuses with no sources when the documents do not answer', async () => {
    const r = await call('ask', { question: 'What is the torque specification for the rear axle bolts of a 1987 tractor?' });
    const a = r.structuredContent as { refused: boolean; citations: Citation[] };
    expect(a.refused).toBe(true);
    expect(a.citations).toEqual([]);
    expect(resultText(r)).toMatch(/^Refused: /);
  });

  it('searches: ranked chunks with file, page, anchor and score', async () => {
    const r = await call('search', { query: 'マーラー ユダヤ教 改宗', k: 3 });
    const s = r.structuredContent as {
      hits: { rank: number; file: string; page_index?: number; anchor: { kind: string }; score: number }[];
    };
    expect(s.hits.length).toBeGreaterThan(0);
    expect(s.hits.length).toBeLessThanOrEqual(3);
    expect(s.hits.map((h) => h.rank)).toEqual(s.hits.map((_, i) => i + 1));
    const top = s.hits[0];
    expect(top).toMatchObject({ file: PDF, anchor: { kind: 'page' } });
    expect(top?.page_index).toBeGreaterThanOrEqual(0);
    expect(top?.score).toBeGreaterThan(0);
  });

  it('lists collections and describes a document with its versions and state', async () => {
    const cols = (await call('list_collections', {})).structuredContent as { collections: { name: string }[] };
    expect(cols.collections.map((c) => c.name)).toEqual(['alice-docs']);
    const a = (await call('ask', { question: question('a10336p10q0') })).structuredContent as { citations: Citation[] };
    const doc = await call('get_document', { document_id: a.citations[0]?.document_id });
    expect(doc.structuredContent).toMatchObject({ document: { name: MD }, versions: [{ state: 'ready', number: 1 }] });
    expect(resultText(doc)).toContain('ready');
  });

  it('needs an API token, and shows another user none of alice\u2019s collection', async () => {
    const anonymous = await fetch(`${base}/mcp`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
    });
    expect(anonymous.status).toBe(401);
    expect(((await anonymous.json()) as { error: { code: string } }).error.code).toBe('PP_UNAUTHORIZED');
    // the SPA's cookie session is not an agent's credential
    const login = await t.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: { email: 'alice@x.test', password: PASSWORD },
    });
    expect(login.statusCode).toBe(200);
    const viaSession = await fetch(`${base}/mcp`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        cookie: String(login.headers['set-cookie']).split(';')[0] as string,
      },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
    });
    expect(viaSession.status).toBe(401);

    const cols = (await bob.call('list_collections', {})).structuredContent as { collections: { name: string; role: string }[] };
    expect(cols.collections).toEqual([expect.objectContaining({ name: 'bob-docs', role: 'admin' })]);
    const answer = (await call('ask', { question: question('a10336p10q0') })).structuredContent as { citations: Citation[] };
    const cite = answer.citations[0] as Citation;
    const bobAsk = await bob.call('ask', { question: question('a10336p10q0') });
    expect(bobAsk.structuredContent).toMatchObject({ refused: true, citations: [] });
    const bobSearch = (await bob.call('search', { query: 'シベリア気団' })).structuredContent as { hits: unknown[] };
    expect(bobSearch.hits).toEqual([]);
    for (const [name, args] of [
      ['ask', { question: question('a10336p10q0'), collection_id: aliceCollection }],
      ['search', { query: 'シベリア気団', collection_id: aliceCollection }],
      ['get_document', { document_id: cite.document_id }],
      ['open_citation', { citation: cite }],
    ] as const) {
      const r = await bob.call(name, args);
      expect(r.isError, name).toBe(true);
      expect(resultText(r), name).toMatch(/^PP_NOT_FOUND: /);
    }
    // the same for a missing id: existence is not revealed
    const missing = await bob.call('get_document', { document_id: 'doc_missing' });
    expect(resultText(missing).replace(/doc_\w+/g, 'ID')).toBe(
      resultText(await bob.call('get_document', { document_id: cite.document_id })).replace(/doc_\w+/g, 'ID'),
    );
  });

  it('turns bad arguments into tool errors with their PP_ code and keeps serving', async () => {
    const cases: [string, Record<string, unknown>, string, RegExp][] = [
      ['ask', {}, 'PP_VALIDATION', /question/],
      ['ask', { question: '   ' }, 'PP_VALIDATION', /question/],
      ['search', { query: 'x', k: 500 }, 'PP_VALIDATION', /k: /],
      ['ask', { question: 'x', colection_id: 'y' }, 'PP_VALIDATION', /colection_id/],
      ['open_citation', { citation: { chunk_id: 'c' } }, 'PP_VALIDATION', /citation\.version_id/],
      ['get_document', { document_id: 'doc_missing' }, 'PP_NOT_FOUND', /./],
      ['open_citation', { citation: { version_id: 'ver_missing' } }, 'PP_NOT_FOUND', /./],
    ];
    for (const [name, args, code, message] of cases) {
      const r = await call(name, args);
      expect(r.isError, `${name} ${JSON.stringify(args)}`).toBe(true);
      expect(resultText(r)).toMatch(new RegExp(`^${code}: `));
      expect(r._meta?.['pinpoint/error']).toMatchObject({ code });
      expect(resultText(r)).toMatch(message);
    }
    const unknown = await client.callTool({ name: 'delete_everything', arguments: {} }).catch((e: unknown) => e);
    expect(unknown).toBeInstanceOf(McpError);
    expect((unknown as McpError).message).toContain('PP_NOT_FOUND');
    expect((unknown as McpError).data).toEqual({ code: 'PP_NOT_FOUND' });
    // a malformed JSON-RPC body is a JSON-RPC error, and the server still answers afterwards
    const broken = await fetch(`${base}/mcp`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', authorization: aliceToken },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 42 }),
    });
    expect(broken.status).toBe(400);
    expect(broken.headers.get('x-content-type-options')).toBe('nosniff');
    expect(broken.headers.get('cache-control')).toBe('no-store');
    expect(((await broken.json()) as { error: { code: number } }).error.code).toBeLessThan(0);
    expect((await call('list_collections', {})).isError).toBeFalsy();
  });

  it('open_citation gives an absolute reader link and a signed download of the original, for the caller', async () => {
    const a = (await call('ask', { question: question('a10743p4q1') })).structuredContent as { citations: Citation[] };
    const cite = a.citations.find((c) => c.file === PDF);
    expect(cite?.anchor.kind).toBe('page');
    const r = await call('open_citation', { citation: cite, question: question('a10743p4q1') });
    const link = r.structuredContent as { reader_url: string; download_url: string; precision: string; file: string };
    expect(link.reader_url.startsWith(`${base}/#/cite?`)).toBe(true);
    expect(link.download_url.startsWith(`${base}/api/download/`)).toBe(true);
    expect(link.file).toBe(PDF);
    expect(resultText(r)).toContain(link.reader_url);
    // the signed link works alone, with no token or cookie
    const download = await fetch(link.download_url);
    expect(download.status).toBe(200);
    const bytes = new Uint8Array(await download.arrayBuffer());
    expect(createHash('sha256').update(bytes).digest('hex')).toBe(createHash('sha256').update(evalDoc(PDF)).digest('hex'));
  });

  it('the reader opens an open_citation link at the highlight once the person signs in (Chromium, screenshot checked)', async () => {
    const a = (await call('ask', { question: question('a10743p4q1') })).structuredContent as { citations: Citation[] };
    const cite = a.citations.find((c) => c.file === PDF);
    if (cite?.anchor.kind !== 'page') throw new Error(`expected a page citation into ${PDF}`);
    const link = (await call('open_citation', { citation: cite, question: question('a10743p4q1') })).structuredContent as {
      reader_url: string;
    };
    const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--no-sandbox', '--disable-gpu'] });
    try {
      const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
      const errors: Error[] = [];
      page.on('pageerror', (e) => errors.push(e));
      await page.goto(link.reader_url);
      await page.waitForSelector('h1#signin-heading');
      await page.fill('input[type=email]', 'alice@x.test');
      await page.fill('input[type=password]', PASSWORD);
      await page.click('button[type=submit]');
      const boxes = page.locator('[data-testid=highlight-box]');
      await boxes.first().waitFor({ timeout: 30_000 });
      expect(page.url()).toBe(link.reader_url);
      expect(await boxes.count()).toBe(cite.anchor.boxes.length);
      const box = await boxes.first().boundingBox();
      expect(box && box.y >= 0 && box.y < 900 && box.width > 0).toBe(true);
      expect(await page.locator('[data-testid=precision]').textContent()).toMatch(/Exact/);
      mkdirSync(resultsDir, { recursive: true });
      await page.screenshot({ path: `${resultsDir}open-citation-pdf.png` });
      expect(errors).toEqual([]);
    } finally {
      await browser.close();
    }
  });
});
