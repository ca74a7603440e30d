import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { askInPage, type LoadedApp, openCitationPill, resultsDir, sharedDir, startWithFiles } from './harness.js';

/**
 * The README's two pictures: an answer with its numbered citations, and a citation opened at its
 * box on the PDF page. `pnpm screenshots` runs this file and copies them to docs/screenshots/.
 */
const docs = join(sharedDir, 'eval/squad2-dev/docs');
const FILES = ['006_Packet_switching.pdf', '001_Computational_complexity_theory.pdf', '002_Huguenot.html', '000_Normans.md'];
const QUESTION = 'What is circuit switching characterized by?';

let app: LoadedApp;

beforeAll(async () => {
  app = await startWithFiles(
    FILES.map((name) => ({ name, bytes: readFileSync(join(docs, name)) })),
    { readyTimeoutMs: 150_000 },
  );
}, 200_000);

afterAll(async () => {
  await app?.browser.close();
  await app?.api.stop();
});

describe('the README pictures (real API, Chromium)', () => {
  it('shows an answer, then its citation at its box on the PDF page', async () => {
    const page = await app.browser.newPage({ viewport: { width: 1280, height: 820 }, locale: 'en-US' });
    const answer = await askInPage(page, app.api.base, QUESTION);
    expect(answer.refused).toBe(false);
    const cited = answer.citations.find((c) => c.file === FILES[0]);
    expect(cited, JSON.stringify(answer.citations.map((c) => c.file))).toBeDefined();
    await page.screenshot({ path: join(resultsDir, 'front-door-answer.png') });

    const { view } = (await openCitationPill(page, cited?.n)).resolved;
    if (view.kind !== 'page') throw new Error(`the citation opened a ${view.kind} view, not the PDF page`);
    await page.locator('[data-testid=highlight-box]').first().waitFor();
    expect(await page.locator('[data-testid=highlight-box]').count()).toBe(view.boxes.length);
    await page.locator('[data-testid=highlight-box]').first().scrollIntoViewIfNeeded();
    await page.screenshot({ path: join(resultsDir, 'front-door-citation.png') });
    await page.close();
  }, 120_000);
});
