import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ja } from '../src/i18n/messages/ja.js';
import {
  ensureWebBuilt,
  launchChromium,
  type RunningApi,
  resultsDir,
  sharedDir,
  startApi,
  uploadViaApi,
  waitForReady,
} from './harness.js';
import { untranslatedText } from './untranslated.js';

/** Two real filings: the question names one of them by company and year. */
const FILES = ['3M_2018_10K.pdf', 'PEPSICO_2023_8K_dated-2023-05-05.pdf'];
const QUESTION = 'What is the FY2018 capital expenditure amount for 3M?';

let api: RunningApi;
let browser: Browser;

beforeAll(async () => {
  await ensureWebBuilt();
  api = await startApi({ PINPOINT_PARSE_ISOLATE: 'false' });
  browser = await launchChromium();
  const docs = join(sharedDir, 'eval/financebench-dev/docs');
  const results = await uploadViaApi(
    api.base,
    FILES.map((name) => ({ name, bytes: readFileSync(join(docs, name)), type: 'application/pdf' })),
  );
  for (const r of results) await waitForReady(api.base, r.version.version_id, 240_000);
}, 300_000);

afterAll(async () => {
  await browser?.close();
  await api?.stop();
});

async function japanesePage(): Promise<Page> {
  const context = await browser.newContext({ locale: 'ja-JP', viewport: { width: 1280, height: 860 } });
  return context.newPage();
}

describe('document identity and the question scope in Japanese', () => {
  it('shows each identity line worded in Japanese, with names and kinds as read', async () => {
    const page = await japanesePage();
    await page.goto(`${api.base}/#/documents`);
    const line = await page.waitForSelector(
      '[data-testid=document-row]:has-text("3M_2018_10K.pdf") [data-testid=document-identity]',
    );
    const text = (await line.textContent()) ?? '';
    expect(text).toContain('10-K');
    expect(text).toContain('2018年度');
    expect(await untranslatedText(page, ja)).toEqual([]);
    await page.click('[data-testid=pick-document] >> nth=0');
    expect(await page.textContent('[data-testid=ask-picked]')).toBe('選んだ 1 件の文書について質問する');
    await page.screenshot({ path: join(resultsDir, 'scope-ja-documents.png'), fullPage: true });
    await page.context().close();
  }, 60_000);

  it('words the scope chip from the scope’s documents and the question’s words, and removes it', async () => {
    const page = await japanesePage();
    await page.goto(`${api.base}/#/?q=${encodeURIComponent(QUESTION)}`);
    const chip = await page.waitForSelector('[data-testid=scope-chip]', { timeout: 60_000 });
    const text = (await chip.textContent()) ?? '';
    expect(text).toMatch(/^3M_2018_10K\.pdf（質問の「3M」.*「FY2018」.*に該当）を検索しました×$/);
    expect(text).not.toContain('Searched');
    expect(await untranslatedText(page, ja)).toEqual([]);
    await page.screenshot({ path: join(resultsDir, 'scope-ja-ask.png'), fullPage: true });
    await page.click(`[data-testid=scope-chip] button[aria-label="${ja['scope.remove']}"]`);
    await page.waitForSelector('[data-testid=scope-chip]', { state: 'detached', timeout: 60_000 });
    await page.context().close();
  }, 120_000);
});
