import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PageView, RecordView, ResolvedCitation, TextView } from '../src/api/types.js';
import {
  ensureWebBuilt,
  launchChromium,
  type RunningApi,
  resultsDir,
  type SettledVersion,
  sharedDir,
  startApi,
  uploadViaApi,
  waitForSettled,
} from './harness.js';

/** One real file per upload type (../shared/corpus/formats/<type>/). */
const FILES: Record<string, string> = {
  pdf: 'unstructured__rotated-page-90.pdf',
  docx: 'docling__word_tables.docx',
  doc: 'tika__testWORD_various.doc',
  pptx: 'docling__powerpoint_sample.pptx',
  ppt: 'tika__testPPT_various.ppt',
  xlsx: 'docling__xlsx_05_table_with_title.xlsx',
  xls: 'easyexcel__multiplesheets.xls',
  csv: 'docling__csv-comma-in-cell.csv',
  txt: 'tika__testTXTNonASCIIUTF8.txt',
  md: 'docling__ending_with_table.md',
  markdown: 'kreuzberg__tables.markdown',
  json: 'kreuzberg__complex_nested.json',
  html: 'docling__table_06.html',
  htm: 'unstructured__fake-html-pre.htm',
  png: 'tika__testOCR_spacing.png',
  jpg: 'tika__testOCR.jpg',
  jpeg: 'unstructured__chi_sim_image.jpeg',
};

let api: RunningApi;
let browser: Browser;
const settled = new Map<string, SettledVersion & { versionId: string }>();

beforeAll(async () => {
  await ensureWebBuilt();
  api = await startApi({
    PINPOINT_OCR: 'tesseract-cli',
    PINPOINT_OCR_LANGS: 'eng+chi_sim',
    PINPOINT_OFFICE_CONVERTER: 'libreoffice',
    PINPOINT_WORKER_CONCURRENCY: '2',
  });
  browser = await launchChromium();
  const files = Object.entries(FILES).map(([type, name]) => ({
    name,
    bytes: readFileSync(join(sharedDir, 'corpus/formats', type, name)),
  }));
  const results = await uploadViaApi(api.base, files);
  await Promise.all(
    results.map(async (r) => {
      const v = await waitForSettled(api.base, r.version.version_id, 400_000);
      settled.set(r.file, { ...v, versionId: r.version.version_id });
    }),
  );
}, 420_000);

afterAll(async () => {
  await browser?.close();
  await api?.stop();
});

/** Where a viewer shows an unrotated page point once the page is turned clockwise by `rotation`. */
function turn(x: number, y: number, w: number, h: number, rotation: number): [number, number] {
  const rad = (rotation * Math.PI) / 180;
  const cos = Math.round(Math.cos(rad));
  const sin = Math.round(Math.sin(rad));
  const rot = (px: number, py: number): [number, number] => [px * cos - py * sin, px * sin + py * cos];
  const corners = [rot(0, 0), rot(w, 0), rot(0, h), rot(w, h)];
  const [rx, ry] = rot(x, y);
  return [rx - Math.min(...corners.map((c) => c[0])), ry - Math.min(...corners.map((c) => c[1]))];
}

async function checkPage(page: Page, view: PageView): Promise<void> {
  const rendered = await page.locator('[data-testid=page]').boundingBox();
  if (!rendered) throw new Error('page not rendered');
  const turned = view.rotation === 90 || view.rotation === 270;
  const scale = rendered.width / (turned ? view.page_height : view.page_width);
  const boxes = page.locator('[data-testid=highlight-box]');
  expect(await boxes.count()).toBe(view.boxes.length);
  for (let i = 0; i < view.boxes.length; i++) {
    const [x0, y0, x1, y1] = view.boxes[i] ?? [0, 0, 0, 0];
    const [ax, ay] = turn(x0 * scale, y0 * scale, view.page_width * scale, view.page_height * scale, view.rotation);
    const [bx, by] = turn(x1 * scale, y1 * scale, view.page_width * scale, view.page_height * scale, view.rotation);
    const r = await boxes.nth(i).boundingBox();
    if (!r) throw new Error(`box ${i} not drawn`);
    expect(Math.abs(r.x - (rendered.x + Math.min(ax, bx)))).toBeLessThan(1.5);
    expect(Math.abs(r.y - (rendered.y + Math.min(ay, by)))).toBeLessThan(1.5);
    expect(Math.abs(r.width - Math.abs(bx - ax))).toBeLessThan(1.5);
    expect(Math.abs(r.height - Math.abs(by - ay))).toBeLessThan(1.5);
  }
}

/**
 * Plain text: one mark holding exactly the cited slice. Rendered Markdown: the cited range may run
 * through markup (a table's cells), so each mark says which codepoints it shows; each must show
 * exactly those, inside the cited range.
 */
async function checkText(page: Page, view: TextView): Promise<void> {
  const cps = Array.from(view.text);
  const marks = await page
    .locator('[data-testid=text-mark]')
    .evaluateAll((els) =>
      els.map((e) => ({ text: e.textContent ?? '', start: e.getAttribute('data-start'), end: e.getAttribute('data-end') })),
    );
  const ranged = marks.filter((m) => m.start !== null && m.end !== null);
  if (ranged.length === 0) {
    expect(marks[0]?.text).toBe(cps.slice(view.start, view.end).join(''));
    return;
  }
  for (const m of ranged) {
    const [start, end] = [Number(m.start), Number(m.end)];
    expect(start).toBeGreaterThanOrEqual(view.start);
    expect(end).toBeLessThanOrEqual(view.end);
    expect(m.text).toBe(cps.slice(start, end).join(''));
  }
}

async function checkRecord(page: Page, view: RecordView): Promise<void> {
  const record = view.records.find((r) => r.record_id === view.record_id);
  expect(record).toBeDefined();
  const row = page.locator('[data-testid=cited-record]');
  expect(await row.count()).toBe(1);
  const shown = (await row.textContent()) ?? '';
  for (const cell of record?.cells ?? []) expect(shown).toContain(cell.value);
  if (!record?.cells) expect(shown).toContain(record?.text ?? '');
  if (view.cell_range) expect(await page.locator('[data-testid=cited-cell]').count()).toBeGreaterThan(0);
}

describe('every upload type opens at its anchor in the reader (real API, Chromium)', () => {
  for (const [type, name] of Object.entries(FILES)) {
    it(`${type}: ${name}`, async () => {
      const v = settled.get(name);
      expect(v?.state, `${name}: ${v?.error_code} ${v?.error_message}`).toBe('ready');
      const { elements } = (await (await fetch(`${api.base}/api/versions/${v?.versionId}/elements`)).json()) as {
        elements: { element_id: string; text: string }[];
      };
      const candidates = elements.filter((e) => e.text.trim().length > 2);
      const el = candidates[Math.floor(candidates.length / 2)];
      expect(el, `${name} has elements with text`).toBeDefined();
      const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
      page.on('pageerror', (e) => {
        throw e;
      });
      const [res] = await Promise.all([
        page.waitForResponse((r) => r.url().endsWith('/api/citations/resolve')),
        page.goto(`${api.base}/#/cite?v=${encodeURIComponent(v?.versionId ?? '')}&e=${encodeURIComponent(el?.element_id ?? '')}`),
      ]);
      expect(res.status()).toBe(200);
      const resolved = (await res.json()) as ResolvedCitation;
      expect(resolved.precision).not.toBe('unresolved');
      const { view } = resolved;
      if (view.kind === 'page') {
        await page.locator('[data-testid=highlight-box]').first().waitFor();
        await checkPage(page, view);
      } else if (view.kind === 'text') {
        await page.locator('[data-testid=text-mark]').first().waitFor();
        await checkText(page, view);
      } else {
        await page.locator('[data-testid=cited-record]').waitFor();
        await checkRecord(page, view);
      }
      await page.screenshot({ path: join(resultsDir, `corpus-${type}.png`) });
      await page.close();
    });
  }
});
