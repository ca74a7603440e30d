import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AskResponse, ResolvedCitation } from '../src/api/types.js';
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

/** A 10-K whose cash-flow statement (page 60) and MD&A cash-flow table (page 46) hold PP&E purchases by year. */
const TENK = '3M_2018_10K.pdf';

let api: RunningApi;
let browser: Browser;

beforeAll(async () => {
  await ensureWebBuilt();
  api = await startApi();
  browser = await launchChromium();
  const [r] = await uploadViaApi(api.base, [
    { name: TENK, bytes: new Uint8Array(readFileSync(join(sharedDir, 'eval/financebench-dev/docs', TENK))) },
  ]);
  await waitForReady(api.base, r?.version.version_id as string, 400_000);
}, 480_000);

afterAll(async () => {
  await browser?.close();
  await api?.stop();
});

describe('a cited cell of a PDF statement in the reader (real API, Chromium)', () => {
  it('the answer is the cell under 2018, and its box alone is drawn on the page', async () => {
    const page = await browser.newPage({ viewport: { width: 1280, height: 1000 } });
    await page.goto(`${api.base}/`);
    await page.fill('#question', 'How much did 3M spend on purchases of PP&E in 2018?');
    const [res] = await Promise.all([
      page.waitForResponse((r) => r.url().endsWith('/api/ask')),
      page.press('#question', 'Enter'),
    ]);
    const answer = (await res.json()) as AskResponse;
    const cited = answer.citations[0];
    expect(cited?.file).toBe(TENK);
    expect(cited?.quote).toMatch(/^\$?\s?\(1,577\)$/);
    const anchor = cited?.anchor;
    if (anchor?.kind !== 'page') throw new Error('not a page anchor');
    expect(anchor.boxes).toHaveLength(1);
    const [x0, y0, x1, y1] = anchor.boxes[0] as number[];
    expect((x1 as number) - (x0 as number)).toBeLessThan(90);
    expect((y1 as number) - (y0 as number)).toBeLessThan(15);
    await page.waitForSelector('[data-testid=answer]');
    const pill = page.locator('[data-testid=citation-pill]').first();
    const [resolve] = await Promise.all([page.waitForResponse((r) => r.url().endsWith('/api/citations/resolve')), pill.click()]);
    const resolved = (await resolve.json()) as ResolvedCitation;
    expect(resolved.precision).toBe('exact');
    expect(resolved.view.kind).toBe('page');
    const box = page.locator('[data-testid=highlight-box]').first();
    await box.waitFor();
    expect(await page.locator('[data-testid=highlight-box]').count()).toBe(1);
    await box.scrollIntoViewIfNeeded();
    await page.screenshot({ path: join(resultsDir, 'cell-pdf-statement.png') });
    await page.close();
  }, 180_000);
});
