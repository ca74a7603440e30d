import { readdirSync, readFileSync } from 'node:fs';
import { splitSentences } from '@pinpoint/analysis';
import { sentenceAnchor } from '@pinpoint/answering';
import type { Format } from '@pinpoint/core';
import { CodepointIndex, sliceCodepoints } from '@pinpoint/core';
import { detectFormat, parseDocument } from '@pinpoint/parsers';
import type { DefaultTreeAdapterTypes } from 'parse5';
import { parseFragment } from 'parse5';
import { describe, expect, it } from 'vitest';

const corpus = new URL('../../../../shared/corpus/formats/', import.meta.url);
const fixtures = ['html', 'htm', 'json'].flatMap((dir) =>
  readdirSync(new URL(`${dir}/`, corpus))
    .sort()
    .map((f) => `${dir}/${f}`),
);

const SKIPPED = new Set(['script', 'style', 'noscript', 'template', 'head']);

/** Tags stripped and entities decoded by an HTML parser (scripts and styles dropped). */
function htmlText(raw: string): string {
  const out: string[] = [];
  const walk = (node: DefaultTreeAdapterTypes.Node): void => {
    if (node.nodeName === '#text' && 'value' in node) out.push(node.value);
    if ('tagName' in node && SKIPPED.has(node.tagName)) return;
    if ('childNodes' in node) for (const child of node.childNodes) walk(child);
  };
  walk(parseFragment(/^<t[dhr]\b/i.test(raw) ? `<table>${/^<tr/i.test(raw) ? '' : '<tr>'}${raw}</table>` : raw));
  return out.join('');
}

/** A JSON value's text: a string with its escapes decoded; a record object as its keys and values in order. */
function jsonText(raw: string): string {
  const value: unknown = JSON.parse(raw);
  if (typeof value === 'string') return value;
  return typeof value === 'object' && value !== null ? JSON.stringify(value) : String(value);
}

/** Is `part` read in order inside `whole`, whitespace and the " | " of table rows ignored (hidden text may sit between)? */
function readsInOrder(part: string, whole: string): boolean {
  const p = Array.from(part.replace(/[\s|]+/g, ''));
  let i = 0;
  for (const ch of whole.replace(/[\s|]+/g, '')) if (ch === p[i]) i++;
  return i === p.length;
}

describe('raw ranges of HTML and JSON citations', () => {
  it.each(fixtures)('%s: every sentence citation carries a raw range whose source text holds the quote', async (path) => {
    const bytes = new Uint8Array(readFileSync(new URL(path, corpus)));
    const fileName = path.split('/').at(-1) as string;
    const format: Format = detectFormat(fileName, bytes);
    const out = await parseDocument(bytes, { fileName, format });
    const source = out.artifacts.find((a) => a.name === 'source.html' || a.name === 'source.json');
    expect(source, 'the decoded source is stored beside the text').toBeDefined();
    const src = new TextDecoder().decode(source?.bytes);
    const index = new CodepointIndex(src);
    let checked = 0;
    for (const e of out.elements) {
      for (const s of splitSentences(e.text).slice(0, 3)) {
        const { anchor } = sentenceAnchor(e, s.start, s.end);
        if (anchor.kind !== 'text') throw new Error(`${path}: a text anchor`);
        expect(anchor.raw, `${e.element_id} has a raw range`).toBeDefined();
        const raw = src.slice(index.toUtf16(anchor.raw?.start ?? 0), index.toUtf16(anchor.raw?.end ?? 0));
        const quote = sliceCodepoints(e.text, s.start, s.end);
        const text = format === 'json' ? jsonText(raw) : htmlText(raw);
        expect(readsInOrder(quote, text), `${e.element_id}: ${quote.slice(0, 60)}`).toBe(true);
        // a citation of the whole element: the raw slice's text is the quote
        if (s.start === 0 && s.end === Array.from(e.text).length && format === 'json' && typeof JSON.parse(raw) === 'string')
          expect(text.trim()).toBe(quote.trim());
        checked++;
      }
    }
    expect(checked).toBeGreaterThan(0);
  });
});
