import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AskResponse, PageView, ResolvedCitation, TextView } from '../src/api/types.js';
import {
  askInPage,
  ensureWebBuilt,
  launchChromium,
  openCitationPill,
  type RunningApi,
  resultsDir,
  sharedDir,
  startApi,
  uploadViaApi,
  waitForReady,
} from './harness.js';

const docsDir = join(sharedDir, 'eval/jsquad-dev/docs');
const MD = '000_梅雨.md';
const PDF = '001_グスタフ_マーラー.pdf';
const HTML = '002_生命の起源.html';
const questions = readFileSync(join(sharedDir, 'eval/jsquad-dev/questions.jsonl'), 'utf8')
  .split('\n')
  .filter(Boolean)
  .map((l) => JSON.parse(l) as { id: string; question: string; gold?: { file: string; page_index?: number }[] });
const question = (id: string) => {
  const q = questions.find((x) => x.id === id);
  if (!q) throw new Error(`question ${id} missing from questions.jsonl`);
  return q;
};

let api: RunningApi;
let browser: Browser;

beforeAll(async () => {
  await ensureWebBuilt();
  api = await startApi();
  browser = await launchChromium();
});

afterAll(async () => {
  await browser?.close();
  await api?.stop();
});

async function openPage(width = 1280): Promise<Page> {
  const page = await browser.newPage({ viewport: { width, height: 900 } });
  page.on('pageerror', (e) => {
    throw e;
  });
  return page;
}

/** Asks through the UI and returns the API's answer as the page received it. */
const ask = (page: Page, text: string): Promise<AskResponse> => askInPage(page, api.base, text);

/** Clicks the pill of the first citation into `file`; returns what the reader resolved. */
async function openCitation(page: Page, answer: AskResponse, file: string): Promise<ResolvedCitation> {
  const citation = answer.citations.find((c) => c.file === file);
  expect(citation, `the answer cites ${file}: ${JSON.stringify(answer.citations.map((c) => c.file))}`).toBeDefined();
  const { status, resolved } = await openCitationPill(page, citation?.n ?? 0);
  expect(status).toBe(200);
  return resolved;
}

describe('upload, ask and open citations in the reader (real API, Chromium)', () => {
  it('uploads a PDF and a Markdown file through the page and shows them ready', async () => {
    const page = await openPage();
    await page.goto(`${api.base}/`);
    // the input is enabled once the page knows its collection
    await page.waitForSelector('[data-testid=file-input]:enabled', { state: 'attached' });
    await page.setInputFiles('[data-testid=file-input]', [join(docsDir, MD), join(docsDir, PDF)]);
    await page
      .waitForFunction(() => document.querySelectorAll('[data-testid=file-row][data-state=ready]').length >= 2, undefined, {
        timeout: 170_000,
      })
      .catch(async (e: unknown) => {
        const rows = await page.locator('[data-testid=file-row]').allInnerTexts();
        const alert = await page.locator('[role=alert]').allInnerTexts();
        throw new Error(`files not ready: rows ${JSON.stringify(rows)}, alerts ${JSON.stringify(alert)}: ${String(e)}`);
      });
    await page.screenshot({ path: join(resultsDir, 'upload.png') });
    await page.close();
  }, 180_000);

  it('highlights exactly the cited codepoint range of the Markdown file', async () => {
    const page = await openPage();
    const q = question('a10336p10q0');
    const answer = await ask(page, q.question);
    expect(answer.refused).toBe(false);
    await page.screenshot({ path: join(resultsDir, 'answer.png'), fullPage: true });
    const resolved = await openCitation(page, answer, MD);
    expect(resolved.view.kind).toBe('text');
    const view = resolved.view as TextView;
    // The Markdown is rendered (no '#', '**' or list markers shown); every <mark> carries the source
    // offsets it shows. Checked here independently of the app's conversion, by codepoints.
    const chars = Array.from(view.text);
    await page.locator('[data-testid=text-mark]').first().waitFor();
    const marks = await page.$$eval('[data-testid=text-mark]', (els) =>
      els.map((e) => ({
        text: e.textContent ?? '',
        start: Number(e.getAttribute('data-start')),
        end: Number(e.getAttribute('data-end')),
      })),
    );
    expect(marks.length).toBeGreaterThan(0);
    for (const m of marks) {
      expect(m.text).toBe(chars.slice(m.start, m.end).join(''));
      expect(m.start).toBeGreaterThanOrEqual(view.start);
      expect(m.end).toBeLessThanOrEqual(view.end);
    }
    // nothing of the cited range that is shown is left unmarked: the marks cover the quote's words
    const quoteWords = resolved.quote
      .replace(/[#*_`>|-]/g, ' ')
      .split(/\s+/)
      .filter(Boolean);
    expect(
      marks
        .map((m) => m.text)
        .join('')
        .replace(/\s+/g, ''),
    ).toBe(quoteWords.join(''));
    expect(
      await page.locator('[data-testid=text-view] h1, [data-testid=text-view] h2, [data-testid=text-view] p').count(),
    ).toBeGreaterThan(0);
    const box = await page.locator('[data-testid=text-mark]').first().boundingBox();
    expect(box && box.y >= 0 && box.y < 900).toBe(true);
    await page.screenshot({ path: join(resultsDir, 'reader-text.png') });

    await page.click('[data-testid=back-to-answer]');
    await page.waitForSelector('[data-testid=answer]');
    await page.close();
  });

  it('marks the asked-for date inside the cited sentence, in the answer link and the reader', async () => {
    const page = await openPage();
    const answer = await ask(page, question('a10336p48q2').question);
    expect(answer.refused).toBe(false);
    expect(await page.locator('[data-testid=gate-reason]').textContent()).toMatch(/^Answered: the cited passage holds/);
    const cited = answer.citations.find((c) => c.mark);
    expect(cited?.mark?.text).toBe('1955年');
    expect(
      Array.from(cited?.quote ?? '')
        .slice(cited?.mark?.start, cited?.mark?.end)
        .join(''),
    ).toBe('1955年');
    await openCitation(page, answer, cited?.file ?? '');
    const mark = page.locator('[data-testid=answer-mark]');
    await mark.waitFor();
    expect(await mark.textContent()).toBe('1955年');
    await page.screenshot({ path: join(resultsDir, 'reader-answer-mark.png') });
    await page.close();
  });

  it('draws the PDF anchor boxes at their place on the rendered page', async () => {
    const page = await openPage();
    const q = question('a10743p4q1');
    const answer = await ask(page, q.question);
    const resolved = await openCitation(page, answer, PDF);
    expect(resolved.view.kind).toBe('page');
    const view = resolved.view as PageView;
    expect(view.boxes.length).toBeGreaterThan(0);
    const boxes = page.locator('[data-testid=highlight-box]');
    await boxes.first().waitFor();
    expect(await boxes.count()).toBe(view.boxes.length);
    const canvas = await page.locator('[data-testid=page-canvas]').boundingBox();
    if (!canvas) throw new Error('no rendered page');
    // the rendered page has the page's aspect: its scale maps anchor units to CSS pixels
    const rotated = view.rotation === 90 || view.rotation === 270;
    const scale = canvas.width / (rotated ? view.page_height : view.page_width);
    expect(canvas.height).toBeCloseTo((rotated ? view.page_width : view.page_height) * scale, 0);
    expect(view.rotation).toBe(0);
    for (let i = 0; i < view.boxes.length; i++) {
      const [x0, y0, x1, y1] = view.boxes[i] ?? [0, 0, 0, 0];
      const r = await boxes.nth(i).boundingBox();
      if (!r) throw new Error(`box ${i} not drawn`);
      expect(Math.abs(r.x - (canvas.x + x0 * scale))).toBeLessThan(1.5);
      expect(Math.abs(r.y - (canvas.y + y0 * scale))).toBeLessThan(1.5);
      expect(Math.abs(r.width - (x1 - x0) * scale)).toBeLessThan(1.5);
      expect(Math.abs(r.height - (y1 - y0) * scale)).toBeLessThan(1.5);
    }
    expect(await page.locator('[data-testid=precision]').textContent()).toMatch(/Exact|Element/);
    // the page's CSP lets pdf.js compile its WebAssembly decoders (JPEG 2000, ICC colour)
    const wasm = await page.evaluate(() =>
      WebAssembly.compile(new Uint8Array([0, 97, 115, 109, 1, 0, 0, 0])).then(
        () => 'compiled',
        (e: unknown) => String(e),
      ),
    );
    expect(wasm).toBe('compiled');
    await page.screenshot({ path: join(resultsDir, 'reader-page.png') });
    await page.close();
  });

  it('fits a phone screen: the cited box is shown at 375 px', async () => {
    const page = await openPage(375);
    const answer = await ask(page, question('a10743p4q1').question);
    await page.screenshot({ path: join(resultsDir, 'answer-375.png'), fullPage: true });
    await openCitation(page, answer, PDF);
    await page.locator('[data-testid=highlight-box]').first().waitFor();
    const width = await page.evaluate(() => document.documentElement.scrollWidth);
    expect(width).toBeLessThanOrEqual(375);
    await page.screenshot({ path: join(resultsDir, 'reader-page-375.png') });
    await page.close();
  });

  it('opens a shared citation link directly, without the answer page', async () => {
    const page = await openPage();
    const answer = await ask(page, question('a10336p10q0').question);
    const href = await page.locator('[data-testid=citation-pill]').first().getAttribute('href');
    await page.close();
    const fresh = await browser.newPage();
    await fresh.goto(`${api.base}/${href}`);
    await fresh.waitForSelector('[data-testid=text-mark], [data-testid=highlight-box]');
    expect(answer.citations.length).toBeGreaterThan(0);
    await fresh.close();
  });

  it('says the documents do not answer an unrelated question, with no sources', async () => {
    const page = await openPage();
    const answer = await ask(page, 'Quelle est la capitale de la Mongolie-Extérieure en 1921 ?');
    if (answer.refused) {
      expect(await page.locator('[data-testid=refusal]').textContent()).toContain("The documents don't answer this");
      expect(await page.locator('[data-testid=source]').count()).toBe(0);
      await page.screenshot({ path: join(resultsDir, 'refusal.png') });
    }
    await page.close();
  });

  it('shows a citation that does not fit its element as unresolved, with nothing highlighted', async () => {
    const { documents } = (await (await fetch(`${api.base}/api/documents`)).json()) as {
      documents: { document: { name: string }; versions: { version_id: string }[] }[];
    };
    const versionId = documents.find((d) => d.document.name === MD)?.versions[0]?.version_id ?? '';
    const { elements } = (await (await fetch(`${api.base}/api/versions/${versionId}/elements`)).json()) as {
      elements: { element_id: string; anchor: { kind: string; start: number; end: number; text_sha256: string } }[];
    };
    const el = elements[1];
    if (el?.anchor.kind !== 'text') throw new Error('expected a text element');
    // a range that lies outside the cited element cannot be confirmed from the stored map
    const anchor = { ...el.anchor, start: el.anchor.end + 5, end: el.anchor.end + 9 };
    const page = await openPage();
    await page.goto(
      `${api.base}/#/cite?${new URLSearchParams({ v: versionId, e: el.element_id, n: '1', a: JSON.stringify(anchor) })}`,
    );
    await page.locator('[data-testid=unresolved]').waitFor();
    expect(await page.locator('[data-testid=precision]').textContent()).toBe('Unresolved');
    expect(await page.locator('[data-testid=text-mark]').count()).toBe(0);
    expect(await page.locator('[data-testid=text-view]').count()).toBe(1);
    await page.screenshot({ path: join(resultsDir, 'reader-unresolved.png') });
    await page.close();
  });
  it('asks again in another collection picked in the header, instead of showing the cached answer', async () => {
    const page = await openPage();
    const text = question('a10336p10q0').question;
    const first = await ask(page, text);
    expect(first.refused).toBe(false);
    const created = await fetch(`${api.base}/api/collections`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'empty team' }),
    });
    const other = (await created.json()) as { collection_id: string };
    await page.goto(`${api.base}/`);
    await page.locator('[data-testid=collection-picker] option', { hasText: 'empty team' }).waitFor({ state: 'attached' });
    await page.selectOption('[data-testid=collection-picker]', other.collection_id);
    await page.fill('#question', text);
    const [res] = await Promise.all([
      page.waitForResponse((r) => r.url().endsWith('/api/ask')),
      page.press('#question', 'Enter'),
    ]);
    expect(JSON.parse(res.request().postData() ?? '{}')).toEqual({ question: text, collection_id: other.collection_id });
    expect(((await res.json()) as AskResponse).refused).toBe(true);
    await page.waitForSelector('[data-testid=refusal]');
    await page.screenshot({ path: join(resultsDir, 'collection-picker.png') });
    await page.close();
  });
  it('marks the cited sentence inside the HTML source: the raw span, tags dropped and entities decoded, is the quote', async () => {
    const [up] = await uploadViaApi(api.base, [{ name: HTML, bytes: readFileSync(join(docsDir, HTML)), type: 'text/html' }]);
    if (!up) throw new Error('no upload result');
    await waitForReady(api.base, up.version.version_id, 120_000);
    const page = await openPage();
    const answer = await ask(page, question('a111367p10q0').question);
    expect(answer.refused).toBe(false);
    const resolved = await openCitation(page, answer, HTML);
    const view = resolved.view as TextView;
    expect(view.raw, 'the HTML citation carries a raw range').toBeDefined();
    const mark = page.locator('[data-testid=raw-mark]');
    await mark.waitFor();
    const rawText = (await mark.textContent()) ?? '';
    const decoded = rawText
      .replace(/<[^>]*>/g, '')
      .replace(/&#x([0-9a-f]+);/gi, (_, h: string) => String.fromCodePoint(Number.parseInt(h, 16)))
      .replace(/&#(\d+);/g, (_, d: string) => String.fromCodePoint(Number(d)))
      .replaceAll('&lt;', '<')
      .replaceAll('&gt;', '>')
      .replaceAll('&quot;', '"')
      .replaceAll('&nbsp;', '\u00a0')
      .replaceAll('&amp;', '&');
    const squash = (t: string) => t.normalize('NFKC').replace(/\s+/gu, '');
    expect(squash(decoded)).toBe(squash(resolved.quote));
    // the sentence, not the whole paragraph: the span is about as long as the quote
    expect(Array.from(rawText).length).toBeLessThan(Array.from(resolved.quote).length * 2 + 40);
    const box = await mark.boundingBox();
    expect(box && box.height > 0).toBe(true);
    await page.screenshot({ path: join(resultsDir, 'reader-raw-html.png'), fullPage: true });
    await page.close();
  }, 180_000);
});
