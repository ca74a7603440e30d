import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { askInPage, type LoadedApp, openCitationPill, resultsDir, sharedDir, startWithFiles } from './harness.js';

/** A 10-K whose cash-flow statement (page 60) and MD&A cash-flow table (page 46) hold PP&E purchases by year. */
const TENK = '3M_2018_10K.pdf';

let app: LoadedApp;

beforeAll(async () => {
  app = await startWithFiles(
    [{ name: TENK, bytes: new Uint8Array(readFileSync(join(sharedDir, 'eval/financebench-dev/docs', TENK))) }],
    { readyTimeoutMs: 400_000 },
  );
}, 480_000);

afterAll(async () => {
  await app?.browser.close();
  await app?.api.stop();
});

describe('a cited cell of a PDF statement in the reader (real API, Chromium)', () => {
  it('the answer is the cell under 2018, and its box alone is drawn on the page', async () => {
    const page = await app.browser.newPage({ viewport: { width: 1280, height: 1000 } });
    const answer = await askInPage(page, app.api.base, 'How much did 3M spend on purchases of PP&E in 2018?');
    const cited = answer.citations[0];
    expect(cited?.file).toBe(TENK);
    expect(cited?.quote).toMatch(/^\$?\s?\(1,577\)$/);
    const anchor = cited?.anchor;
    if (anchor?.kind !== 'page') throw new Error('not a page anchor');
    expect(anchor.boxes).toHaveLength(1);
    const [x0, y0, x1, y1] = anchor.boxes[0] as number[];
    expect((x1 as number) - (x0 as number)).toBeLessThan(90);
    expect((y1 as number) - (y0 as number)).toBeLessThan(15);
    const { resolved } = await openCitationPill(page);
    expect(resolved.precision).toBe('exact');
    expect(resolved.view.kind).toBe('page');
    const box = page.locator('[data-testid=highlight-box]').first();
    await box.waitFor();
    expect(await page.locator('[data-testid=highlight-box]').count()).toBe(1);
    await box.scrollIntoViewIfNeeded();
    await page.screenshot({ path: join(resultsDir, 'cell-pdf-statement.png') });
    await page.close();
  }, 180_000);

  it('a figure asked of the 10-K: stated first with its unit, line item and year, its one cell boxed', async () => {
    const page = await app.browser.newPage({ viewport: { width: 1280, height: 1000 } });
    const answer = await askInPage(page, app.api.base, "What was 3M's capital expenditure in 2018?");
    expect(answer.answer).toMatch(/^\$1,577 million — Purchases of property, plant and equipment \(PP&E\), 2018 \[1\]$/);
    expect(answer.value).toEqual({ number: 1577, scale: 'million', unit: 'USD' });
    expect(answer.citations).toHaveLength(1);
    const { resolved } = await openCitationPill(page, 1);
    expect(resolved.view.kind).toBe('page');
    await page.locator('[data-testid=highlight-box]').first().waitFor();
    expect(await page.locator('[data-testid=highlight-box]').count()).toBe(1);
    await page.locator('[data-testid=highlight-box]').first().scrollIntoViewIfNeeded();
    await page.screenshot({ path: join(resultsDir, 'figure-pdf-capex.png') });
    await page.close();
  }, 180_000);

  it('a computed ratio: the calculation table lists three operands, and each one’s mark opens its own cell', async () => {
    const page = await app.browser.newPage({ viewport: { width: 1280, height: 1000 } });
    const answer = await askInPage(page, app.api.base, "What is 3M's FY2018 fixed asset turnover ratio?");
    const operands = answer.calculation?.operands ?? [];
    expect(operands).toHaveLength(3);
    await page.locator('[data-testid=calculation]').waitFor();
    await page.screenshot({ path: join(resultsDir, 'figure-pdf-ratio.png') });
    for (const [i, operand] of operands.entries()) {
      const mark = page.locator('[data-testid=calculation-operand]').nth(i).locator('[data-testid=calculation-citation]');
      const [res] = await Promise.all([page.waitForResponse((r) => r.url().endsWith('/api/citations/resolve')), mark.click()]);
      const resolved = await res.json();
      const cited = answer.citations.find((c) => c.n === operand.n);
      expect(resolved.view.kind).toBe('page');
      expect(resolved.quote).toBe(cited?.quote);
      // the operand's figure is the cited cell: one box on its page
      expect(cited?.quote).toContain(operand.value.replace(/^\$\s?/, ''));
      await page.locator('[data-testid=highlight-box]').first().waitFor();
      expect(await page.locator('[data-testid=highlight-box]').count()).toBe(1);
      if (i === 0) await page.screenshot({ path: join(resultsDir, 'figure-pdf-ratio-operand.png') });
      // back to the answer for the next operand
      await page.goBack();
      await page.locator('[data-testid=calculation]').waitFor();
    }
    await page.close();
  }, 180_000);
});
