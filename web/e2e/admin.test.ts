import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
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

const docs = join(sharedDir, 'eval/jsquad-dev/docs');
const GOOD = [
  '000_梅雨.md',
  '001_グスタフ_マーラー.pdf',
  '002_生命の起源.html',
  '003_RKBラジオ.docx',
  '004_国際連合平和維持活動.txt',
];

let api: RunningApi;
let browser: Browser;
let page: Page;

beforeAll(async () => {
  await ensureWebBuilt();
  // LibreOffice makes slide conversion slow enough to cancel a job while it runs
  api = await startApi({ PINPOINT_OFFICE_CONVERTER: 'libreoffice' });
  browser = await launchChromium();
  page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
});

afterAll(async () => {
  await browser?.close();
  await api?.stop();
});

const rowStates = () => page.$$eval('[data-testid=job-row]', (rows) => rows.map((r) => (r as HTMLElement).dataset.state ?? ''));

describe('admin job console (real API, Chromium)', () => {
  it('shows a live batch with progress, failures with their codes, and filters', async () => {
    await page.goto(`${api.base}/#/admin`);
    await page.waitForSelector('h1#jobs-heading');
    const files = [
      ...GOOD.map((name) => ({ name, bytes: readFileSync(join(docs, name)) })),
      { name: 'really-html.pdf', bytes: new TextEncoder().encode('<html><body>not a pdf</body></html>') },
      { name: 'empty.txt', bytes: new Uint8Array() },
    ];
    await uploadViaApi(api.base, files);
    // the jobs arrive over the event stream, without a reload
    await page.waitForFunction(() => document.querySelectorAll('[data-testid=job-row]').length >= 7, undefined, {
      timeout: 30_000,
    });
    await page.screenshot({ path: join(resultsDir, 'admin-live.png') });
    await page.waitForFunction(
      () =>
        [...document.querySelectorAll<HTMLElement>('[data-testid=job-row]')].every((r) =>
          ['succeeded', 'failed', 'cancelled'].includes(r.dataset.state ?? ''),
        ),
      undefined,
      { timeout: 150_000 },
    );
    const states = await rowStates();
    expect(states.filter((s) => s === 'succeeded').length).toBe(GOOD.length);
    expect(states.filter((s) => s === 'failed').length).toBe(2);
    const failed = page.locator('[data-testid=job-row][data-state=failed]');
    expect(await failed.first().textContent()).toMatch(/PP_[A-Z_]+/);
    await page.screenshot({ path: join(resultsDir, 'admin.png'), fullPage: true });

    await page.selectOption('main select', 'failed');
    expect(new Set(await rowStates())).toEqual(new Set(['failed']));
    await page.selectOption('main select', 'all');
  }, 200_000);

  it('retries a failed job through the API', async () => {
    const row = page.locator('[data-testid=job-row][data-state=failed]').first();
    const [res] = await Promise.all([
      page.waitForResponse((r) => /\/api\/jobs\/[^/]+\/retry$/.test(r.url())),
      row.getByRole('button', { name: 'Retry' }).click(),
    ]);
    expect(res.status()).toBe(200);
  });

  it('re-processes a document into a new version; the old citation says so and keeps its highlight', async () => {
    const mdRow = page.locator('[data-testid=job-row]', { hasText: '000_梅雨.md' }).first();
    const before = (await rowStates()).length;
    const [res] = await Promise.all([
      page.waitForResponse((r) => /\/reprocess$/.test(r.url())),
      mdRow.getByRole('button', { name: 'Re-process' }).click(),
    ]);
    expect(res.status()).toBe(201);
    const { version } = (await res.json()) as { version: { version_id: string } };
    await page.waitForFunction((n) => document.querySelectorAll('[data-testid=job-row]').length > n, before);
    await waitForReady(api.base, version.version_id);

    const { documents } = (await (await fetch(`${api.base}/api/documents`)).json()) as {
      documents: { document: { name: string }; versions: { version_id: string; number: number }[] }[];
    };
    const md = documents.find((d) => d.document.name === '000_梅雨.md');
    const v1 = md?.versions.find((v) => v.number === 1);
    expect(v1 && v1.version_id !== version.version_id).toBe(true);
    const { elements } = (await (await fetch(`${api.base}/api/versions/${v1?.version_id}/elements`)).json()) as {
      elements: { element_id: string; text: string }[];
    };
    const el = elements[2] ?? elements[0];
    const reader = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    await reader.goto(`${api.base}/#/cite?v=${v1?.version_id}&e=${el?.element_id}`);
    await reader.waitForSelector('[data-testid=newer-version]');
    expect(await reader.locator('[data-testid=text-mark]').textContent()).toBe(el?.text);
    await reader.screenshot({ path: join(resultsDir, 'reader-newer-version.png') });

    // the notice offers the newer version: it opens from its start, with nothing highlighted
    await reader.click('[data-testid=open-newer-version]');
    await reader.waitForSelector('[data-testid=version-elements]');
    expect(reader.url()).toContain(`v=${version.version_id}`);
    expect(await reader.locator('#version-title').textContent()).toMatch(/version 2/);
    for (const highlight of ['text-mark', 'raw-mark', 'highlight-box', 'cited-record', 'quote']) {
      expect(await reader.locator(`[data-testid=${highlight}]`).count()).toBe(0);
    }
    expect(await reader.locator('mark').count()).toBe(0);
    expect(await reader.locator('[data-testid=version-elements] li').first().textContent()).toBe(elements[0]?.text);
    // the same text re-processed: the cited element is found again, labelled as a possible match only
    const match = reader.locator('[data-testid=possible-match]');
    expect(await match.textContent()).toMatch(/not the cited place/);
    expect(await match.textContent()).toContain(el?.text);
    await reader.screenshot({ path: join(resultsDir, 'reader-newer-version-opened.png'), fullPage: true });

    await reader.click('[data-testid=back-to-citation]');
    await reader.waitForSelector('[data-testid=text-mark]');
    expect(reader.url()).toContain(`v=${v1?.version_id}`);
    expect(await reader.locator('[data-testid=text-mark]').textContent()).toBe(el?.text);
    await reader.waitForSelector('[data-testid=newer-version]');
    await reader.screenshot({ path: join(resultsDir, 'reader-newer-version-back.png') });
    await reader.close();
  }, 120_000);

  it('refuses to show a citation whose stored records no longer match their hash (409)', async () => {
    const { documents } = (await (await fetch(`${api.base}/api/documents`)).json()) as {
      documents: { document: { name: string }; versions: { version_id: string }[] }[];
    };
    const versionId = documents.find((d) => d.document.name === '003_RKBラジオ.docx')?.versions[0]?.version_id ?? '';
    const detail = (await (await fetch(`${api.base}/api/versions/${versionId}`)).json()) as {
      artifacts: { kind: string; blob_key: string }[];
    };
    const { elements } = (await (await fetch(`${api.base}/api/versions/${versionId}/elements`)).json()) as {
      elements: { element_id: string }[];
    };
    const records = detail.artifacts.find((a) => a.kind === 'records.jsonl');
    expect(records).toBeDefined();
    writeFileSync(
      join(api.dataDir, 'blobs', records?.blob_key ?? ''),
      '{"record_id":"tampered","kind":"paragraph","text":"x"}\n',
    );
    const reader = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    await reader.goto(`${api.base}/#/cite?v=${versionId}&e=${elements[1]?.element_id ?? ''}`);
    const error = reader.locator('[data-testid=reader-error]');
    await error.waitFor();
    expect(await error.textContent()).toMatch(/no longer matches/);
    expect(await reader.locator('[data-testid=cited-record]').count()).toBe(0);
    await reader.screenshot({ path: join(resultsDir, 'reader-hash-mismatch.png') });
    await reader.close();
  });

  it('cancels a running or queued job; it ends cancelled', async () => {
    await page.goto(`${api.base}/#/admin`);
    await page.waitForSelector('[data-testid=job-row]');
    const ppt = 'tika__testPPT_various.ppt';
    await uploadViaApi(api.base, [{ name: ppt, bytes: readFileSync(join(sharedDir, 'corpus/formats/ppt', ppt)) }]);
    const row = page.locator('[data-testid=job-row]', { hasText: ppt });
    await row.waitFor();
    const [res] = await Promise.all([
      page.waitForResponse((r) => /\/api\/jobs\/[^/]+\/cancel$/.test(r.url())),
      row.getByRole('button', { name: 'Cancel' }).click(),
    ]);
    expect(res.status()).toBe(200);
    await page.waitForSelector(`[data-testid=job-row][data-state=cancelled]:has-text("${ppt}")`, { timeout: 60_000 });
    await page.screenshot({ path: join(resultsDir, 'admin-cancelled.png') });
  }, 90_000);
});
