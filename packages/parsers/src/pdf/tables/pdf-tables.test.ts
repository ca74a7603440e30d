import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { Box, Element } from '@pinpoint/core';
import { sliceCodepoints } from '@pinpoint/core';
import { describe, expect, it } from 'vitest';
import { readShared, sharedDir } from '../../../test/test-support.js';
import { buildContext } from '../../capabilities.js';
import { assemblePdf, PdfPageReader, readPdfTables } from '../parse-pdf.js';
import { craftedPdf } from './crafted-pdf.js';
import type { PdfTable } from './pdf-table.js';
import { tableGrid } from './pdf-table.js';

const FB = 'eval/financebench-dev/docs/';
const TABULA = 'eval/pdf-tables-tabula/docs/';

/** Pages [first, end) of a shared PDF, read as the parser reads them. */
async function readPages(path: string, first: number, end: number) {
  const bytes = readShared(path);
  const fileName = path.split('/').at(-1) as string;
  const reader = await PdfPageReader.open(bytes, { fileName, format: 'pdf' }, {}, 'original');
  try {
    return await reader.read(first, end);
  } finally {
    await reader.close();
  }
}

const tablesOn = async (path: string, page: number): Promise<PdfTable[]> =>
  (await readPages(path, page, page + 1)).pages[0]?.tables ?? [];

interface PopplerWord {
  text: string;
  box: Box;
}

/** Poppler's words of a page (pdftotext -bbox), turned back from its displayed (rotated) page to the unrotated page. */
function popplerWords(path: string, page: number): PopplerWord[] {
  const file = fileURLToPath(new URL(path, sharedDir));
  const xml = execFileSync('pdftotext', ['-bbox', '-f', String(page + 1), '-l', String(page + 1), file, '-'], {
    encoding: 'utf8',
  });
  const info = execFileSync('pdfinfo', ['-f', String(page + 1), '-l', String(page + 1), file], { encoding: 'utf8' });
  const rot = Number(/Page\s+\d+\s+rot:\s+(\d+)/.exec(info)?.[1] ?? 0);
  const [, w = 0, h = 0] = (/Page\s+\d+\s+size:\s+([\d.]+) x ([\d.]+)/.exec(info) ?? []).map(Number);
  const unrotate = ([x0, y0, x1, y1]: Box): Box => {
    if (rot === 90) return [y0, h - x1, y1, h - x0];
    if (rot === 180) return [w - x1, h - y1, w - x0, h - y0];
    if (rot === 270) return [w - y1, x0, w - y0, x1];
    return [x0, y0, x1, y1];
  };
  return [...xml.matchAll(/<word xMin="([\d.]+)" yMin="([\d.]+)" xMax="([\d.]+)" yMax="([\d.]+)">([^<]*)<\/word>/g)].map((m) => ({
    text: (m[5] as string)
      .replace(/&amp;/g, '&')
      .replace(/&lt;/g, '<')
      .replace(/&gt;/g, '>')
      .replace(/&quot;/g, '"')
      .replace(/&apos;/g, "'"),
    box: unrotate([Number(m[1]), Number(m[2]), Number(m[3]), Number(m[4])]),
  }));
}

const squeeze = (s: string): string => [...s.normalize('NFKC').replace(/\s+/g, '')].sort().join('');
const centreIn = (b: Box, area: Box): boolean => {
  const [cx, cy] = [(b[0] + b[2]) / 2, (b[1] + b[3]) / 2];
  return cx >= area[0] - 1 && cx <= area[2] + 1 && cy >= area[1] - 1 && cy <= area[3] + 1;
};

/** Every cell's box, on the page as poppler reads it, holds exactly that cell's text (its characters, in any order). */
function expectBoxesHoldTheirText(path: string, table: PdfTable): void {
  const words = popplerWords(path, table.page_index);
  for (const cell of table.cells) {
    const inside = words.filter((w) => centreIn(w.box, cell.box)).map((w) => w.text);
    expect(squeeze(inside.join('')), `cell r${cell.row}c${cell.col} "${cell.text}"`).toBe(squeeze(cell.text));
  }
}

const cellAt = (t: PdfTable, row: number, col: number) => t.cells.find((c) => c.row === row && c.col === col);

describe('tables on real PDF pages', () => {
  it('a cash-flow statement (unruled, indented labels, three period columns): the PP&E row under 2018 is (1,577)', async () => {
    const tables = await tablesOn(`${FB}3M_2018_10K.pdf`, 59);
    const table = tables.find((t) => t.cells.some((c) => c.text === 'Purchases of property, plant and equipment (PP&E)'));
    expect(table?.flavor).toBe('stream');
    const t = table as PdfTable;
    const label = t.cells.find((c) => c.text === 'Purchases of property, plant and equipment (PP&E)');
    const year = t.cells.find((c) => c.row < t.headerRows && c.text === '2018');
    expect(t.cells.filter((c) => c.row < t.headerRows).map((c) => c.text)).toEqual(
      expect.arrayContaining(['2018', '2017', '2016']),
    );
    expect(cellAt(t, label?.row ?? -1, year?.col ?? -1)?.text).toBe('(1,577)');
    expectBoxesHoldTheirText(`${FB}3M_2018_10K.pdf`, t);
  });

  it('a ruled table with merged cells: spans from missing rulings, every box holding its text', async () => {
    const [t] = await tablesOn(`${TABULA}spanning_cells.pdf`, 0);
    expect(t?.flavor).toBe('lattice');
    expect(t?.cells.some((c) => c.colSpan > 1)).toBe(true);
    expectBoxesHoldTheirText(`${TABULA}spanning_cells.pdf`, t as PdfTable);
  });

  it('a ruled table on a page turned 90°: boxes in the unrotated page hold their text', async () => {
    const [t] = await tablesOn(`${TABULA}schools.pdf`, 0);
    expect(t?.cells.find((c) => c.row === 0 && c.col === 0)?.text).toBe('Last Name');
    expectBoxesHoldTheirText(`${TABULA}schools.pdf`, t as PdfTable);
  });

  it('a ruled table whose column headers are set on their side: the turned headers fill their cells', async () => {
    const path = 'eval/pdf-tables-dev/docs/redp5110_sampled.pdf';
    const t = (await tablesOn(path, 8)).find((x) => x.flavor === 'lattice') as PdfTable;
    const header = t.cells.filter((c) => c.row === 0).map((c) => c.text);
    expect(header).toEqual(['User action', '*JOBCTL', 'QIBM_DB_SECADM', 'QIBM_DB_SQLADM', 'QIBM_DB_SYSMON', 'No Authority']);
    expectBoxesHoldTheirText(path, t);
  });

  it('a table of names and votes', async () => {
    const [t] = await tablesOn(`${TABULA}argentina_diputados_voting_record.pdf`, 0);
    expect(t?.colCount).toBeGreaterThanOrEqual(4);
    expectBoxesHoldTheirText(`${TABULA}argentina_diputados_voting_record.pdf`, t as PdfTable);
  });

  it('a table ruled only across its rows: the lines of a cell set on several lines are one cell of one row', async () => {
    const path = `${TABULA}AnimalSounds.pdf`;
    const [t] = await tablesOn(path, 0);
    const grid = tableGrid(t as PdfTable);
    expect(grid.map((r) => r[0])).toEqual(['Animal', 'Cat', 'Parastratiosphecomyiastratiosph ecomyioides', 'Fox']);
    expect(grid[3]?.[2]).toBe(
      'Ring- dingdingdingdingeringedingGer ing- dingdingdingdingeringedingGer ing-dingdingdingdingeringeding',
    );
    expect(t?.headerRows).toBe(1);
    expectBoxesHoldTheirText(path, t as PdfTable);
  });

  it('two tables side by side, each ruled across its own width: two tables, their wrapped cells whole', async () => {
    const path = `${TABULA}AnimalSounds1.pdf`;
    const tables = await tablesOn(path, 0);
    expect(tables.map((t) => [t.rowCount, t.colCount])).toEqual([
      [4, 3],
      [4, 3],
    ]);
    expect(tableGrid(tables[1] as PdfTable)[1]).toEqual(['Dogs/wolves/ More dogs', 'Says', 'Bow-wow/ ruff-ruff']);
    for (const t of tables) expectBoxesHoldTheirText(path, t);
  });

  it('officers in shaded bands: one row per officer, each cell whole over its lines', async () => {
    const path = `${FB}3M_2018_10K.pdf`;
    const t = (await tablesOn(path, 7)).find((x) => x.cells.some((c) => c.text === 'James L. Bauman')) as PdfTable;
    const grid = tableGrid(t);
    expect(t.headerRows).toBe(0);
    // every row names its officer and age: no row holds only the wrapped lines of another
    expect(grid.every((r) => r[0] !== '' && /^\d+$/.test(r[1] ?? ''))).toBe(true);
    expect(grid.find((r) => r[0] === 'James L. Bauman')?.slice(1, 4)).toEqual([
      '59',
      'Executive Vice President, Industrial Business Group',
      '2017',
    ]);
    expectBoxesHoldTheirText(path, t);
  });

  it('header rows told from body rows by their text alone: a heading over names and ages, a table of words alone', async () => {
    const officers = (await tablesOn(`${FB}3M_2018_10K.pdf`, 7)).find((x) => x.cells.some((c) => c.text === 'Name'));
    const grid = tableGrid(officers as PdfTable);
    expect(grid[(officers?.headerRows ?? 0) - 1]?.[0]).toBe('Name');
    expect(grid[officers?.headerRows ?? -1]?.[0]).toBe('Inge. G. Thulin');
    const [animals] = await tablesOn(`${TABULA}AnimalSounds.pdf`, 0);
    expect(animals?.headerRows).toBe(1);
  });

  it('a column header set on several lines is one header row: its baselines closer than the rows below', async () => {
    const path = `${FB}BOEING_2018_10K.pdf`;
    const t = (await tablesOn(path, 39)).find((x) => x.cells.some((c) => c.text === 'Interest on debt')) as PdfTable;
    const grid = tableGrid(t);
    expect(grid[0]).toEqual(['(Dollars in millions)', 'Total', 'Less than 1 year', '1-3 years', '3-5 years', 'After 5 years']);
    expect(t.headerRows).toBe(1);
    expect(grid[1]?.[0]).toBe('Long-term debt (including current portion)');
    expectBoxesHoldTheirText(path, t);
    // a heading over a group of columns ("Year ended December 31," over three years) stays a row of its own
    const corning = (await tablesOn(`${FB}CORNING_2020_10K.pdf`, 31)).find((x) => x.flavor === 'stream') as PdfTable;
    expect(tableGrid(corning).slice(0, 2)).toEqual([
      ['', '', 'Year ended December 31,', ''],
      ['(In millions)', '2020', '2019', '2018'],
    ]);
  });

  it('header lines bottom-aligned over a ruled body: the row label heading on the last line joins, the heading over the columns stays above', async () => {
    const path = `${TABULA}eu-002.pdf`;
    const t = (await tablesOn(path, 0)).find((x) => x.cells.some((c) => c.text === 'School climate')) as PdfTable;
    const grid = tableGrid(t);
    expect(grid.slice(0, 2)).toEqual([
      ['', 'Difficulties encountered with respect to', '', ''],
      [
        'Impacts on participating pupils',
        'Lack of interest/ acceptance from colleagues',
        'Lack of interest of pupils',
        'Lack of interest of parents',
      ],
    ]);
    expect(t.headerRows).toBe(2);
    expect(grid[2]).toEqual(['Knowledge and awareness of different cultures', '-0,1651', '-0,2742', '-0,1618']);
    expectBoxesHoldTheirText(path, t);
  });

  it('a two-page spread: text across the fold is not one table, and a header of words over a table of words is one row', async () => {
    const path = 'eval/pdf-tables-dev/docs/table_mislabeled_as_picture.pdf';
    const [t, ...others] = await tablesOn(path, 0);
    expect(others).toEqual([]);
    const grid = tableGrid(t as PdfTable);
    expect(grid[0]).toEqual(['', '', 'State funded legal aid', 'CSOs']);
    expect(t?.headerRows).toBe(1);
    expect(grid.slice(1).map((r) => r[1])).toEqual([
      'Persons with disabilities',
      'Children',
      'Women',
      'The elderly',
      'Migrants',
      'Refugees, asylum seekers, or stateless persons',
      'Internally displaced persons',
    ]);
    // the list on the left-hand page stays out of it
    expect(t?.cells.some((c) => c.text.includes('Yes, at'))).toBe(false);
  });

  it('two-column prose and a table of contents are not tables', async () => {
    // pages 1–2 of a two-column paper (page 3's code listing with a column of comments does read as a table)
    const paper = await readPages('corpus/formats/pdf/pdfjs__tracemonkey.pdf', 0, 2);
    expect(paper.pages.flatMap((p) => p.tables)).toEqual([]);
    expect(await tablesOn('eval/pdf-tables-dev/docs/redp5110_sampled.pdf', 1)).toEqual([]);
  });
});

describe('tables on a scanned page', () => {
  it('the same reading over OCR words: a vital-signs table with its rows and header', async () => {
    const path = 'corpus/formats/pdf/markitdown__MEDRPT-2024-PAT-3847_medical_report_scan.pdf';
    const fileName = path.split('/').at(-1) as string;
    const ctx = buildContext({ fileName, format: 'pdf', capabilities: { ocr: { engine: 'tesseract-cli' } } });
    const tables = await readPdfTables(readShared(path), ctx);
    const vitals = tables.find((t) => t.cells.some((c) => c.text === 'Heart Rate')) as PdfTable;
    expect(vitals.title).toBe('VITAL SIGNS');
    expect(vitals.headerRows).toBe(1);
    const heart = vitals.cells.find((c) => c.text === 'Heart Rate');
    expect(cellAt(vitals, heart?.row ?? -1, 1)?.text).toBe('78 bpm');
    for (const c of vitals.cells) expect(c.box[2]).toBeGreaterThan(c.box[0]);
  }, 120_000);
});

describe('tables in the one table model', () => {
  it('statement rows become table elements whose cells cite their own box; paragraphs leave the table text out', async () => {
    const read = await readPages(`${FB}3M_2018_10K.pdf`, 59, 60);
    const out = assemblePdf(read, { fileName: '3M_2018_10K.pdf', format: 'pdf', ocr: false });
    const rows = out.elements.filter((e) => e.type === 'table');
    const ppe = rows.find((e) => e.text.startsWith('Purchases of property, plant and equipment (PP&E)')) as Element;
    const cell = ppe.cells?.find((c) => c.header?.includes('2018'));
    expect(cell && sliceCodepoints(ppe.text, cell.start, cell.end)).toBe('(1,577)');
    const span = ppe.spans?.find((s) => s.start === cell?.start && s.end === cell?.end);
    expect(span).toBeDefined();
    const words = popplerWords(`${FB}3M_2018_10K.pdf`, 59).filter((w) => centreIn(w.box, span?.box as Box));
    expect(words.map((w) => w.text).join(' ')).toBe('(1,577)');
    const prose = out.elements
      .filter((e) => e.type !== 'table')
      .map((e) => e.text)
      .join('\n');
    expect(prose).not.toContain('(1,577)');
    expect(ppe.table?.header).toBe(false);
    expect(rows.some((e) => e.table?.header)).toBe(true);
  });
});

describe('a table that goes on over several pages', () => {
  it('a ruled list of donors over five turned pages, its header repeated on each: one table, every row on its own page', async () => {
    const read = await readPages(`${TABULA}schools.pdf`, 0, 5);
    const out = assemblePdf(read, { fileName: 'schools.pdf', format: 'pdf', ocr: false });
    const rows = out.elements.filter((e) => e.table);
    expect(new Set(rows.map((e) => e.table?.index))).toEqual(new Set([0]));
    const pageOf = (e: Element): number => (e.anchor.kind === 'page' ? e.anchor.page_index : -1);
    expect(new Set(rows.map(pageOf))).toEqual(new Set([0, 1, 2, 3, 4]));
    // rows numbered on through the pages, each page's repeated header kept as a header row on that page
    const numbers = rows.map((e) => e.table?.row ?? -1);
    expect(numbers.every((n, i) => i === 0 || n > (numbers[i - 1] as number))).toBe(true);
    expect(numbers.at(-1)).toBeGreaterThan(200);
    expect(rows.filter((e) => e.table?.header).map(pageOf)).toEqual([0, 1, 2, 3, 4]);
    const later = rows.find((e) => pageOf(e) === 3 && !e.table?.header) as Element;
    expect(later.cells?.[0]?.header).toBe('Last Name');
    expect(later.cells?.[0]?.ref).toBe(`A${(later.table?.row ?? 0) + 1}`);
    for (const e of rows)
      for (const s of e.spans ?? []) {
        const [x0, y0, x1, y1] = s.box;
        expect(x1 > x0 && y1 > y0 && e.anchor.kind === 'page' && x1 <= e.anchor.page_width + 1).toBe(true);
      }
  });

  it('a list of stores by state that runs on to the next page with no header: its rows there take the header of the page before', async () => {
    const read = await readPages(`${FB}BESTBUY_2017_10K.pdf`, 16, 18);
    const out = assemblePdf(read, { fileName: 'BESTBUY_2017_10K.pdf', format: 'pdf', ocr: false });
    const row = (label: string) => out.elements.find((e) => e.table && e.text.startsWith(`${label} |`)) as Element;
    const [vermont, virginia] = [row('Vermont'), row('Virginia')];
    expect(vermont.anchor.kind === 'page' && vermont.anchor.page_index).toBe(16);
    expect(virginia.anchor.kind === 'page' && virginia.anchor.page_index).toBe(17);
    expect(virginia.table?.index).toBe(vermont.table?.index);
    expect(virginia.table?.row).toBe((vermont.table?.row ?? 0) + 1);
    expect(virginia.table?.title).toBe(vermont.table?.title);
    // the header is set on three lines over each column, closer than the rows below: one header row names it
    const stores = virginia.cells?.find((c) => sliceCodepoints(virginia.text, c.start, c.end) === '34');
    expect(stores?.header).toBe('U.S. Best Buy Stores');
    expect(stores?.ref).toBe(`B${(virginia.table?.row ?? 0) + 1}`);
    const span = virginia.spans?.find((s) => s.start === stores?.start);
    const words = popplerWords(`${FB}BESTBUY_2017_10K.pdf`, 17).filter((w) => centreIn(w.box, span?.box as Box));
    expect(words.map((w) => w.text)).toEqual(['34']);
  });

  it('tables on consecutive pages with prose between them stay apart', async () => {
    const read = await readPages(`${FB}3M_2018_10K.pdf`, 58, 61);
    const out = assemblePdf(read, { fileName: '3M_2018_10K.pdf', format: 'pdf', ocr: false });
    const pagesOf = new Map<number, Set<number>>();
    for (const e of out.elements)
      if (e.table && e.anchor.kind === 'page')
        pagesOf.set(e.table.index, (pagesOf.get(e.table.index) ?? new Set()).add(e.anchor.page_index));
    expect([...pagesOf.values()].every((pages) => pages.size === 1)).toBe(true);
  });
});

describe('bad input', () => {
  it('10,000 tiny text items on a page: no table, within the parse limits', async () => {
    const bytes = craftedPdf({ texts: 10_000 });
    const started = performance.now();
    const reader = await PdfPageReader.open(bytes, { fileName: 'tiny.pdf', format: 'pdf' }, {}, 'original');
    const read = await reader.read(0, 1).finally(() => reader.close());
    expect(read.pages[0]?.tables).toEqual([]);
    expect(performance.now() - started).toBeLessThan(60_000);
  }, 90_000);

  it('50,000 drawn lines under a grid of text: no table, within the parse limits', async () => {
    const bytes = craftedPdf({ texts: 400, lines: 50_000 });
    const started = performance.now();
    const reader = await PdfPageReader.open(bytes, { fileName: 'lines.pdf', format: 'pdf' }, {}, 'original');
    const read = await reader.read(0, 1).finally(() => reader.close());
    expect(read.pages[0]?.tables.filter((t) => t.flavor === 'lattice')).toEqual([]);
    expect(read.diagnostics.map((d) => d.rule_id)).toContain('pdf/tables-skipped');
    expect(performance.now() - started).toBeLessThan(60_000);
  }, 90_000);
});
