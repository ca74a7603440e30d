import type { Element } from '@pinpoint/core';
import { sliceCodepoints } from '@pinpoint/core';
import { describe, expect, it } from 'vitest';
import { chunkElements } from './chunk.js';

const Z = '0'.repeat(64);
const page = (i: number, p: number, text: string, type: Element['type'] = 'paragraph'): Element => ({
  element_id: `e${i}`,
  type,
  section_path: ['Guide', 'Costs'],
  text,
  anchor: {
    kind: 'page',
    artifact: 'original',
    page_index: p,
    page_width: 600,
    page_height: 800,
    unit: 'pt',
    rotation: 0,
    boxes: [[0, 0, 10, 10]],
  },
});
const textEl = (i: number, text: string, type: Element['type'] = 'paragraph'): Element => ({
  element_id: `e${i}`,
  type,
  section_path: ['Intro'],
  text,
  anchor: { kind: 'text', artifact: 'original', unit: 'codepoint', start: 0, end: Array.from(text).length, text_sha256: Z },
});
const opts = { versionId: 'v1', documentId: 'd1', collectionId: 'c1', title: 'Policy', targetSize: 120, overlap: 30 };
const sentence = (n: number): string => `Sentence number ${n} talks about the 𠮷 costs of travel.`;

function slicesMatch(
  elements: Element[],
  chunk: { elements: { element_id: string; start: number; end: number }[]; text: string },
): void {
  const parts = chunk.elements.map((r) => {
    const e = elements.find((x) => x.element_id === r.element_id) as Element;
    return sliceCodepoints(e.text, r.start, r.end);
  });
  expect(parts.join('\n')).toEqual(chunk.text);
}

describe('chunkElements', () => {
  it('never crosses a page and slices every sub-range back to the chunk text', () => {
    const els = [
      page(0, 0, [1, 2, 3].map(sentence).join(' ')),
      page(1, 0, sentence(4)),
      page(2, 1, [5, 6].map(sentence).join(' ')),
    ];
    const chunks = chunkElements(els, opts);
    for (const c of chunks) {
      const pages = new Set(
        c.elements.map((r) =>
          (els.find((e) => e.element_id === r.element_id) as Element).anchor.kind === 'page'
            ? ((els.find((e) => e.element_id === r.element_id) as Element).anchor as { page_index: number }).page_index
            : -1,
        ),
      );
      expect(pages.size).toBe(1);
      expect(c.page_index).toBe([...pages][0]);
      slicesMatch(els, c);
      expect(Array.from(c.text).length).toBeLessThanOrEqual(opts.targetSize + 2);
    }
    expect(chunks.some((c) => c.page_index === 1)).toBe(true);
  });

  it('breaks on sentence boundaries and overlaps by whole sentences', () => {
    const els = [textEl(0, [1, 2, 3, 4, 5].map(sentence).join(' '))];
    const chunks = chunkElements(els, { ...opts, overlap: 60 });
    expect(chunks.length).toBeGreaterThan(1);
    for (const c of chunks) expect(c.text.endsWith('.')).toBe(true);
    const first = chunks[0]?.text.split('. ').at(-1);
    expect(chunks[1]?.text).toContain(first?.replace(/\.$/, ''));
  });

  it('puts the title and heading trail in retrieval_text', () => {
    const [c] = chunkElements([page(0, 0, 'Taxis are refunded up to 50 dollars.')], opts);
    expect(c?.retrieval_text).toBe('Policy\nGuide › Costs\nTaxis are refunded up to 50 dollars.');
    expect(c?.chunk_id).toBe('v1:c000000');
  });

  it('splits CJK text on 。', () => {
    const text = '東犬燈塔創建於西元1872年。'.repeat(12);
    const chunks = chunkElements([textEl(0, text)], { ...opts, overlap: 0 });
    expect(chunks.length).toBeGreaterThan(1);
    for (const c of chunks) expect(c.text.endsWith('。')).toBe(true);
  });

  it('keeps a table whole when it fits and repeats the header of a long one', () => {
    const small = textEl(1, 'Item | Cost\nTaxi | 50', 'table');
    const before = textEl(0, 'x'.repeat(100));
    const chunks = chunkElements([before, small], opts);
    expect(chunks.at(-1)?.text).toBe(small.text);
    const rows = Array.from({ length: 20 }, (_, i) => `Row ${i} | ${i * 10}`);
    const long = textEl(2, ['Item | Cost', ...rows].join('\n'), 'table');
    const parts = chunkElements([long], opts);
    expect(parts.length).toBeGreaterThan(1);
    for (const c of parts) {
      expect(c.text.startsWith('Item | Cost\n')).toBe(true);
      slicesMatch([long], c);
    }
  });
});

describe('chunkElements on one very long element', () => {
  it('cuts a multi-megabyte single-line element into chunks whose ranges slice back to their text', () => {
    const sentence = 'The 𠮷 river carries granite past the mill. 東京の倉庫は満杯です。 ';
    const text = sentence.repeat(Math.ceil((3 * 1024 * 1024) / sentence.length));
    const started = performance.now();
    const chunks = chunkElements([textEl(0, text)], { ...opts, targetSize: 700, overlap: 70 });
    expect(performance.now() - started).toBeLessThan(30_000);
    expect(chunks.length).toBeGreaterThan(3000);
    for (const c of [chunks[0], chunks[1234], chunks.at(-1)]) {
      const ref = c?.elements[0];
      expect(c?.text).toBe(sliceCodepoints(text, ref?.start ?? 0, ref?.end ?? 0));
      expect(Array.from(c?.text ?? '').length).toBeLessThanOrEqual(700);
    }
  });

  it('keeps a table row whole as one unit, but cuts a row many chunks long into pieces of text', () => {
    const row = (i: number, text: string, header: boolean): Element => ({
      ...textEl(i, text),
      type: 'record',
      table: { index: 0, row: i, header },
      cells: [{ ref: `A${i + 1}`, col: 0, start: 0, end: Array.from(text).length, header: 'Note' }],
    });
    const long = Array.from({ length: 60 }, (_, n) => sentence(n)).join(' ');
    const elements = [row(0, 'Note', true), row(1, 'A short note.', false), row(2, long, false)];
    const chunks = chunkElements(elements, opts);
    expect(chunks[0]?.text).toBe('A short note.');
    expect(chunks[0]?.retrieval_text).toContain('Note: A short note.');
    const pieces = chunks.slice(1);
    expect(pieces.length).toBeGreaterThan(10);
    for (const c of pieces) {
      expect(Array.from(c.text).length).toBeLessThanOrEqual(120);
      expect(c.retrieval_text.length).toBeLessThan(400);
      slicesMatch(elements, c);
    }
  });
});
