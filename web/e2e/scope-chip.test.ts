import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AskResponse } from '../src/api/types.js';
import { type LoadedApp, resultsDir, sharedDir, startWithFiles } from './harness.js';

/** Three companies' earnings releases, read in place: a question naming one is asked of its release. */
const docsDir = join(sharedDir, 'eval/financebench-dev/docs');
const FILES = ['AMCOR_2023Q4_EARNINGS.pdf', 'PEPSICO_2023Q1_EARNINGS.pdf', 'JOHNSON_JOHNSON_2022Q4_EARNINGS.pdf'];

let app: LoadedApp;

beforeAll(async () => {
  app = await startWithFiles(
    FILES.map((name) => ({ name, bytes: new Uint8Array(readFileSync(join(docsDir, name))) })),
    { readyTimeoutMs: 240_000 },
  );
  mkdirSync(resultsDir, { recursive: true });
}, 400_000);

afterAll(async () => {
  await app?.browser.close();
  await app?.api.stop();
});

async function ask(page: Page, question: string): Promise<AskResponse> {
  await page.fill('#question', question);
  const [res] = await Promise.all([page.waitForResponse((r) => r.url().endsWith('/api/ask')), page.press('#question', 'Enter')]);
  return (await res.json()) as AskResponse;
}

describe('the scope chip (real API, Chromium)', () => {
  it('shows what a question named was searched, and removing it asks the whole collection', async () => {
    const page = await app.browser.newPage({ viewport: { width: 1280, height: 900 } });
    await page.goto(`${app.api.base}/`);
    const scoped = await ask(page, 'What were Amcor’s net sales in fiscal 2023?');
    expect(scoped.scope?.documents.map((d) => d.file)).toEqual(['AMCOR_2023Q4_EARNINGS.pdf']);
    const chip = page.locator('[data-testid=scope-chip]');
    await chip.waitFor();
    // the chip is worded by the page's catalogue from the scope's documents and the words that named them
    expect(await chip.textContent()).toContain('Searched AMCOR_2023Q4_EARNINGS.pdf — named by “Amcor” and “fiscal 2023”');
    await page.screenshot({ path: join(resultsDir, 'scope-chip.png') });
    const [wide] = await Promise.all([
      page.waitForResponse((r) => r.url().endsWith('/api/ask')),
      chip.getByRole('button', { name: /Remove the scope/ }).click(),
    ]);
    expect(wide.request().postDataJSON()).toMatchObject({
      question: 'What were Amcor’s net sales in fiscal 2023?',
      scope: false,
    });
    const answer = (await wide.json()) as AskResponse;
    expect(answer.scope).toBeUndefined();
    await page.waitForSelector('[data-testid=answer], [data-testid=refusal]');
    expect(await page.locator('[data-testid=scope-chip]').count()).toBe(0);
    expect(page.url()).toContain('all=1');
    await page.screenshot({ path: join(resultsDir, 'scope-chip-removed.png') });
    await page.close();
  }, 120_000);

  it('lists each document’s identity, and asks about the documents the user picks', async () => {
    const page = await app.browser.newPage({ viewport: { width: 1280, height: 900 } });
    await page.goto(`${app.api.base}/#/documents`);
    const row = page.locator('[data-testid=document-row]', { hasText: 'PEPSICO_2023Q1_EARNINGS.pdf' });
    await row.locator('[data-testid=document-identity]').waitFor();
    const identity = await row.locator('[data-testid=document-identity]').textContent();
    expect(identity).toContain('PepsiCo');
    expect(identity).toContain('earnings release');
    expect(identity).toContain('FY2023 Q1');
    await page.screenshot({ path: join(resultsDir, 'documents-identity.png') });
    await row.locator('[data-testid=pick-document]').check();
    await page.locator('[data-testid=ask-picked]').click();
    await page.waitForSelector('#question');
    const answer = await ask(page, 'What was organic revenue growth?');
    expect(answer.scope).toMatchObject({ by: 'user', documents: [{ file: 'PEPSICO_2023Q1_EARNINGS.pdf' }] });
    expect(new Set(answer.retrieved.map((r) => r.file))).toEqual(new Set(['PEPSICO_2023Q1_EARNINGS.pdf']));
    await page.locator('[data-testid=scope-chip]').waitFor();
    expect(await page.locator('[data-testid=scope-chip]').textContent()).toContain('chosen by you');
    await page.close();
  }, 120_000);
});
