import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AskResponse, PageView } from '../src/api/types.js';
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

/**
 * The README's two pictures: an answer with its numbered citations, and a citation opened at its
 * box on the PDF page. `pnpm screenshots` runs this file and copies them to docs/screenshots/.
 */
const docs = join(sharedDir, 'eval/squad2-dev/docs');
const FILES = ['006_Packet_switching.pdf', '001_Computational_complexity_theory.pdf', '002_Huguenot.html', '000_Normans.md'];
const QUESTION = 'What is circuit switching characterized by?';

let api: RunningApi;
let browser: Browser;

beforeAll(async () => {
  await ensureWebBuilt();
  api = await startApi();
  browser = await launchChromium();
  const results = await uploadViaApi(
    api.base,
    FILES.map((name) => ({ name, bytes: readFileSync(join(docs, name)) })),
  );
  for (const r of results) await waitForReady(api.base, r.version.version_id, 150_000);
}, 200_000);

afterAll(async () => {
  await browser?.close();
  await api?.stop();
});

async function ask(page: Page): Promise<AskResponse> {
  await page.goto(`${api.base}/`);
  await page.fill('#question', QUESTION);
  const [res] = await Promise.all([page.waitForResponse((r) => r.url().endsWith('/api/ask')), page.press('#question', 'Enter')]);
  const answer = (await res.json()) as AskResponse;
  await page.waitForSelector('[data-testid=answer]');
  return answer;
}

describe('the README pictures (real API, Chromium)', () => {
  it('shows an answer, then its citation at its box on the PDF page', async () => {
    const page = await browser.newPage({ viewport: { width: 1280, height: 820 }, locale: 'en-US' });
    const answer = await ask(page);
    expect(answer.refused).toBe(false);
    const cited = answer.citations.find((c) => c.file === FILES[0]);
    expect(cited, JSON.stringify(answer.citations.map((c) => c.file))).toBeDefined();
    await page.screenshot({ path: join(resultsDir, 'front-door-answer.png') });

    const pill = page
      .locator('[data-testid=citation-pill]')
      .filter({ hasText: new RegExp(`^${cited?.n}$`) })
      .first();
    const [res] = await Promise.all([page.waitForResponse((r) => r.url().endsWith('/api/citations/resolve')), pill.click()]);
    const view = ((await res.json()) as { view: PageView }).view;
    expect(view.kind).toBe('page');
    await page.locator('[data-testid=highlight-box]').first().waitFor();
    expect(await page.locator('[data-testid=highlight-box]').count()).toBe(view.boxes.length);
    await page.locator('[data-testid=highlight-box]').first().scrollIntoViewIfNeeded();
    await page.screenshot({ path: join(resultsDir, 'front-door-citation.png') });
    await page.close();
  }, 120_000);
});
