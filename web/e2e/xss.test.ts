import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureWebBuilt, launchChromium, type RunningApi, resultsDir, startApi, uploadViaApi, waitForReady } from './harness.js';

/** Every payload sets window.__pp_pwned or opens a dialog if it ever runs. */
const PAYLOADS: Record<string, string> = {
  'xss.html': `<!doctype html><html><head><title>Quokka lanterns</title>
<script>window.__pp_pwned = 'html-script'; alert('html')</script></head>
<body><h1>Quokka lanterns</h1>
<p>The quokka protocol lights seven lanterns at dusk. <img src="x" onerror="window.__pp_pwned='html-img';alert('img')"></p>
<div><svg width="10" height="10" onload="window.__pp_pwned='svg-onload'"><script>window.__pp_pwned='svg-script'</script><circle r="4"/></svg> An inline drawing of a lantern.</div>
<p><a href="javascript:window.__pp_pwned='js-link'">A link to the lantern map</a> and <iframe src="javascript:parent.__pp_pwned='iframe'"></iframe> nothing else.</p>
</body></html>`,
  'xss.md': `# Quokka notes

The quokka protocol <script>window.__pp_pwned='md-script'</script> lights lanterns <img src=x onerror="window.__pp_pwned='md-img'"> at dusk.

<svg onload="window.__pp_pwned='md-svg'"><script>alert('md-svg')</script></svg>

[lantern map](javascript:alert('md-link'))
`,
  'xss.json': JSON.stringify(
    {
      title: "<script>window.__pp_pwned='json-script'</script>Quokka lanterns",
      body: `<img src=x onerror="window.__pp_pwned='json-img'"> The quokka protocol lights seven lanterns.`,
      nested: { svg: `<svg onload="alert('json-svg')"></svg>` },
    },
    null,
    2,
  ),
};

let api: RunningApi;
let browser: Browser;
let dir: string;

beforeAll(async () => {
  await ensureWebBuilt();
  dir = mkdtempSync(join(tmpdir(), 'pinpoint-xss-'));
  for (const [name, body] of Object.entries(PAYLOADS)) writeFileSync(join(dir, name), body);
  api = await startApi();
  browser = await launchChromium();
});

afterAll(async () => {
  await browser?.close();
  await api?.stop();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe('untrusted documents never execute in the reader', () => {
  it('serves the app with a strict Content-Security-Policy', async () => {
    const res = await fetch(`${api.base}/`);
    expect(res.headers.get('content-security-policy') ?? '').toMatch(/script-src 'self'/);
  });

  it('shows HTML, Markdown and JSON payloads as text and runs none of them', async () => {
    const files = Object.keys(PAYLOADS).map((name) => ({ name, bytes: readFileSync(join(dir, name)) }));
    const results = await uploadViaApi(api.base, files);
    for (const r of results) await waitForReady(api.base, r.version.version_id);

    for (const r of results) {
      const { elements } = (await (await fetch(`${api.base}/api/versions/${r.version.version_id}/elements`)).json()) as {
        elements: { element_id: string; text: string }[];
      };
      expect(elements.length).toBeGreaterThan(0);
      for (const el of elements.slice(0, 4)) {
        const page = await browser.newPage();
        let dialogs = 0;
        page.on('dialog', (d) => {
          dialogs++;
          void d.dismiss();
        });
        await page.goto(
          `${api.base}/#/cite?v=${encodeURIComponent(r.version.version_id)}&e=${encodeURIComponent(el.element_id)}`,
        );
        await page.waitForSelector(
          '[data-testid=text-view], [data-testid=cited-record], [data-testid=page], [data-testid=reader-error]',
        );
        await page.waitForTimeout(300);
        expect(await page.evaluate(() => (window as unknown as { __pp_pwned?: string }).__pp_pwned)).toBeUndefined();
        expect(dialogs).toBe(0);
        // nothing from the document became an element: no images, frames or svg in the reader
        expect(await page.locator('main img, main iframe, main svg, main script').count()).toBe(0);
        await page.close();
      }
      const page = await browser.newPage();
      await page.goto(
        `${api.base}/#/cite?v=${encodeURIComponent(r.version.version_id)}&e=${encodeURIComponent(elements[0]?.element_id ?? '')}`,
      );
      await page.waitForSelector('[data-testid=text-view]');
      await page.screenshot({ path: join(resultsDir, `xss-${r.file.replace('.', '-')}.png`), fullPage: true });
      if (r.file === 'xss.md') expect(await page.locator('[data-testid=text-view]').textContent()).toContain('<script>');
      // HTML and JSON: the raw source around the passage is shown, as text
      if (r.file !== 'xss.md') expect(await page.locator('[data-testid=raw-source]').textContent()).toMatch(/<script>|onerror/);
      await page.close();
    }
  }, 240_000);
});
