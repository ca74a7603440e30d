import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { splitSentences } from '@pinpoint/analysis';
import { sentenceAnchor } from '@pinpoint/answering';
import type { Element, Format } from '@pinpoint/core';
import { CodepointIndex } from '@pinpoint/core';
import { detectFormat, parseDocument } from '@pinpoint/parsers';
import { seededRandom } from '@pinpoint/testing';
import type { DefaultTreeAdapterTypes } from 'parse5';
import { parseFragment } from 'parse5';
import { describe, expect, it } from 'vitest';

const shared = new URL('../../../../shared/', import.meta.url);
const filesIn = (dir: string, ext: RegExp): string[] =>
  readdirSync(new URL(dir, shared))
    .filter((f) => ext.test(f))
    .sort()
    .map((f) => `${dir}${f}`);
const fixtures = [
  ...['html', 'htm', 'json'].flatMap((d) => filesIn(`corpus/formats/${d}/`, /\.(html?|json)$/i)),
  ...readdirSync(new URL('eval/', shared), { withFileTypes: true })
    // a set of page scans (ocr-dev) keeps its images in files/: no docs/ to read
    .filter((d) => d.isDirectory() && existsSync(new URL(`eval/${d.name}/docs/`, shared)))
    .flatMap((d) => filesIn(`eval/${d.name}/docs/`, /\.html?$/i)),
];

/** What the parser leaves out of the text: never-run and embedded content, and hidden elements. */
const DROPPED = new Set([
  'script',
  'style',
  'noscript',
  'template',
  'iframe',
  'object',
  'embed',
  'svg',
  'canvas',
  'select',
  'datalist',
  'head',
]);

function hidden(el: DefaultTreeAdapterTypes.Element): boolean {
  const attr = (name: string) => el.attrs.find((a) => a.name === name)?.value;
  if (attr('hidden') !== undefined || attr('aria-hidden') === 'true') return true;
  if (el.tagName === 'input' && attr('type') === 'hidden') return true;
  return /display\s*:\s*none|visibility\s*:\s*hidden/i.test(attr('style') ?? '');
}

/** A sortable table's sort key (MediaWiki's class="sortkey", hidden by the page's stylesheet). */
function sortKey(el: DefaultTreeAdapterTypes.Element): boolean {
  return /(?:^|\s)sortkey(?:\s|$)/.test(el.attrs.find((a) => a.name === 'class')?.value ?? '');
}

/** A slice of HTML source with its tags stripped and its character references decoded (by an HTML parser). */
function decodedHtml(raw: string, sortKeys: boolean): string {
  const out: string[] = [];
  const walk = (node: DefaultTreeAdapterTypes.Node): void => {
    if (node.nodeName === '#text' && 'value' in node) out.push(node.value);
    if ('tagName' in node && (DROPPED.has(node.tagName) || hidden(node) || (!sortKeys && sortKey(node)))) return;
    if ('childNodes' in node) for (const child of node.childNodes) walk(child);
  };
  walk(parseFragment(raw));
  return out.join('');
}

/**
 * The text a slice of HTML shows, table cell by table cell (a fragment's cell tags mean nothing to an
 * HTML parser outside a table, so the slice is cut at them): sort keys are left out of a cell unless
 * they are all it shows (a flag icon beside its country's key).
 */
function htmlText(raw: string): string {
  return raw
    .split(/(?=<t[dh][\s>])|(?<=<\/t[dh]>)/i)
    .map((cell) => {
      const text = decodedHtml(cell, false);
      return text.trim() === '' ? decodedHtml(cell, true) : text;
    })
    .join('');
}

/** Where strings, their escapes and the other scalars sit in a JSON source. */
function jsonLexer(src: string): (start: number, end: number) => string {
  /** 1: inside a string, 2: a number, true, false or null; 0: quotes, structure, whitespace. */
  const kind = new Uint8Array(src.length);
  const tokenEnd = new Int32Array(src.length);
  for (let i = 0; i < src.length; ) {
    if (src[i] === '"') {
      i++;
      while (i < src.length && src[i] !== '"') {
        kind[i] = 1;
        if (src[i] === '\\') kind[++i] = 1;
        i++;
      }
      i++;
    } else if (/[-0-9a-z]/.test(src[i] as string)) {
      const start = i;
      while (i < src.length && /[-+.0-9a-zA-Z]/.test(src[i] as string)) i++;
      kind.fill(2, start, i);
      tokenEnd.fill(i, start, i);
    } else i++;
  }
  /** The slice's text: string content with escapes decoded, a whole scalar as it reads, structure dropped. */
  return (start, end) => {
    let out = '';
    for (let i = start; i < end; ) {
      if (kind[i] === 1 && src[i] === '\\') {
        const length = src[i + 1] === 'u' ? 6 : 2;
        out += JSON.parse(`"${src.slice(i, i + length)}"`) as string;
        i += length;
      } else if (kind[i] === 2 && (i === 0 || kind[i - 1] !== 2) && (tokenEnd[i] as number) <= end) {
        out += String(JSON.parse(src.slice(i, tokenEnd[i])));
        i = tokenEnd[i] as number;
      } else {
        if (kind[i] !== 0) out += src[i];
        i++;
      }
    }
    return out;
  };
}

/**
 * The text a raw span must read as for the codepoints [start, end) of an element: the range widened
 * over an escape, entity or collapsed whitespace it cuts, without the separators the parser added
 * between source runs (which may only be whitespace, "|" and ":").
 */
function expectedTexts(e: Element): (start: number, end: number) => string {
  const chars = Array.from(e.text);
  /** Per codepoint: the atomic piece holding it ([first, end)), or itself; -1 for added text. */
  const first = new Int32Array(chars.length).fill(-1);
  const last = new Int32Array(chars.length).fill(-1);
  const map = e.raw_map ?? [];
  for (let i = 0; i < map.length; i += 4) {
    const [t0, t1, r0, r1] = map.slice(i, i + 4) as [number, number, number, number];
    for (let k = t0; k < t1; k++) {
      first[k] = t1 - t0 === r1 - r0 ? k : t0;
      last[k] = t1 - t0 === r1 - r0 ? k + 1 : t1;
    }
  }
  chars.forEach((ch, k) => {
    if (first[k] === -1) expect(ch, `${e.element_id}: text at ${k} has no source`).toMatch(/^[\s|:]$/);
  });
  return (start, end) => {
    const s = first[start] === -1 ? start : (first[start] as number);
    const t = last[end - 1] === -1 ? end : (last[end - 1] as number);
    let out = '';
    for (let k = s; k < t; k++) if (first[k] !== -1) out += chars[k];
    return out;
  };
}

const squeeze = (text: string) => text.replace(/\s+/g, '');

describe('raw ranges of HTML and JSON citations', () => {
  it.each(fixtures)('%s: the raw span of every sentence and of random sub-ranges reads as the quote', async (path) => {
    const bytes = new Uint8Array(readFileSync(new URL(path, shared)));
    const fileName = path.split('/').at(-1) as string;
    const format: Format = detectFormat(fileName, bytes);
    const out = await parseDocument(bytes, { fileName, format });
    const source = out.artifacts.find((a) => a.name === 'source.html' || a.name === 'source.json');
    expect(source, 'the decoded source is stored beside the text').toBeDefined();
    const src = new TextDecoder().decode(source?.bytes);
    const index = new CodepointIndex(src);
    const json = format === 'json' ? jsonLexer(src) : undefined;
    const next = seededRandom(out.elements.length);
    let checked = 0;
    for (const e of out.elements) {
      const own = e.anchor.kind === 'text' ? e.anchor.raw : undefined;
      expect(own, `${e.element_id} has a raw range`).toBeDefined();
      expect(e.raw_map, `${e.element_id} has a raw map`).toBeDefined();
      const length = Array.from(e.text).length;
      const expected = expectedTexts(e);
      const ranges = splitSentences(e.text).map((s) => [s.start, s.end]);
      for (let k = 0; k < 3; k++) {
        const a = Math.floor(next() * length);
        ranges.push([a, a + 1 + Math.floor(next() * (length - a))]);
      }
      for (const [start, end] of ranges as [number, number][]) {
        const { anchor } = sentenceAnchor(e, start, end);
        const raw = anchor.kind === 'text' ? anchor.raw : undefined;
        if (!raw || !own) throw new Error(`${path} ${e.element_id}: no raw range for [${start}, ${end})`);
        expect(raw.start >= own.start && raw.end <= own.end, `${e.element_id}: inside the element's raw range`).toBe(true);
        const [a, b] = [index.toUtf16(raw.start), index.toUtf16(raw.end)];
        const read = json ? json(a, b) : htmlText(src.slice(a, b));
        const want = expected(start, end);
        if (squeeze(want) === '') continue;
        expect(squeeze(read), `${e.element_id} [${start}, ${end}) of ${JSON.stringify(e.text.slice(0, 80))}`).toBe(squeeze(want));
        checked++;
      }
    }
    expect(checked).toBeGreaterThan(0);
  });
});
