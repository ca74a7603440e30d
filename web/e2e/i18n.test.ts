import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ja } from '../src/i18n/messages/ja.js';
import { zhHans } from '../src/i18n/messages/zh-Hans.js';
import { zhHant } from '../src/i18n/messages/zh-Hant.js';
import { ensureWebBuilt, launchChromium, type RunningApi, resultsDir, sharedDir, startApi } from './harness.js';
import { untranslatedText } from './untranslated.js';

const PASSWORD = 'a long enough password';
const ADMIN = 'kanri@example.jp';

/** One walk per language: a browser locale, its catalogue, and a document and question in that language. */
const WALKS = [
  {
    locale: 'ja-JP',
    lang: 'ja',
    messages: ja,
    file: join(sharedDir, 'eval/jsquad-dev/docs/016_アムハラ語.pdf'),
    question: 'アムハラ語の何音は非常に鋭い発音？',
  },
  {
    locale: 'zh-CN',
    lang: 'zh-Hans',
    messages: zhHans,
    file: join(sharedDir, 'eval/cmrc-dev/docs/051_潘仕成.pdf'),
    question: '潘仕成的祖籍在哪里？',
  },
  {
    locale: 'zh-TW',
    lang: 'zh-Hant',
    messages: zhHant,
    file: join(sharedDir, 'eval/drcd-dev/docs/016_温度.pdf'),
    question: '哪一種溫度的計量法是最常被使用的？',
  },
] as const;

let api: RunningApi;
let browser: Browser;

beforeAll(async () => {
  await ensureWebBuilt();
  api = await startApi({ PINPOINT_AUTH: 'on', PINPOINT_PARSE_ISOLATE: 'false' });
  browser = await launchChromium();
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await api?.stop();
});

type Walk = (typeof WALKS)[number];

/** The page in the walk's language (html lang, nothing English in the chrome), screenshotted for a look. */
async function check(page: Page, walk: Walk, step: string): Promise<void> {
  expect(await page.evaluate(() => document.documentElement.lang)).toBe(walk.lang);
  expect(await untranslatedText(page, walk.messages), `${walk.locale} ${step}`).toEqual([]);
  await page.screenshot({ path: join(resultsDir, `i18n-${walk.locale}-${step}.png`), fullPage: true });
}

async function signIn(page: Page, walk: Walk, first: boolean): Promise<void> {
  await page.goto(`${api.base}/`);
  const heading = await page.waitForSelector('h1#signin-heading');
  expect(await heading.textContent()).toBe(first ? walk.messages['signin.setupTitle'] : walk.messages['signin.title']);
  await check(page, walk, first ? 'setup' : 'signin');
  await page.fill('input[type=email]', ADMIN);
  await page.fill('input[type=password]', PASSWORD);
  await page.click('button[type=submit]');
  await page.waitForSelector(`header nav a[href="#/members"]`);
}

async function uploadAndAsk(page: Page, walk: Walk): Promise<void> {
  const name = walk.file.split('/').pop() ?? '';
  await page.setInputFiles('[data-testid=file-input]:not([disabled])', walk.file);
  await page.waitForSelector(`[data-testid=file-row][data-state=ready]:has-text("${name}")`, { timeout: 150_000 });
  await check(page, walk, 'upload');
  await page.fill('#question', walk.question);
  await page.press('#question', 'Enter');
  await page.waitForSelector('[data-testid=answer] [data-testid=gate-reason]', { timeout: 60_000 });
  // the reason line comes as a code from the API and is worded in the page's language
  expect(await page.textContent('[data-testid=gate-reason]')).toMatch(/[\p{Script=Han}\p{Script=Hiragana}]/u);
  await page.waitForSelector('[data-testid=source]');
  // the per-stage scores and timings, behind Details, are worded in the page's language too
  await page.click('[data-testid=sources-details]');
  await page.waitForSelector('[data-testid=stage-timings]');
  await check(page, walk, 'answer');
}

async function openCitation(page: Page, walk: Walk): Promise<void> {
  await page.click('[data-testid=citation-pill] >> nth=0');
  await page.waitForSelector('[data-testid=precision]');
  await page.waitForSelector('[data-testid=highlight-box]', { timeout: 60_000 });
  expect(await page.textContent('[data-testid=precision]')).toMatch(
    new RegExp(`^(${walk.messages['precision.exact']}|${walk.messages['precision.element']})$`),
  );
  await check(page, walk, 'citation');
}

/** Documents (a row opened to its versions), jobs, members, history and tokens. */
async function otherPages(page: Page, walk: Walk): Promise<void> {
  await page.goto(`${api.base}/#/documents`);
  await page.click('[data-testid=document-row] button[aria-expanded] >> nth=0');
  await page.waitForSelector('[data-testid=version-row]');
  await check(page, walk, 'documents');
  const views = [
    { step: 'jobs', hash: '#/admin', ready: '[data-testid=job-row]' },
    { step: 'members', hash: '#/members', ready: 'form select option' },
    { step: 'history', hash: '#/history', ready: '[data-testid=history-row]' },
    { step: 'tokens', hash: '#/tokens', ready: 'h1#tokens-heading' },
  ];
  for (const view of views) {
    await page.goto(`${api.base}/${view.hash}`);
    await page.waitForSelector(view.ready, { state: 'attached' });
    await check(page, walk, view.step);
  }
}

describe('the SPA in Japanese and Chinese (Chromium locale, PINPOINT_AUTH=on)', () => {
  for (const [i, walk] of WALKS.entries()) {
    it(`${walk.locale}: sign-in, upload, ask, a citation, documents, jobs and members show no English`, async () => {
      const context = await browser.newContext({ locale: walk.locale, viewport: { width: 1280, height: 860 } });
      const page = await context.newPage();
      try {
        await signIn(page, walk, i === 0);
        await uploadAndAsk(page, walk);
        await openCitation(page, walk);
        await otherPages(page, walk);
      } finally {
        await context.close();
      }
    }, 300_000);
  }
});

describe('Chromium started with --lang=ja', () => {
  it('shows the ask page in Japanese; a language picked in the header is remembered', async () => {
    // Headless Chromium on Linux ignores --lang for the page (navigator.languages stays en-US, measured
    // with --dump-dom); --accept-lang sets the languages a page sees, as --lang does in a desktop Chromium.
    const japanese = await launchChromium(['--lang=ja', '--accept-lang=ja']);
    try {
      const page = await japanese.newPage({ viewport: { width: 1280, height: 860 } });
      await page.goto(`${api.base}/`);
      await page.waitForSelector('h1#signin-heading');
      await page.fill('input[type=email]', ADMIN);
      await page.fill('input[type=password]', PASSWORD);
      await page.click('button[type=submit]');
      const ask = await page.waitForSelector('header nav a[href="#/"]');
      expect(await page.evaluate(() => navigator.languages[0])).toBe('ja');
      expect(await ask.textContent()).toBe(ja['nav.ask']);
      expect(await page.getAttribute('#question', 'placeholder')).toBe(ja['ask.placeholder']);
      expect(await untranslatedText(page, ja)).toEqual([]);
      await page.screenshot({ path: join(resultsDir, 'i18n-lang-ja-ask.png') });
      // a phone's width: the longer Japanese labels wrap, nothing is cut off (looked at by eye)
      await page.setViewportSize({ width: 390, height: 844 });
      await page.screenshot({ path: join(resultsDir, 'i18n-lang-ja-ask-narrow.png'), fullPage: true });
      await page.setViewportSize({ width: 1280, height: 860 });
      await page.selectOption('[data-testid=language-picker]', 'zh-Hant');
      await page.waitForSelector(`header nav a[href="#/"]:text-is("${zhHant['nav.ask']}")`);
      await page.reload();
      expect(await (await page.waitForSelector('header nav a[href="#/"]')).textContent()).toBe(zhHant['nav.ask']);
      expect(await page.evaluate(() => document.documentElement.lang)).toBe('zh-Hant');
    } finally {
      await japanese.close();
    }
  }, 120_000);
});
