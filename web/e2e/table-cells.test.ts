import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AskResponse, ResolvedCitation } from '../src/api/types.js';
import { askInPage, type LoadedApp, openCitationPill, resultsDir, sharedDir, startWithFiles } from './harness.js';

const docsDir = join(sharedDir, 'eval/wtq-dev/docs');
const CASES = [
  { file: '099_1999_South_Asian_Games.csv', question: 'how many gold medals did india win?', quote: '102', shot: 'cell-csv.png' },
  {
    file: '019_1981_Atlanta_Falcons_season.xlsx',
    question: 'What was the attendance of the Falcons game against the New Orleans Saints on September 6, 1981?',
    quote: '57,406',
    shot: 'cell-sheet.png',
  },
  {
    file: '140_2003_Australian_motorcycle_Grand_Prix.html',
    question: 'which rider earned only 2 points?',
    quote: 'Hugo Marchand',
    shot: 'cell-html.png',
  },
];

/** A corpus deck whose third slide holds a table (ColA … ColF over three rows of numbers). */
const PPTX = 'markitdown__test.pptx';

let app: LoadedApp;

beforeAll(async () => {
  app = await startWithFiles(
    [
      ...CASES.map((c) => ({ name: c.file, bytes: new Uint8Array(readFileSync(join(docsDir, c.file))) })),
      { name: PPTX, bytes: new Uint8Array(readFileSync(join(sharedDir, 'corpus/formats/pptx', PPTX))) },
    ],
    { readyTimeoutMs: 150_000 },
  );
}, 300_000);

afterAll(async () => {
  await app?.browser.close();
  await app?.api.stop();
});

async function askAndOpen(page: Page, question: string): Promise<{ answer: AskResponse; resolved: ResolvedCitation }> {
  const answer = await askInPage(page, app.api.base, question);
  return { answer, resolved: (await openCitationPill(page)).resolved };
}

describe('a cited table cell in the reader (real API, Chromium)', () => {
  it.each(CASES)(
    '$file: the answer cell is marked as a cell',
    async (c) => {
      const page = await app.browser.newPage({ viewport: { width: 1280, height: 900 } });
      const { answer, resolved } = await askAndOpen(page, c.question);
      expect(answer.citations[0]?.quote).toBe(c.quote);
      expect(resolved.precision).toBe('exact');
      if (resolved.view.kind === 'record') {
        // sheet and CSV grids: one cell marked inside its (lighter) cited row
        const cell = page.locator('[data-testid=cited-cell]');
        await cell.waitFor();
        expect(await cell.count()).toBe(1);
        expect((await cell.textContent())?.trim()).toBe(c.quote);
        expect(await page.locator('[data-testid=cited-record] [data-testid=cited-cell]').count()).toBe(1);
      } else {
        // HTML table: the cell's own text range is marked, inside its (lighter) row
        const mark = page.locator('[data-testid=text-mark]');
        await mark.waitFor();
        expect(await mark.textContent()).toBe(c.quote);
        const row = page.locator('[data-testid=text-row]');
        expect(await row.count()).toBe(1);
        expect(await page.locator('[data-testid=text-row] [data-testid=text-mark]').count()).toBe(1);
        expect((await row.textContent())?.length).toBeGreaterThan(c.quote.length);
        // and the table drawn as a grid above the text, the same cell marked there
        const gridCell = page.locator('[data-testid=table-grid] [data-testid=cited-record] [data-testid=cited-cell]');
        await gridCell.waitFor();
        expect(await page.locator('[data-testid=table-grid] [data-testid=cited-cell]').count()).toBe(1);
        expect((await gridCell.textContent())?.trim()).toBe(c.quote);
      }
      await page.screenshot({ path: join(resultsDir, c.shot) });
      await page.close();
    },
    120_000,
  );

  it('a slide table: the answer cell is drawn as its own box on the rendered slide', async () => {
    const page = await app.browser.newPage({ viewport: { width: 1280, height: 900 } });
    const { answer, resolved } = await askAndOpen(page, 'What is ColE in the row where ColA is 13?');
    expect(answer.citations[0]?.file).toBe(PPTX);
    expect(answer.citations[0]?.quote).toBe('17');
    expect(resolved.view.kind).toBe('page');
    const anchor = answer.citations[0]?.anchor;
    expect(anchor?.kind).toBe('page');
    // one box, the cell's, narrower than the slide table's row
    if (anchor?.kind !== 'page') throw new Error('not a page anchor');
    expect(anchor.boxes).toHaveLength(1);
    const [x0, , x1] = anchor.boxes[0] as number[];
    expect((x1 as number) - (x0 as number)).toBeLessThan(anchor.page_width * 0.3);
    await page.locator('[data-testid=highlight-box]').first().waitFor();
    expect(await page.locator('[data-testid=highlight-box]').count()).toBe(1);
    await page.screenshot({ path: join(resultsDir, 'cell-pptx.png') });
    await page.close();
  }, 120_000);
});
