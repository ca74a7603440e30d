import { readFileSync } from 'node:fs';
import type { PageAnchor } from '@pinpoint/core';
import { sliceCodepoints } from '@pinpoint/core';
import { describe, expect, it } from 'vitest';
import { createLibreOfficeConverter } from './libreoffice.js';
import { parseSlides } from './parse-office.js';
import { slideTables } from './slide-tables.js';

const corpus = new URL('../../../../../shared/corpus/formats/pptx/', import.meta.url);
const read = (name: string) => new Uint8Array(readFileSync(new URL(name, corpus)));
const convert = createLibreOfficeConverter();

/** The corpus presentations that hold a table. */
const decks = [
  'unstructured__fake-power-point-table.pptx',
  'docling__powerpoint_sample.pptx',
  'markitdown__test.pptx',
  'tika__testPPT_various.pptx',
];

describe('PowerPoint tables in the one table model', () => {
  it('reads each slide table: rows, cells and their boxes inside the frame', async () => {
    const found = await slideTables(read('unstructured__fake-power-point-table.pptx'));
    expect(found?.tables).toHaveLength(1);
    const [table] = found?.tables ?? [];
    expect(table?.rows[0]?.map((c) => c.text)).toEqual(['Column 1', 'Column 2', 'Column 3']);
    expect(table?.rows[1]?.[0]?.text).toBe('Red');
    for (const c of table?.rows.flat() ?? []) {
      expect(c.box[0]).toBeGreaterThanOrEqual(table?.frame[0] ?? 0);
      expect(c.box[2]).toBeLessThanOrEqual((table?.frame[2] ?? 0) + 1);
    }
  });

  it.each(decks)('%s: a row element per table row, each cell resolving to its own text and box', async (name) => {
    const out = await parseSlides(read(name), { fileName: name, format: 'pptx', convert });
    const rows = out.elements.filter((e) => e.table);
    expect(rows.length).toBeGreaterThan(1);
    expect(rows.some((e) => e.table?.header)).toBe(true);
    for (const e of rows.filter((x) => x.table?.header)) expect(e.cells?.every((c) => c.header === undefined)).toBe(true);
    expect(new Set(out.elements.map((e) => e.element_id)).size).toBe(out.elements.length);
    for (const e of rows) {
      const a = e.anchor as PageAnchor;
      expect(a).toMatchObject({ kind: 'page', artifact: 'pdf' });
      expect(e.cells?.length).toBe(e.spans?.length);
      for (const [i, c] of (e.cells ?? []).entries()) {
        const span = e.spans?.[i];
        expect(span).toMatchObject({ start: c.start, end: c.end });
        const [x0, y0, x1, y1] = span?.box ?? [0, 0, 0, 0];
        expect(x0).toBeLessThan(x1);
        expect(y0).toBeLessThan(y1);
        expect(x1).toBeLessThanOrEqual(a.page_width + 1);
        expect(y1).toBeLessThanOrEqual(a.page_height + 1);
        expect(sliceCodepoints(e.text, c.start, c.end)).not.toContain(' | ');
      }
    }
    expect(rows.some((e) => e.cells?.some((c) => c.header))).toBe(true);
    // the table's text is read once: as rows, not again as the PDF's paragraphs
    const first = rows.find((e) => !e.table?.header)?.cells?.[0];
    const firstText = first && sliceCodepoints(rows.find((e) => !e.table?.header)?.text ?? '', first.start, first.end);
    if (firstText && firstText.length > 3)
      expect(out.elements.filter((e) => !e.table && e.text.trim() === firstText.trim())).toHaveLength(0);
  });

  it("answers the fake table's rows with header names", async () => {
    const out = await parseSlides(read('unstructured__fake-power-point-table.pptx'), {
      fileName: 'fake.pptx',
      format: 'pptx',
      convert,
    });
    const red = out.elements.find((e) => e.table && e.text.startsWith('Red'));
    expect(red?.cells?.map((c) => c.header)).toEqual(['Column 1', 'Column 2', 'Column 3']);
    expect(red?.table).toMatchObject({ index: 0, row: 1, header: false });
  });
});
