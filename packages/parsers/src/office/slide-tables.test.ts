import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Box, Element } from '@pinpoint/core';
import { sourceMapSchema } from '@pinpoint/core';
import { describe, expect, it } from 'vitest';
import { createLibreOfficeConverter } from './libreoffice.js';
import { parseSlides } from './parse-office.js';
import { readDeckTables } from './slide-tables.js';

const corpus = new URL('../../../../../shared/corpus/formats/', import.meta.url);
const read = (name: string) =>
  new Uint8Array(readFileSync(new URL(name.endsWith('.ppt') ? `ppt/${name}` : `pptx/${name}`, corpus)));
const formatOf = (name: string): 'ppt' | 'pptx' => (name.endsWith('.ppt') ? 'ppt' : 'pptx');
// a loaded machine starts LibreOffice slowly: the time limit of a conversion is not what these tests check
const convert = createLibreOfficeConverter({ timeoutMs: 120_000 });

/** The .pptx and .ppt files of the corpus whose slides hold a table (a .ppt's as LibreOffice writes it to .pptx). */
const withTables = [
  'docling__powerpoint_sample.pptx',
  'markitdown__test.pptx',
  'tika__testPPT_various.pptx',
  'unstructured__fake-power-point-table.pptx',
  'docling__legacy_sample.ppt',
  'r2r__ppt.ppt',
  'tika__testPPT_various.ppt',
];

interface Word {
  page: number;
  box: Box;
  text: string;
}

/** Every word of a PDF with its box, as poppler reads it (pdftotext -bbox), in points. */
function popplerWords(pdf: Uint8Array): Word[] {
  const dir = mkdtempSync(join(tmpdir(), 'pp-slide-tables-'));
  try {
    writeFileSync(join(dir, 'in.pdf'), pdf);
    const html = execFileSync('pdftotext', ['-bbox', join(dir, 'in.pdf'), '-']).toString();
    const words: Word[] = [];
    let page = -1;
    for (const m of html.matchAll(
      /<page\b|<word xMin="([\d.]+)" yMin="([\d.]+)" xMax="([\d.]+)" yMax="([\d.]+)">([^<]*)<\/word>/g,
    )) {
      if (m[0] === '<page') page++;
      else words.push({ page, box: [Number(m[1]), Number(m[2]), Number(m[3]), Number(m[4])], text: m[5] ?? '' });
    }
    return words;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const squeeze = (text: string) => text.replace(/&amp;/g, '&').replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/\s+/g, '');
const center = (b: Box): [number, number] => [(b[0] + b[2]) / 2, (b[1] + b[3]) / 2];
const inBox = (p: [number, number], b: Box) => p[0] >= b[0] && p[0] <= b[2] && p[1] >= b[1] && p[1] <= b[3];

describe('PPTX tables in the one table model', () => {
  it.each(withTables)(
    '%s: one element per row, each cell box holds exactly that cell on the rendered slide',
    async (name) => {
      const bytes = read(name);
      const format = formatOf(name);
      const deck = await readDeckTables(format === 'ppt' ? await convert.convert(bytes, 'ppt', 'pptx') : bytes);
      expect(deck.tables.length).toBeGreaterThan(0);
      const out = await parseSlides(bytes, { fileName: name, format, convert });
      sourceMapSchema.parse(out.sourceMap);
      expect(out.elements.map((e) => e.element_id)).toEqual(out.elements.map((_, i) => `e${String(i).padStart(6, '0')}`));
      const pdf = out.artifacts.find((a) => a.kind === 'pdf')?.bytes as Uint8Array;
      const words = popplerWords(pdf);
      const rows = out.elements.filter((e): e is Element & { table: NonNullable<Element['table']> } => e.table !== undefined);
      deck.tables.forEach((table, index) => {
        const mine = rows.filter((e) => e.table.index === index);
        const expected = table.rows.filter((r) => r.some((c) => c.text !== ''));
        expect(mine.map((e) => e.text)).toEqual(
          expected.map((r) =>
            r
              .filter((c) => c.text !== '')
              .map((c) => c.text)
              .join(' | '),
          ),
        );
        for (const e of mine) {
          if (e.anchor.kind !== 'page') throw new Error('a page anchor');
          expect(e.anchor).toMatchObject({ artifact: 'pdf', page_index: table.slide });
          const chars = Array.from(e.text);
          for (const cell of e.cells ?? []) {
            const span = e.spans?.find((s) => s.start === cell.start && s.end === cell.end);
            if (!span) throw new Error(`${e.element_id} ${cell.ref}: a span per cell`);
            const inside = words.filter((w) => w.page === table.slide && inBox(center(w.box), span.box));
            // the words poppler finds inside the cell's box are the cell's text, nothing more, nothing less
            expect(squeeze(inside.map((w) => w.text).join('')), `${name} ${cell.ref}`).toBe(
              squeeze(chars.slice(cell.start, cell.end).join('')),
            );
          }
        }
        // the PDF route's own paragraphs of the table's text are gone: each table text is read once
        const area = mine.flatMap((e) => (e.anchor.kind === 'page' ? e.anchor.boxes : []));
        const rest = out.elements.filter((e) => !e.table && e.anchor.kind === 'page' && e.anchor.page_index === table.slide);
        for (const e of rest) {
          if (e.anchor.kind !== 'page') continue;
          expect(
            e.anchor.boxes.every((b) => area.some((a) => inBox(center(b), a))),
            e.text,
          ).toBe(false);
        }
      });
    },
    300_000,
  );

  it('names each value by its header (a marked header row, or a first row of names as in sheets)', async () => {
    const out = await parseSlides(read('markitdown__test.pptx'), { fileName: 'm.pptx', format: 'pptx', convert });
    const [header, first] = out.elements.filter((e) => e.table);
    expect(header?.table).toMatchObject({ index: 0, row: 0, header: true, title: 'A table to test parsing:' });
    expect(first?.cells?.map((c) => [c.ref, c.header])).toEqual([
      ['A2', 'ColA'],
      ['B2', 'ColB'],
      ['C2', 'ColC'],
      ['D2', 'ColD'],
      ['E2', 'ColE'],
      ['F2', 'ColF'],
    ]);
    const plain = await parseSlides(read('unstructured__fake-power-point-table.pptx'), {
      fileName: 't.pptx',
      format: 'pptx',
      convert,
    });
    const red = plain.elements.find((e) => e.text === 'Red | Green | Blue');
    expect(red?.table).toMatchObject({ row: 1, header: false, title: 'A Slide with a Table' });
    expect(red?.cells?.map((c) => c.header)).toEqual(['Column 1', 'Column 2', 'Column 3']);
  }, 300_000);

  it.each(['docling__powerpoint_sample.pptx', 'docling__legacy_sample.ppt'])(
    '%s: a second text row under group headings is a header row too, its names joined to the group’s',
    async (name) => {
      const out = await parseSlides(read(name), { fileName: name, format: formatOf(name), convert });
      const rows = out.elements.filter((e) => e.table?.index === 0);
      expect(rows.slice(0, 3).map((e) => e.table?.header)).toEqual([true, true, false]);
      const r1 = rows[2];
      expect(r1?.text.startsWith('R1 | ')).toBe(true);
      expect(r1?.cells?.map((c) => [c.ref, c.header])).toEqual([
        ['A3', undefined],
        ['B3', 'Class1 / A merged with B'],
        ['C3', 'Class1 / A merged with B'],
        ['E3', 'Class2 / A'],
        ['F3', 'Class2 / B'],
        ['G3', 'Class2 / C'],
      ]);
    },
    300_000,
  );
});
