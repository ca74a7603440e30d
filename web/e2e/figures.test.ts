import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AskResponse, ResolvedCitation } from '../src/api/types.js';
import { ja } from '../src/i18n/messages/ja.js';
import { askInPage, type LoadedApp, openCitationPill, resultsDir, sharedDir, startWithFiles } from './harness.js';
import { untranslatedText } from './untranslated.js';

/** TAT-QA report tables, read in place: an HTML cash-flow summary and two Word notes. */
const docsDir = join(sharedDir, 'eval/tatqa-arith-dev/docs');
const HTML = '054_Summary_of_Cash_Flows.html';
const DOCX_SALES = '059_Net_sales_by_segment_and_industry_end.docx';
const DOCX_TAXES = '007_NOTE_13_TAXES_ON_INCOME.docx';
const CASH_QUESTION = 'What was the change in the Net cash provided by (used in) investing activities from 2017 to 2018?';
const SALES_QUESTION = 'What was the change in the amount for Appliances in 2019 from 2018?';

let app: LoadedApp;

beforeAll(async () => {
  app = await startWithFiles(
    [HTML, DOCX_SALES, DOCX_TAXES].map((name) => ({ name, bytes: new Uint8Array(readFileSync(join(docsDir, name))) })),
    { readyTimeoutMs: 150_000 },
  );
}, 300_000);

afterAll(async () => {
  await app?.browser.close();
  await app?.api.stop();
});

async function newPage(locale?: string): Promise<Page> {
  const context = await app.browser.newContext({ viewport: { width: 1280, height: 900 }, ...(locale ? { locale } : {}) });
  const page = await context.newPage();
  page.on('pageerror', (e) => {
    throw e;
  });
  return page;
}

/** The calculation table as shown: one row of texts per operand. */
async function shownOperands(page: Page): Promise<string[][]> {
  return page
    .locator('[data-testid=calculation-operand]')
    .evaluateAll((rows) => rows.map((r) => [...r.querySelectorAll('td')].map((td) => td.textContent?.trim() ?? '')));
}

/** Clicks the citation mark of the calculation's operand row `index` and returns what the reader resolved. */
async function openOperand(page: Page, index: number): Promise<ResolvedCitation> {
  const mark = page.locator('[data-testid=calculation-operand]').nth(index).locator('[data-testid=calculation-citation]');
  const [res] = await Promise.all([page.waitForResponse((r) => r.url().endsWith('/api/citations/resolve')), mark.click()]);
  expect(res.status()).toBe(200);
  return (await res.json()) as ResolvedCitation;
}

/** The grid's marked cell: its reference, its text, and the part drawn as cited. */
async function markedGridCell(page: Page): Promise<{ ref: string | null; text: string; mark: string | null }> {
  const cell = page.locator('[data-testid=table-grid] [data-testid=cited-record] [data-testid=cited-cell]');
  await cell.waitFor();
  expect(await page.locator('[data-testid=table-grid] [data-testid=cited-cell]').count()).toBe(1);
  const mark = cell.locator('[data-testid=grid-mark]');
  return {
    ref: await cell.getAttribute('data-ref'),
    text: (await cell.textContent()) ?? '',
    mark: (await mark.count()) > 0 ? await mark.textContent() : null,
  };
}

function operandsOf(answer: AskResponse) {
  expect(answer.calculation, answer.answer).toBeDefined();
  return answer.calculation?.operands ?? [];
}

describe('a computed figure: the calculation table and its cited cells (real API, Chromium)', () => {
  it('HTML report: each operand row shows label, value, period and a mark that opens its cell in the grid', async () => {
    const page = await newPage();
    const answer = await askInPage(page, app.api.base, CASH_QUESTION);
    const operands = operandsOf(answer);
    expect(operands.length).toBe(2);
    await page.locator('[data-testid=calculation]').waitFor();
    expect(await page.textContent('[data-testid=calculation-expression]')).toBe(answer.calculation?.expression);
    expect(await shownOperands(page)).toEqual(operands.map((o) => [o.label, o.value, o.period, String(o.n)]));
    await page.screenshot({ path: join(resultsDir, 'figures-calculation.png') });

    const resolved = await openOperand(page, 0);
    const cited = answer.citations.find((c) => c.n === operands[0]?.n);
    expect(page.url()).toContain(`n=${operands[0]?.n}`);
    expect(resolved.view.kind).toBe('text');
    expect(resolved.quote).toBe(cited?.quote);
    // the grid marks the operand's cell; the document text below still marks exactly the cited range
    const cell = await markedGridCell(page);
    expect(cell.text).toBe(operands[0]?.value);
    expect(await page.locator('[data-testid=table-grid] tr[data-header]').first().textContent()).toContain(operands[0]?.period);
    expect(await page.locator('[data-testid=text-mark]').textContent()).toBe(cited?.quote);
    await page.screenshot({ path: join(resultsDir, 'figures-html-grid.png') });
    await page.context().close();
  }, 120_000);

  it('Word report: the operand’s mark opens the Word table drawn as a grid, header row and cited cell marked', async () => {
    const page = await newPage();
    const answer = await askInPage(page, app.api.base, SALES_QUESTION);
    const operands = operandsOf(answer);
    expect(answer.citations.every((c) => c.file === DOCX_SALES)).toBe(true);
    await page.locator('[data-testid=calculation]').waitFor();
    expect(await shownOperands(page)).toEqual(operands.map((o) => [o.label, o.value, o.period, String(o.n)]));

    const resolved = await openOperand(page, 1);
    const anchor = answer.citations.find((c) => c.n === operands[1]?.n)?.anchor;
    expect(resolved.view.kind).toBe('record');
    expect(anchor?.kind === 'record' && anchor.cell_range).toBeTruthy();
    const cell = await markedGridCell(page);
    expect(cell.ref).toBe(anchor?.kind === 'record' ? anchor.cell_range : '');
    expect(cell.text).toBe(operands[1]?.value);
    const row = page.locator('[data-testid=table-grid] [data-testid=cited-record]');
    expect(await row.locator('th').textContent()).toBe(cell.ref?.replace(/^[A-Z]+/, ''));
    expect(await row.textContent()).toContain(operands[1]?.label);
    expect(await page.locator('[data-testid=table-grid] tr[data-header]').count()).toBeGreaterThan(0);
    // the Word table is a grid now, not a line of cells joined by │
    expect(await page.locator('[data-testid=cited-record]').count()).toBe(1);
    expect(await page.getByText('│').count()).toBe(0);
    await page.screenshot({ path: join(resultsDir, 'figures-docx-grid.png') });
    await page.context().close();
  }, 120_000);

  it('Word report: a stated figure’s citation opens its one cell in the grid', async () => {
    const page = await newPage();
    const answer = await askInPage(page, app.api.base, 'What is the valuation allowance in 2019?');
    expect(answer.calculation).toBeUndefined();
    expect(await page.locator('[data-testid=calculation]').count()).toBe(0);
    const { resolved } = await openCitationPill(page, 1);
    expect(answer.citations[0]?.file).toBe(DOCX_TAXES);
    expect(resolved.view.kind === 'record' && resolved.view.cell_range).toBeTruthy();
    const cell = await markedGridCell(page);
    expect(cell.ref).toBe(resolved.view.kind === 'record' ? resolved.view.cell_range : '');
    expect(cell.text).toBe(answer.citations[0]?.quote);
    await page.screenshot({ path: join(resultsDir, 'figures-docx-cell.png') });
    await page.context().close();
  }, 120_000);
});

describe('the sources list', () => {
  it('shows documents and passages; scores and stage timings only behind Details', async () => {
    const page = await newPage();
    await askInPage(page, app.api.base, CASH_QUESTION);
    const sources = await page.locator('[data-testid=source]').count();
    expect(sources).toBeGreaterThan(0);
    const toggle = page.locator('[data-testid=sources-details]');
    expect(await toggle.getAttribute('aria-expanded')).toBe('false');
    expect(await page.locator('[data-testid=source-scores]').count()).toBe(0);
    expect(await page.locator('[data-testid=stage-timings]').count()).toBe(0);
    await toggle.click();
    expect(await toggle.getAttribute('aria-expanded')).toBe('true');
    expect(await page.locator('[data-testid=source-scores]').count()).toBe(sources);
    expect(await page.textContent('[data-testid=stage-timings]')).toMatch(/\d/);
    await toggle.click();
    expect(await page.locator('[data-testid=source-scores]').count()).toBe(0);
    await page.context().close();
  }, 120_000);
});

describe('in Japanese', () => {
  it('the calculation table, the Details and the grid show no English', async () => {
    const page = await newPage('ja-JP');
    await askInPage(page, app.api.base, CASH_QUESTION);
    await page.locator('[data-testid=calculation]').waitFor();
    await page.click('[data-testid=sources-details]');
    await page.locator('[data-testid=stage-timings]').waitFor();
    expect(await untranslatedText(page, ja)).toEqual([]);
    expect(await page.textContent('[data-testid=calculation] thead')).toBe(
      [ja['calc.operand'], ja['calc.value'], ja['calc.period'], ja['calc.citation']].join(''),
    );
    await page.screenshot({ path: join(resultsDir, 'figures-ja-answer.png'), fullPage: true });
    await openOperand(page, 0);
    await markedGridCell(page);
    expect(await untranslatedText(page, ja)).toEqual([]);
    await page.screenshot({ path: join(resultsDir, 'figures-ja-grid.png') });
    await page.context().close();
  }, 120_000);
});
