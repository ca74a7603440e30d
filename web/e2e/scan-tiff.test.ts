import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PageView } from '../src/api/types.js';
import { askInPage, type LoadedApp, openCitationPill, resultsDir, sharedDir, startWithFiles } from './harness.js';

const ocrDev = join(sharedDir, 'eval/ocr-dev/files');
const work = mkdtempSync(join(tmpdir(), 'pp-e2e-tiff-'));
const sha256 = (b: Uint8Array) => createHash('sha256').update(b).digest('hex');

/** Two Group 4 fax pages of ocr-dev (English, scanned skewed by about 1.3°) joined by libtiff's tiffcp. */
function fax(): Uint8Array {
  const out = join(work, 'fax.tif');
  execFileSync('tiffcp', [join(ocrDev, 'img-04.tif'), join(ocrDev, 'img-49.tif'), out]);
  return new Uint8Array(readFileSync(out));
}

let app: LoadedApp;
const bytes = fax();

beforeAll(async () => {
  app = await startWithFiles([{ name: 'fax.tif', bytes }], { readyTimeoutMs: 400_000 });
}, 480_000);

afterAll(async () => {
  await app?.browser.close();
  await app?.api.stop();
  rmSync(work, { recursive: true, force: true });
});

describe('a multi-page Group 4 fax TIFF (real API, Chromium)', () => {
  it('is cited on its second page and opened in the reader at the word boxes, its PNG drawn', async () => {
    const page = await app.browser.newPage({ viewport: { width: 1280, height: 900 } });
    const answer = await askInPage(page, app.api.base, 'What does each packet include in connectionless mode?');
    expect(answer.refused).toBe(false);
    const cited = answer.citations.find((c) => c.file === 'fax.tif' && c.anchor.kind === 'page' && c.anchor.page_index === 1);
    expect(cited, JSON.stringify(answer.citations.map((c) => [c.file, c.anchor]))).toBeDefined();
    const { status, resolved } = await openCitationPill(page, cited?.n ?? 0);
    expect(status).toBe(200);
    const view = resolved.view as PageView;
    expect(view).toMatchObject({ kind: 'page', page_index: 1, unit: 'px', page_width: 1654, page_height: 2339 });
    expect(view.artifact_url).toMatch(/\/artifacts\/page-image\?name=1$/);
    const image = page.locator('[data-testid=page] img');
    await image.waitFor();
    const drawn = await image.evaluate((img: HTMLImageElement) => img.decode().then(() => [img.naturalWidth, img.naturalHeight]));
    expect(drawn).toEqual([1654, 2339]);
    const boxes = page.locator('[data-testid=highlight-box]');
    await boxes.first().waitFor();
    const shown = await image.boundingBox();
    if (!shown) throw new Error('the page image is not shown');
    const scale = shown.width / view.page_width;
    const [x0, y0] = view.boxes[0] ?? [0, 0];
    const first = await boxes.first().boundingBox();
    expect(Math.abs((first?.x ?? 0) - (shown.x + x0 * scale))).toBeLessThan(1.5);
    expect(Math.abs((first?.y ?? 0) - (shown.y + y0 * scale))).toBeLessThan(1.5);
    await page.screenshot({ path: join(resultsDir, 'reader-tiff-fax.png') });
    await page.close();
    // the original downloads byte-identical
    const original = await fetch(`${app.api.base}/api/versions/${cited?.version_id}/artifacts/original`);
    expect(original.status).toBe(200);
    expect(sha256(new Uint8Array(await original.arrayBuffer()))).toBe(sha256(bytes));
  }, 120_000);
});
