import type { ParseContext, ParseOutput } from '@pinpoint/core';
import { CodepointIndex } from '@pinpoint/core';
import iconv from 'iconv-lite';
import { describe, expect, it } from 'vitest';
import { expectTextInvariants, parseShared, sharedFiles } from '../../test/test-support.js';
import { parseDocument } from '../parse.js';
import { htmlBlocks } from './parse-html.js';

const ctx: ParseContext = { fileName: 'page.html', format: 'html' };
const parse = (html: string | Uint8Array) => parseDocument(typeof html === 'string' ? new TextEncoder().encode(html) : html, ctx);

/** The visible text of a source fragment, whitespace collapsed (entities decoded by parse5). */
function fragmentText(html: string): string {
  const wrapped = html.replace(/^\s*<(html|head|body)\b[^>]*>/i, '').replace(/<\/(html|head|body)>\s*$/i, '');
  return htmlBlocks(`<body><div>${wrapped}</div></body>`)
    .blocks.map((b) => (b.cells ? b.cells.join(' ') : b.text))
    .join(' ')
    .replace(/\s+/g, ' ');
}

/** Every word of every element appears in the source range that produced it. */
function expectRawRanges(out: ParseOutput): void {
  const source = new TextDecoder().decode(out.artifacts.find((a) => a.name === 'source.html')?.bytes);
  const index = new CodepointIndex(source);
  for (const e of out.elements) {
    if (e.anchor.kind !== 'text' || !e.anchor.raw) throw new Error(`${e.element_id} lacks a raw range`);
    const raw = source.slice(index.toUtf16(e.anchor.raw.start), index.toUtf16(e.anchor.raw.end));
    const visible = e.type === 'title' ? raw.replace(/<[^>]*>/g, '') : fragmentText(raw);
    for (const word of e.text.split(/\s+|\s\|\s/).filter((w) => w.length > 0 && w !== '|')) {
      expect(visible, `${e.element_id} "${word}"`).toContain(word);
    }
  }
}

describe('parseHtml on every corpus and eval HTML file', () => {
  const files = [
    ...sharedFiles('corpus/formats/html', ['html']),
    ...sharedFiles('corpus/formats/htm', ['htm']),
    ...sharedFiles('eval/jsquad-dev/docs', ['html']).slice(0, 4),
    ...sharedFiles('eval/drcd-dev/docs', ['html']).slice(0, 4),
    ...sharedFiles('eval/squad2-dev/docs', ['html']),
  ];
  it.each(files)('%s: text invariants and raw ranges', async (file) => {
    const { format, out } = await parseShared(file);
    expect(format).toBe('html');
    expect(out.elements.length).toBeGreaterThan(0);
    expectTextInvariants(out);
    expectRawRanges(out);
  });
});

describe('parseHtml behaviour', () => {
  it('drops script, style, hidden content and keeps headings as the trail', async () => {
    const out = await parse(
      '<html><head><title>T</title><script>alert(1)</script></head><body><h1>Guide</h1><p>Visible <b>bold</b>\n  text.</p>' +
        '<div hidden>secret</div><p aria-hidden="true">also secret</p><style>p{}</style><h2>Part</h2><ul><li>one<ul><li>two</li></ul></li><li><p>three</p></li></ul>' +
        '<table><tr><th>Name</th><th>Cost</th></tr><tr><td>Tea</td><td>2</td></tr></table></body></html>',
    );
    const text = expectTextInvariants(out);
    expect(text).not.toMatch(/alert|secret/);
    expect(out.elements.map((e) => [e.type, e.text, e.section_path.join('>')])).toEqual([
      ['title', 'T', ''],
      ['heading', 'Guide', ''],
      ['paragraph', 'Visible bold text.', 'Guide'],
      ['heading', 'Part', 'Guide'],
      ['list_item', 'one', 'Guide>Part'],
      ['list_item', 'two', 'Guide>Part'],
      ['list_item', 'three', 'Guide>Part'],
      ['table', 'Name | Cost', 'Guide>Part'],
      ['table', 'Tea | 2', 'Guide>Part'],
    ]);
    expect(out.diagnostics.map((d) => d.rule_id)).toEqual(expect.arrayContaining(['html/script-dropped', 'html/hidden-dropped']));
    expectRawRanges(out);
  });

  it("leaves a sortable table's hidden sort keys out of its cells (a Wikipedia page)", async () => {
    const { out } = await parseShared('eval/wtq-dev/docs/005_List_of_Olympic_medalists_in_figure_skating.html');
    const rows = out.elements.filter((e) => e.type === 'table').map((e) => e.text);
    expect(rows).toContain('Evgeni Plushenko | Russia (RUS) | 2002–2014 | 2 | 2 | 0 | 4');
    expect(rows.join('\n')).not.toMatch(/Plushenko, Evgeni/);
    const managers = await parseShared('eval/wtq-dev/docs/104_List_of_Belgian_Football_League_managers.html');
    const first = managers.out.elements.find((e) => e.type === 'table' && e.text.includes('Bosschaerts'));
    expect(first?.text).toMatch(/^Francis Bosschaerts \| Belgium \| 15 October 1956 \| .* \| 1 June 1999 \| 15 years, 25 days$/);
    expectRawRanges(out);
  });

  it('decodes by BOM, then <meta charset>, then detection', async () => {
    const body = '<p>日本語のテキストです。東京都の人口について説明します。</p>';
    const sjis = iconv.encode(
      `<html><head><meta http-equiv="Content-Type" content="text/html; charset=Shift_JIS"></head><body>${body}</body></html>`,
      'shift_jis',
    );
    expect((await parse(new Uint8Array(sjis))).elements[0]?.text).toBe('日本語のテキストです。東京都の人口について説明します。');
    const utf16 = await parseShared('corpus/formats/html/tika__testHTML_charset_utf16le.html');
    expect(utf16.out.elements.map((e) => e.text)).toContain('This is a sample text');
    const utf32 = await parseShared('corpus/formats/html/jsoup__bom_utf32be.html');
    expect(utf32.out.elements.map((e) => e.text).join(' ')).not.toMatch(/\u0000|\ufffd/);
    const cp1252 = await parseShared('corpus/formats/html/unstructured__fake-html-cp1252.html');
    expect(cp1252.out.elements.map((e) => e.text).join(' ')).toContain('15,50 €');
  });
});
