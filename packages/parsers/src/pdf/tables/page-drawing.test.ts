import { describe, expect, it } from 'vitest';
import { PdfPageReader } from '../parse-pdf.js';
import type { Operation } from './content-ops.js';
import { readOperations } from './content-ops.js';
import { pdfWithContent, streamObject } from './crafted-pdf.js';
import type { PdfTable } from './pdf-table.js';

/** Each operator of a content stream with its operands (numbers, NaN for others) and last name. */
function operations(content: string): Array<[string, number[], string | undefined]> {
  const out: Array<[string, number[], string | undefined]> = [];
  const name = (code: number): string =>
    String.fromCharCode(...[code & 255, (code >> 8) & 255, (code >> 16) & 255].filter(Boolean));
  readOperations(new TextEncoder().encode(content), (op: Operation) => {
    out.push([name(op.op), Array.from(op.nums.subarray(0, op.count)), op.name]);
    return true;
  });
  return out;
}

describe('a content stream read for its drawing', () => {
  it('splits operators written together as pdf.js does, and reads numbers as it does', () => {
    expect(operations('q 1 0 0 1 -.5 +2. cm 10 20 m 30 40 l SQq')).toEqual([
      ['q', [], undefined],
      ['cm', [1, 0, 0, 1, -0.5, 2], undefined],
      ['m', [10, 20], undefined],
      ['l', [30, 40], undefined],
      ['S', [], undefined],
      ['Q', [], undefined],
      ['q', [], undefined],
    ]);
  });

  it('steps over strings, arrays, dictionaries, comments and inline images without taking operators from them', () => {
    const content = [
      'BT /F1 9 Tf (a (nested) \\) re S) Tj [(x) -250 (y re)] TJ <7265> Tj ET % 1 2 3 4 re f',
      '/Span << /ActualText (0 0 m) /MCID 3 >> BDC EMC',
      'BI /W 2 /H 1 /BPC 8 /CS /G ID \x00re f\x01 EI',
      '/Fm#301 Do 1 2 3 4 re f',
    ].join('\n');
    expect(operations(content).map(([op]) => op)).toEqual([
      'BT',
      'Tf',
      'Tj',
      'TJ',
      'Tj',
      'ET',
      'BDC',
      'EMC',
      'BI',
      'ID',
      'Do',
      're',
      'f',
    ]);
    const [, args, name] = operations(content).find(([op]) => op === 'Do') ?? [];
    expect([args, name]).toEqual([[Number.NaN], 'Fm01']);
    expect(operations('/Span << /MCID 3 >> BDC')[0]?.[1]).toEqual([Number.NaN, Number.NaN]);
  });

  it('keeps no more operands than pdf.js takes, the last ones', () => {
    const many = Array.from({ length: 40 }, (_, i) => i).join(' ');
    const [[, args] = []] = operations(`${many} re`);
    expect(args?.length).toBe(33);
    expect(args?.slice(-4)).toEqual([36, 37, 38, 39]);
  });

  it('ends on an unclosed string, array or dictionary without reading past the stream', () => {
    for (const bad of ['(never closed 1 2 m', '[1 2 3 re f', '<< /A 1 0 0 m', 'BI /W 1 ID \x00\x00', '1 2 3'])
      expect(() => operations(bad)).not.toThrow();
    expect(operations('[1 2 3 4 re f')).toEqual([]);
  });
});

/** A 4-row, 3-column statement of labels and amounts at fixed places, with `rulings` drawn. */
function statementPdf(rulings: string, resources = '', objects: string[] = []): Uint8Array {
  const rows = [
    ['Item', '2023', '2024'],
    ['Revenue', '1,200', '1,350'],
    ['Costs', '(800)', '(910)'],
    ['Profit', '400', '440'],
  ];
  const text = rows.flatMap((cells, r) =>
    cells.map((cell, c) => `1 0 0 1 ${[100, 250, 340][c]} ${700 - 20 * r} Tm (${cell}) Tj`),
  );
  return pdfWithContent(['BT /F1 10 Tf', ...text, 'ET', rulings].join('\n'), resources, objects);
}

const ACROSS = [712, 692, 672, 652, 632];
const DOWN = [90, 230, 320, 400];
const strokes = (dx = 0): string =>
  [...ACROSS.map((y) => `${90 + dx} ${y} m ${400 + dx} ${y} l S`), ...DOWN.map((x) => `${x + dx} 632 m ${x + dx} 712 l S`)].join(
    '\n',
  );

async function tablesOf(bytes: Uint8Array): Promise<{ tables: PdfTable[]; rules: string[] }> {
  const reader = await PdfPageReader.open(bytes, { fileName: 'drawn.pdf', format: 'pdf' }, {}, 'original');
  const read = await reader.read(0, 1).finally(() => reader.close());
  return { tables: read.pages[0]?.tables ?? [], rules: read.diagnostics.map((d) => d.rule_id) };
}

const gridOf = (t: PdfTable | undefined) => t && { flavor: t.flavor, rows: t.rowCount, cols: t.colCount };

describe("rulings read from a page's drawing", () => {
  it('stroked lines: a ruled table of 4 rows and 3 columns', async () => {
    const { tables } = await tablesOf(statementPdf(`0.5 w ${strokes()}`));
    expect(gridOf(tables[0])).toEqual({ flavor: 'lattice', rows: 4, cols: 3 });
  });

  it('a table drawn as thin filled rectangles: the same grid', async () => {
    const bars = [...ACROSS.map((y) => `90 ${y - 0.4} 310 0.8 re`), ...DOWN.map((x) => `${x - 0.4} 632 0.8 80 re`)].join('\n');
    const { tables } = await tablesOf(statementPdf(`0 0 0 rg\n${bars}\nf`));
    expect(gridOf(tables[0])).toEqual({ flavor: 'lattice', rows: 4, cols: 3 });
  });

  it('dashed rulings: the same grid', async () => {
    const { tables } = await tablesOf(statementPdf(`[2 2] 0 d 0.5 w\n${strokes()}`));
    expect(gridOf(tables[0])).toEqual({ flavor: 'lattice', rows: 4, cols: 3 });
  });

  it('rulings inside a form XObject placed by its matrix: the same grid', async () => {
    const form = streamObject('/Type /XObject /Subtype /Form /BBox [0 0 612 792] /Matrix [1 0 0 1 50 0]', strokes(-50));
    const { tables } = await tablesOf(statementPdf('q /Fm0 Do Q', '/XObject << /Fm0 6 0 R >>', [form]));
    expect(gridOf(tables[0])).toEqual({ flavor: 'lattice', rows: 4, cols: 3 });
  });

  it('no rulings, or rulings painted white: read as an unruled table', async () => {
    for (const drawing of ['', `1 G ${strokes()}`, `/CS0 CS 1 1 1 SC ${strokes()}`]) {
      const { tables } = await tablesOf(statementPdf(drawing, '/ColorSpace << /CS0 /DeviceRGB >>'));
      expect(
        tables.map((t) => t.flavor),
        drawing,
      ).toEqual(['stream']);
    }
  });

  it('malformed drawing operators: the page still reads, its text whole', async () => {
    const garbage =
      '1 2 re f m l ] ] >> ) 1e5 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 24 25 26 27 28 29 30 31 32 33 34 35 re f Q Q Q';
    const { tables } = await tablesOf(statementPdf(`${garbage}\n${strokes()}\n[1 2 3 m l S`));
    expect(tables).toHaveLength(1);
  });

  it('a form that draws itself, and one drawn 100,000 times: settles within the parse limits, cut and said', async () => {
    const self = streamObject(
      '/Type /XObject /Subtype /Form /BBox [0 0 612 792] /Resources << /XObject << /Me 6 0 R >> >>',
      `${strokes()} /Me Do`,
    );
    const { tables } = await tablesOf(statementPdf('/Me Do', '/XObject << /Me 6 0 R >>', [self]));
    expect(gridOf(tables[0])).toEqual({ flavor: 'lattice', rows: 4, cols: 3 });

    const many = streamObject('/Type /XObject /Subtype /Form /BBox [0 0 612 792]', `${'% padding '.repeat(100)}\n1 1 m 2 2 l S`);
    const started = performance.now();
    const drawn = await tablesOf(statementPdf('/Many Do\n'.repeat(100_000), '/XObject << /Many 6 0 R >>', [many]));
    expect(drawn.rules).toContain('pdf/tables-skipped');
    expect(performance.now() - started).toBeLessThan(60_000);
  }, 90_000);
});
