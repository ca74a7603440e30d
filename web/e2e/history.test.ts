import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureWebBuilt, launchChromium, type RunningApi, resultsDir, sharedDir, startApi } from './harness.js';

const repoRoot = fileURLToPath(new URL('../../', import.meta.url));
const FILE = join(sharedDir, 'eval/squad2-dev/docs/004_1973_oil_crisis.txt');
const QUESTION = 'When was OPEC production of oil being surpassed?';
const PASSWORD = 'a long enough password';

let api: RunningApi;
let browser: Browser;
let rootToken = '';
const ids: Record<string, string> = {};

/** `pnpm pinpoint …` on the server's data folder, as an operator would run it. */
function pinpoint(args: string[], input?: string): string {
  const tsx = join(repoRoot, 'node_modules', 'tsx', 'dist', 'cli.mjs');
  const r = spawnSync(process.execPath, [tsx, join(repoRoot, 'packages/cli/src/bin.ts'), ...args], {
    cwd: repoRoot,
    env: { ...process.env, PINPOINT_DATA_DIR: api.dataDir },
    input: input ?? '',
    encoding: 'utf8',
  });
  if (r.status !== 0) throw new Error(`pinpoint ${args.join(' ')}: ${r.stderr}`);
  return r.stdout;
}

async function asRoot(path: string, init: RequestInit = {}): Promise<Response> {
  return fetch(`${api.base}${path}`, {
    ...init,
    headers: { authorization: `Bearer ${rootToken}`, 'content-type': 'application/json', ...(init.headers ?? {}) },
  });
}

async function signedIn(email: string): Promise<Page> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 860 } });
  const page = await context.newPage();
  await page.goto(`${api.base}/`);
  await page.waitForSelector('h1#signin-heading');
  await page.fill('input[type=email]', email);
  await page.fill('input[type=password]', PASSWORD);
  await page.click('button[type=submit]');
  await page.waitForSelector('nav[aria-label=Main] >> text=History');
  return page;
}

beforeAll(async () => {
  await ensureWebBuilt();
  api = await startApi({ PINPOINT_AUTH: 'on', PINPOINT_PARSE_ISOLATE: 'false' });
  browser = await launchChromium();
  const setup = await fetch(`${api.base}/api/auth/setup`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: api.base },
    body: JSON.stringify({ email: 'root@example.com', password: PASSWORD }),
  });
  expect(setup.status).toBe(200);
  for (const who of ['editor', 'viewer']) {
    pinpoint(['users', 'add', `${who}@example.com`, '--password-stdin'], PASSWORD);
  }
  rootToken = JSON.parse(pinpoint(['tokens', 'create', 'root@example.com', '--json'])).token;
  const { collections } = await (await asRoot('/api/collections')).json();
  ids.collection = collections[0].collection_id;
  for (const who of ['editor', 'viewer']) {
    const { users } = await (await asRoot(`/api/users?email=${who}@example.com`)).json();
    const res = await asRoot(`/api/collections/${ids.collection}/members/${users[0].user_id}`, {
      method: 'PUT',
      body: JSON.stringify({ role: who }),
    });
    expect(res.status).toBe(200);
  }
}, 180_000);

afterAll(async () => {
  await browser?.close();
  await api?.stop();
});

describe('documents page, question history and feedback (PINPOINT_AUTH=on, Chromium)', () => {
  let editor: Page;

  it('an editor uploads a corpus file, asks, and gives feedback on the answer', async () => {
    editor = await signedIn('editor@example.com');
    await editor.waitForSelector('[data-testid=file-input]:enabled', { state: 'attached' });
    await editor.setInputFiles('[data-testid=file-input]', [FILE]);
    await editor.waitForSelector('[data-testid=file-row][data-state=ready]', { timeout: 120_000 });
    await editor.fill('#question', QUESTION);
    await editor.click('button[type=submit]');
    await editor.waitForSelector('[data-testid=answer]');
    expect(await editor.textContent('[data-testid=answer]')).toContain('1981');
    await editor.click('[data-testid=feedback] >> text=Wrong citation');
    await editor.fill('[data-testid=feedback] input', 'The second source is the better one');
    await editor.click('[data-testid=feedback] >> text=Send');
    await editor.waitForSelector('[data-testid=feedback] >> text=Saved: Wrong citation');
    await editor.screenshot({ path: join(resultsDir, 'history-feedback.png'), fullPage: true });
  }, 180_000);

  it('reopens the answer from the history, with citations that open the shared reader', async () => {
    await editor.click('nav >> text=History');
    await editor.waitForSelector('[data-testid=history-row]');
    expect(await editor.textContent('[data-testid=history-row]')).toContain('Wrong citation');
    await editor.screenshot({ path: join(resultsDir, 'history-list.png') });
    await editor.click(`[data-testid=history-row] >> text=${QUESTION}`);
    await editor.waitForSelector('[data-testid=history-entry] [data-testid=answer]');
    expect(await editor.textContent('[data-testid=history-entry]')).toContain('1981');
    expect(await editor.inputValue('[data-testid=feedback] input')).toBe('The second source is the better one');
    await editor.screenshot({ path: join(resultsDir, 'history-entry.png'), fullPage: true });
    const [res] = await Promise.all([
      editor.waitForResponse((r) => r.url().endsWith('/api/citations/resolve')),
      editor.locator('[data-testid=citation-pill]').first().click(),
    ]);
    expect(res.status()).toBe(200);
    await editor.waitForSelector('[data-testid=text-mark]');
    await editor.screenshot({ path: join(resultsDir, 'history-reader.png') });
    // back to the reopened entry, not to a new ask
    await editor.click('[data-testid=back-to-answer]');
    await editor.waitForSelector('[data-testid=history-entry] [data-testid=answer]');
    expect(await editor.locator('[data-testid=history-row]').count()).toBe(0);
  }, 60_000);

  it('a viewer sees the documents with their versions and state, and no reprocess or delete', async () => {
    const viewer = await signedIn('viewer@example.com');
    await viewer.click('nav >> text=Documents');
    await viewer.waitForSelector('[data-testid=document-row]');
    expect(await viewer.textContent('[data-testid=document-row]')).toContain('004_1973_oil_crisis.txt');
    expect(await viewer.textContent('[data-testid=version-state]')).toBe('ready');
    expect(await viewer.locator('[data-testid=document-row] >> text=Delete').count()).toBe(0);
    expect(await viewer.locator('[data-testid=document-row] >> text=Reprocess').count()).toBe(0);
    await viewer.click('[data-testid=document-row] button[aria-expanded]');
    await viewer.waitForSelector('[data-testid=version-row]');
    await viewer.screenshot({ path: join(resultsDir, 'documents-viewer.png') });
    await viewer.setViewportSize({ width: 390, height: 760 });
    await viewer.screenshot({ path: join(resultsDir, 'documents-viewer-narrow.png') });
    // the viewer's history is their own: the editor's question is not in it
    await viewer.click('nav >> text=History');
    await viewer.waitForSelector('text=No questions yet');
    await viewer.context().close();
  }, 60_000);

  it('the editor downloads through a signed URL, reprocesses, then deletes the document', async () => {
    await editor.click('nav >> text=Documents');
    await editor.waitForSelector('[data-testid=document-row] >> text=Delete');
    const [download] = await Promise.all([
      editor.waitForEvent('download'),
      editor.click('[data-testid=document-row] >> text=Download'),
    ]);
    expect(download.suggestedFilename()).toBe('004_1973_oil_crisis.txt');
    expect(download.url()).toMatch(/sig=/);
    await editor.click('[data-testid=document-row] >> text=Reprocess');
    await editor.waitForSelector('[data-testid=document-row] >> text=2 versions');
    await editor.waitForFunction(
      () => [...document.querySelectorAll('[data-testid=version-state]')].every((e) => e.textContent === 'ready'),
      undefined,
      { timeout: 120_000 },
    );
    await editor.click('[data-testid=document-row] button[aria-expanded]');
    await editor.waitForSelector('[data-testid=version-row] >> nth=1');
    await editor.screenshot({ path: join(resultsDir, 'documents-editor.png') });
    editor.once('dialog', (d) => void d.accept());
    await editor.click('[data-testid=document-row] >> text=Delete');
    await editor.waitForSelector('text=No documents yet');
    await editor.screenshot({ path: join(resultsDir, 'documents-deleted.png') });
    // the answer that cited it is withheld from now on
    await editor.click('nav >> text=History');
    await editor.click(`[data-testid=history-row] >> text=${QUESTION}`);
    await editor.waitForSelector('[data-testid=withheld]');
    await editor.screenshot({ path: join(resultsDir, 'history-withheld.png') });
  }, 180_000);

  it('an instance admin exports the feedback as eval questions', async () => {
    const res = await asRoot('/api/admin/feedback.jsonl');
    expect(res.status).toBe(200);
    const [line] = (await res.text())
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(line).toMatchObject({
      question: QUESTION,
      lang: 'en',
      answerable: true,
      answers: [],
      gold: [],
      feedback: { verdict: 'wrong_citation', note: 'The second source is the better one' },
    });
    const viewerRes = await fetch(`${api.base}/api/admin/feedback.jsonl`);
    expect(viewerRes.status).toBe(401);
  });
});
