import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as XLSX from '@e965/xlsx';
import JSZip from 'jszip';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AskResponse } from '../src/api/types.js';
import { ensureWebBuilt, launchChromium, type RunningApi, resultsDir, startApi, uploadViaApi, waitForReady } from './harness.js';

/**
 * An XSS corpus in every text format Pinpoint accepts. Each payload, if it ever ran, would call
 * window.__pp_hook (installed by the page's init script), open a dialog, load from pwned.invalid or
 * navigate away; the test watches for all of these while the answer view and the reader show each file.
 */
const EVIL = 'pwned.invalid';

/** Markup payloads carried as text: the format's own text holds them literally. */
function markupPayloads(f: string): string[] {
  const h = (id: string) => `__pp_hook('${f}-${id}')`;
  return [
    `<script>${h('script')}</script>`,
    `<img src="http://${EVIL}/${f}.png" onerror="${h('img')}">`,
    `<svg onload="${h('svg')}"><script>${h('svg-script')}</script></svg>`,
    `<a href="javascript:${h('link')}">the lantern map</a>`,
    `<iframe src="javascript:parent.${h('iframe')}"></iframe>`,
    `"><body onload="${h('body')}">`,
    `&lt;script&gt;${h('entity')}&lt;/script&gt; &#60;img src=x onerror=${h('numeric')}&#62;`,
    `<math><mtext><table><mglyph><style><img src=x onerror="${h('mxss')}">`,
    `<details open ontoggle="${h('toggle')}">x</details>`,
  ];
}

/** Markdown-only payloads: links, images and autolinks to javascript: URLs, a raw HTML block. */
function markdownPayloads(f: string): string[] {
  const h = (id: string) => `__pp_hook('${f}-${id}')`;
  return [
    `[the lantern map](javascript:${h('mdlink')})`,
    `![a lantern](javascript:${h('mdimg')})`,
    `<javascript:${h('autolink')}>`,
    `[a reference link][evil]\n\n[evil]: javascript:${h('reflink')}`,
    `[an encoded link](jav&#x61;script:${h('mdentity')})`,
    `<div onmouseover="${h('mdblock')}"><img src="http://${EVIL}/md-block.png" onerror="${h('mdblock-img')}"></div>`,
  ];
}

/** One guild per format: its sentence is what the question asks about, so the payloads are cited. */
const FORMATS = [
  { ext: 'txt', guild: 'Quillon' },
  { ext: 'md', guild: 'Brastow' },
  { ext: 'markdown', guild: 'Corvane' },
  { ext: 'html', guild: 'Dellith' },
  { ext: 'htm', guild: 'Esmarch' },
  { ext: 'json', guild: 'Fennick' },
  { ext: 'csv', guild: 'Garrow' },
  { ext: 'docx', guild: 'Hollin' },
  { ext: 'xlsx', guild: 'Istvar' },
] as const;
type Ext = (typeof FORMATS)[number]['ext'];

const fact = (guild: string) => `The ${guild} guild lights seven lanterns at dusk`;
const xmlEscape = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
const csvCell = (s: string) => `"${s.replace(/"/g, '""')}"`;

function textFile(f: string, guild: string): string {
  const p = markupPayloads(f);
  return [
    `${fact(guild)} ${p[0]} and keeps them lit ${p[1]} until dawn.`,
    '',
    ...p.slice(2).map((x, i) => `Lantern note ${i + 1} of the ${guild} guild: ${x}`),
    '',
  ].join('\n');
}

function markdownFile(f: string, guild: string): string {
  const p = markupPayloads(f);
  return [
    `# The ${guild} guild`,
    '',
    `${fact(guild)} ${p[0]} and keeps them lit ${p[1]} until dawn, see ${markdownPayloads(f)[0]}.`,
    '',
    ...p.slice(2).map((x, i) => `Lantern note ${i + 1}: ${x}`),
    '',
    ...markdownPayloads(f).slice(1),
    '',
  ].join('\n\n');
}

function htmlFile(f: string, guild: string): string {
  const h = (id: string) => `__pp_hook('${f}-${id}')`;
  // Real markup (which the parser must drop) and markup written as entities (which is text and must be shown as such).
  return `<!doctype html><html><head><title>The ${guild} guild</title>
<script>${h('head-script')}</script><meta http-equiv="refresh" content="0;url=http://${EVIL}/refresh"></head>
<body onload="${h('body-onload')}"><h1>The ${guild} guild</h1>
<p>${fact(guild)} &lt;script&gt;${h('entity-script')}&lt;/script&gt; and keeps them lit &lt;img src=x onerror="${h('entity-img')}"&gt; until dawn. <img src="http://${EVIL}/${f}.png" onerror="${h('img')}"></p>
<div><svg width="10" height="10" onload="${h('svg-onload')}"><script>${h('svg-script')}</script><circle r="4"/></svg> An inline drawing of a lantern.</div>
<p><a href="javascript:${h('link')}">A link to the lantern map</a> and <iframe src="javascript:parent.${h('iframe')}"></iframe> &#60;svg onload=${h('numeric')}&#62;</p>
<p>Guild notes: ${xmlEscape(markupPayloads(f).slice(2).join(' '))}</p>
</body></html>`;
}

function jsonFile(f: string, guild: string): string {
  const p = markupPayloads(f);
  return JSON.stringify(
    {
      title: `<script>__pp_hook('${f}-title')</script>The ${guild} guild`,
      body: `${fact(guild)} ${p[0]} and keeps them lit ${p[1]} until dawn.`,
      notes: p.slice(2),
      nested: { link: `javascript:__pp_hook('${f}-nested')`, '<img src=x onerror=__pp_hook(1)>': 'a key with markup' },
    },
    null,
    2,
  );
}

function csvFile(f: string, guild: string): string {
  const p = markupPayloads(f);
  const rows = [
    ['guild', 'lanterns', 'note'],
    [`The ${guild} guild`, 'seven lanterns at dusk', `${fact(guild)} ${p[0]} ${p[1]}`],
    ...p.slice(2).map((x, i) => [`<b onmouseover="__pp_hook('${f}-head${i}')">row ${i}</b>`, String(i), x]),
    ['=HYPERLINK("javascript:__pp_hook(1)")', '0', `javascript:__pp_hook('${f}-cell-link')`],
  ];
  return `${rows.map((r) => r.map(csvCell).join(',')).join('\r\n')}\r\n`;
}

async function docxFile(f: string, guild: string): Promise<Uint8Array> {
  const p = markupPayloads(f);
  const paragraphs = [`${fact(guild)} ${p[0]} and keeps them lit ${p[1]} until dawn.`, ...p.slice(2)];
  const body = paragraphs.map((t) => `<w:p><w:r><w:t xml:space="preserve">${xmlEscape(t)}</w:t></w:r></w:p>`).join('');
  const link = `<w:p><w:hyperlink r:id="rIdEvil"><w:r><w:t>the lantern map</w:t></w:r></w:hyperlink></w:p>`;
  const zip = new JSZip();
  zip.file(
    '[Content_Types].xml',
    '<?xml version="1.0" encoding="UTF-8" standalone="yes"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/></Types>',
  );
  zip.file(
    '_rels/.rels',
    '<?xml version="1.0" encoding="UTF-8" standalone="yes"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="word/document.xml"/></Relationships>',
  );
  zip.file(
    'word/_rels/document.xml.rels',
    `<?xml version="1.0" encoding="UTF-8" standalone="yes"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rIdEvil" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/hyperlink" Target="${xmlEscape(`javascript:__pp_hook('${f}-hyperlink')`)}" TargetMode="External"/></Relationships>`,
  );
  zip.file(
    'word/document.xml',
    `<?xml version="1.0" encoding="UTF-8" standalone="yes"?><w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"><w:body><w:p><w:pPr><w:pStyle w:val="Heading1"/></w:pPr><w:r><w:t>The ${guild} guild</w:t></w:r></w:p>${body}${link}</w:body></w:document>`,
  );
  return zip.generateAsync({ type: 'uint8array' });
}

function xlsxFile(f: string, guild: string): Uint8Array {
  const p = markupPayloads(f);
  const ws = XLSX.utils.aoa_to_sheet([
    ['guild', 'lanterns', 'note'],
    [`The ${guild} guild`, 'seven lanterns at dusk', `${fact(guild)} ${p[0]} ${p[1]}`],
    ...p.slice(2).map((x, i) => [`<b onmouseover="__pp_hook('${f}-head${i}')">row ${i}</b>`, i, x]),
  ]);
  const wb = XLSX.utils.book_new();
  XLSX.utils.book_append_sheet(wb, ws, `<img src=x onerror=__pp_hook('${f}-sheet')>`.slice(0, 31));
  return new Uint8Array(XLSX.write(wb, { type: 'array', bookType: 'xlsx' }) as ArrayBuffer);
}

async function payloadFile(ext: Ext, guild: string): Promise<Uint8Array> {
  const enc = (s: string) => new TextEncoder().encode(s);
  switch (ext) {
    case 'txt':
      return enc(textFile(ext, guild));
    case 'md':
    case 'markdown':
      return enc(markdownFile(ext, guild));
    case 'html':
    case 'htm':
      return enc(htmlFile(ext, guild));
    case 'json':
      return enc(jsonFile(ext, guild));
    case 'csv':
      return enc(csvFile(ext, guild));
    case 'docx':
      return docxFile(ext, guild);
    case 'xlsx':
      return xlsxFile(ext, guild);
  }
}

/** What the page saw that a payload would cause; all must stay empty. */
interface Witness {
  dialogs: string[];
  evilRequests: string[];
  navigations: string[];
  popups: number;
  pageErrors: string[];
}

async function watchedPage(base: string): Promise<{ page: Page; witness: Witness }> {
  const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  const witness: Witness = { dialogs: [], evilRequests: [], navigations: [], popups: 0, pageErrors: [] };
  await page.addInitScript(() => {
    const w = window as unknown as { __pp_calls: string[]; __pp_csp: string[]; __pp_hook: (id: string) => void };
    w.__pp_calls = [];
    w.__pp_csp = [];
    w.__pp_hook = (id: string) => {
      w.__pp_calls.push(String(id));
    };
    document.addEventListener('securitypolicyviolation', (e) => {
      // the app's own bundle probes once whether eval is allowed (the validation library's fast path);
      // the CSP refusing it is expected, anything else blocked means document markup tried to run or load
      if (e.blockedURI === 'eval' && e.sourceFile.startsWith(`${location.origin}/assets/`)) return;
      w.__pp_csp.push(`${e.violatedDirective} ${e.blockedURI} ${e.sourceFile}`);
    });
  });
  page.on('dialog', (d) => {
    witness.dialogs.push(d.message());
    void d.dismiss();
  });
  page.on('request', (r) => {
    if (r.url().includes(EVIL) || r.url().startsWith('javascript:')) witness.evilRequests.push(r.url());
  });
  page.on('framenavigated', (frame) => {
    if (!frame.url().startsWith(base) && frame.url() !== 'about:blank') witness.navigations.push(frame.url());
  });
  page.on('popup', () => {
    witness.popups++;
  });
  page.on('pageerror', (e) => {
    witness.pageErrors.push(String(e));
  });
  return { page, witness };
}

/** Nothing ran, loaded or navigated, and no markup of the document became an element. */
async function expectInert(page: Page, witness: Witness, where: string): Promise<void> {
  await page.waitForTimeout(200);
  const seen = await page.evaluate(() => {
    const w = window as unknown as { __pp_calls?: string[]; __pp_csp?: string[] };
    const handlers = [...document.querySelectorAll('*')].flatMap((el) =>
      [...el.attributes].filter((a) => /^on/i.test(a.name)).map((a) => `${el.tagName} ${a.name}`),
    );
    const jsLinks = [...document.querySelectorAll('[href],[src],[action],[formaction]')]
      .flatMap((el) => ['href', 'src', 'action', 'formaction'].map((a) => el.getAttribute(a) ?? ''))
      .filter((v) => /^\s*javascript:/i.test(v));
    return {
      calls: w.__pp_calls ?? ['init script missing'],
      csp: w.__pp_csp ?? [],
      handlers,
      jsLinks,
      foreign: document.querySelectorAll('main img, main iframe, main svg, main script, main object, main embed, main details')
        .length,
      scripts: [...document.scripts].filter((s) => !s.src || new URL(s.src).origin !== location.origin).length,
    };
  });
  expect({ where, ...seen, ...witness }).toEqual({
    where,
    calls: [],
    csp: [],
    handlers: [],
    jsLinks: [],
    foreign: 0,
    scripts: 0,
    dialogs: [],
    evilRequests: [],
    navigations: [],
    popups: 0,
    pageErrors: [],
  });
}

let api: RunningApi;
let browser: Browser;
let dir: string;
const uploaded = new Map<Ext, string>();

beforeAll(async () => {
  await ensureWebBuilt();
  dir = mkdtempSync(join(tmpdir(), 'pinpoint-xss-'));
  for (const { ext, guild } of FORMATS)
    writeFileSync(join(dir, `lanterns-${guild.toLowerCase()}.${ext}`), await payloadFile(ext, guild));
  api = await startApi();
  browser = await launchChromium();
  const results = await uploadViaApi(
    api.base,
    FORMATS.map(({ ext, guild }) => {
      const name = `lanterns-${guild.toLowerCase()}.${ext}`;
      return { name, bytes: readFileSync(join(dir, name)) };
    }),
  );
  for (const r of results) {
    await waitForReady(api.base, r.version.version_id, 170_000);
    const ext = FORMATS.find((x) => r.file.endsWith(`.${x.ext}`))?.ext;
    if (ext) uploaded.set(ext, r.version.version_id);
  }
}, 240_000);

afterAll(async () => {
  await browser?.close();
  await api?.stop();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

/** The literal payload code the view must show as text for a file of this format. */
const literal = (ext: Ext) => new RegExp(`__pp_hook\\('${ext}-`);

describe('untrusted documents never execute in the answer view or the reader', () => {
  it('serves the app with a strict Content-Security-Policy', async () => {
    const res = await fetch(`${api.base}/`);
    expect(res.headers.get('content-security-policy') ?? '').toMatch(/script-src 'self'/);
  });

  it('accepted a payload file of every text format', () => {
    expect([...uploaded.keys()].sort()).toEqual(FORMATS.map((f) => f.ext).sort());
  });

  it('the witness sees a payload that does become markup (control)', async () => {
    const { page, witness } = await watchedPage(api.base);
    await page.goto(`${api.base}/`);
    await page.waitForSelector('#question');
    await page.evaluate((html) => {
      const div = document.createElement('div');
      div.innerHTML = html;
      document.querySelector('main')?.append(div);
    }, markupPayloads('control')[1] ?? '');
    await expect(expectInert(page, witness, 'control')).rejects.toThrow();
    await page.close();
  });

  for (const { ext, guild } of FORMATS) {
    it(`${ext}: the answer and every citation show the payloads as text and run none of them`, async () => {
      const { page, witness } = await watchedPage(api.base);
      await page.goto(`${api.base}/`);
      await page.fill('#question', `How many lanterns does the ${guild} guild light at dusk?`);
      const [res] = await Promise.all([
        page.waitForResponse((r) => r.url().endsWith('/api/ask')),
        page.press('#question', 'Enter'),
      ]);
      const answer = (await res.json()) as AskResponse;
      await page.waitForSelector(answer.refused ? '[data-testid=refusal]' : '[data-testid=answer]');
      await page.waitForSelector('[data-testid=source]');
      await expectInert(page, witness, `${ext} answer view`);
      expect(answer.refused, `${ext}: ${JSON.stringify(answer.gate ?? answer.refusal_reason)}`).toBe(false);
      const own = answer.citations.filter((c) => c.file.endsWith(`.${ext}`));
      expect(own.length, `${ext} is cited: ${JSON.stringify(answer.citations.map((c) => c.file))}`).toBeGreaterThan(0);
      // the answer view shows the cited passage and the sources with their markup as literal text
      const shown = ((await page.locator('main').textContent()) ?? '').replace(/\s+/g, ' ');
      expect(shown).toMatch(/seven/);
      expect(shown).toMatch(literal(ext));
      await page.screenshot({ path: join(resultsDir, `xss-answer-${ext}.png`), fullPage: true });

      for (const c of answer.citations) {
        const pill = page
          .locator('[data-testid=citation-pill]')
          .filter({ hasText: new RegExp(`^${c.n}$`) })
          .first();
        const [resolved] = await Promise.all([
          page.waitForResponse((r) => r.url().endsWith('/api/citations/resolve')),
          pill.click(),
        ]);
        expect(resolved.status()).toBe(200);
        const view = page.locator(
          '[data-testid=text-view], [data-testid=raw-source], [data-testid=cited-record], [data-testid=version-elements]',
        );
        await view.first().waitFor();
        await expectInert(page, witness, `${ext} citation ${c.n} (${c.file})`);
        if (c.file.endsWith(`.${ext}`)) {
          const readerText = ((await page.locator('main').textContent()) ?? '').replace(/\s+/g, ' ');
          expect(readerText, `${ext} reader shows the markup as text`).toMatch(literal(ext));
          await page.screenshot({ path: join(resultsDir, `xss-reader-${ext}.png`), fullPage: true });
        }
        await page.click('[data-testid=back-to-answer]');
        await page.waitForSelector('[data-testid=answer]');
        await expectInert(page, witness, `${ext} back to the answer`);
      }
      await page.close();
    }, 120_000);

    it(`${ext}: every element opened in the reader runs nothing`, async () => {
      const versionId = uploaded.get(ext);
      if (!versionId) throw new Error(`${ext} was not uploaded`);
      const { elements } = (await (await fetch(`${api.base}/api/versions/${versionId}/elements`)).json()) as {
        elements: { element_id: string }[];
      };
      expect(elements.length).toBeGreaterThan(0);
      const { page, witness } = await watchedPage(api.base);
      let literalShown = false;
      for (const el of elements.slice(0, 12)) {
        await page.goto(`${api.base}/#/cite?v=${encodeURIComponent(versionId)}&e=${encodeURIComponent(el.element_id)}`);
        await page.waitForSelector(
          '[data-testid=text-view], [data-testid=cited-record], [data-testid=page], [data-testid=reader-error], [data-testid=version-view]',
        );
        await expectInert(page, witness, `${ext} element ${el.element_id}`);
        if (literal(ext).test((await page.locator('main').textContent()) ?? '')) literalShown = true;
      }
      expect(literalShown, `${ext}: the reader shows the payload code as text`).toBe(true);
      await page.close();
    }, 120_000);
  }
});
