import type { Box } from '@pinpoint/core';
import type { PdfBlock } from '../blocks.js';
import type { PdfTable } from './pdf-table.js';
import { unionBox } from './pdf-table.js';

/** What the join needs to know of a page: its height, its paragraph blocks and its tables. */
export interface TablePage {
  info: { height: number };
  blocks: PdfBlock[];
  tables: PdfTable[];
}

/** Share of the page height at its top and its bottom where running heads, footers and page numbers sit. */
const MARGIN = 0.12;
/** Points a column's edges may move from one page to the next. */
const SLACK = 6;

const blockBox = (b: PdfBlock): Box => unionBox(b.boxes);

/** The table that ends the page: only marginal text and the page's foot (footer, page number) below it. */
function lastTable(page: TablePage): PdfTable | undefined {
  const table = page.tables.reduce<PdfTable | undefined>((a, t) => (a && a.box[3] >= t.box[3] ? a : t), undefined);
  if (!table) return undefined;
  const foot = (1 - MARGIN) * page.info.height;
  const after = page.blocks.some((b) => !b.marginal && blockBox(b)[1] >= table.box[3] - 1 && blockBox(b)[1] < foot);
  return after ? undefined : table;
}

/** The table that opens the page: only marginal text and the page's head (running title) above it. */
function firstTable(page: TablePage): PdfTable | undefined {
  const table = page.tables.reduce<PdfTable | undefined>((a, t) => (a && a.box[1] <= t.box[1] ? a : t), undefined);
  if (!table) return undefined;
  const head = MARGIN * page.info.height;
  const before = page.blocks.some((b) => !b.marginal && blockBox(b)[3] <= table.box[1] + 1 && blockBox(b)[3] > head);
  return before ? undefined : table;
}

/** Each grid column's extent on the page [x0, x1], from the cells within that column alone. */
function columnSpans(table: PdfTable): Array<[number, number] | undefined> {
  const spans: Array<[number, number] | undefined> = Array.from({ length: table.colCount }, () => undefined);
  for (const c of table.cells) {
    if (c.colSpan !== 1) continue;
    const s = spans[c.col];
    spans[c.col] = s ? [Math.min(s[0], c.box[0]), Math.max(s[1], c.box[2])] : [c.box[0], c.box[2]];
  }
  return spans;
}

/** Same columns: as many, each overlapping its counterpart, and within SLACK of it on at least one edge. */
function sameColumns(a: PdfTable, b: PdfTable): boolean {
  if (a.colCount !== b.colCount || a.colCount < 2) return false;
  const sa = columnSpans(a);
  const sb = columnSpans(b);
  return sa.every((x, k) => {
    const y = sb[k];
    if (!x || !y) return true;
    const overlap = Math.min(x[1], y[1]) - Math.max(x[0], y[0]) > 0;
    return overlap && (Math.abs(x[0] - y[0]) <= SLACK || Math.abs(x[1] - y[1]) <= SLACK);
  });
}

const headerText = (t: PdfTable): string =>
  t.cells
    .filter((c) => c.row < t.headerRows)
    .map((c) => `${c.row}:${c.col}:${c.text.replace(/\s+/g, '').toLowerCase()}`)
    .join('|');

/** How a table continues one from the page before: with that table's header repeated, or with none of its own. */
function continuation(prev: PdfTable, next: PdfTable): 'repeated' | 'bare' | undefined {
  if (!sameColumns(prev, next)) return undefined;
  if (next.headerRows > 0) return prev.headerRows > 0 && headerText(prev) === headerText(next) ? 'repeated' : undefined;
  return next.title === undefined || next.title === prev.title ? 'bare' : undefined;
}

/**
 * The tables that go on from the page before (the one that ends it) on the next page (the one that
 * opens it), header repeated or not: each such table mapped to the table it continues. Each page
 * keeps its own rows, so a row, its chunk and its citation stay on their page.
 */
export function tableContinuations(pages: TablePage[]): Map<PdfTable, PdfTable> {
  const joined = new Map<PdfTable, PdfTable>();
  for (let p = 1; p < pages.length; p++) {
    const prev = lastTable(pages[p - 1] as TablePage);
    const next = firstTable(pages[p] as TablePage);
    if (!prev || !next || next.page_index !== prev.page_index + 1) continue;
    if (continuation(prev, next)) joined.set(next, prev);
  }
  return joined;
}
