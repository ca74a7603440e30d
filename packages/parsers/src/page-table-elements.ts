import type { Box, Element, PageInfo, TableCell, TableRow } from '@pinpoint/core';
import { pageAnchorOf } from './page-anchor.js';
import { columnRef } from './spreadsheet/header.js';
import { joinCells } from './spreadsheet/records.js';

/** A cell of a table drawn on a page: its place in the grid, its text and its box on the page. */
export interface PageTableCell {
  col: number;
  colSpan: number;
  rowSpan: number;
  text: string;
  box: Box;
}

/** A table on one page (a PDF page's or a slide's), grid rows in order, ready to become row elements. */
export interface PageTable {
  /** Each grid row's cells that start in it, a merged cell once; a cell of empty text is not shown. */
  rows: PageTableCell[][];
  headerRows: number;
  /** Each grid column's header name. */
  names: ReadonlyMap<number, string>;
  title?: string;
  /** Index of the table in the document (a table continued from an earlier page keeps that one's). */
  index: number;
  /** Row number of rows[0] within its table: above 0 on a page that continues a table. */
  firstRow?: number;
}

/** Each grid column's header name: the texts of the header rows' cells over it, joined with " / ". */
export function headerNamesOf(headerRows: ReadonlyArray<ReadonlyArray<Omit<PageTableCell, 'box' | 'rowSpan'>>>) {
  const parts = new Map<number, string[]>();
  for (const row of headerRows)
    for (const c of row) {
      if (c.text === '') continue;
      for (let k = c.col; k < c.col + c.colSpan; k++) {
        const list = parts.get(k) ?? [];
        if (!list.includes(c.text)) list.push(c.text);
        parts.set(k, list);
      }
    }
  return new Map([...parts].map(([k, list]) => [k, list.join(' / ')]));
}

/**
 * One table element per row (the one table model): cells joined with " | ", each cell's range with
 * its header name, cells merged down from rows above carried with their header, and each cell's box
 * on the page as a span, so a cell cites its own box. Element ids are left empty for the caller.
 */
export function pageTableElements(table: PageTable, info: PageInfo, sectionPath: string[]): Element[] {
  const { names, headerRows } = table;
  const title = table.title ?? sectionPath.at(-1);
  const first = table.firstRow ?? 0;
  const out: Element[] = [];
  const spanning: Array<PageTableCell & { row: number }> = [];
  table.rows.forEach((row, r) => {
    const carried = spanning
      .filter((c) => c.row < r && c.row + c.rowSpan > r)
      .map((c) => ({
        col: c.col,
        value: c.text,
        ...(names.get(c.col) && r >= headerRows ? { header: names.get(c.col) as string } : {}),
      }));
    const shown = row.filter((c) => c.text !== '').sort((a, b) => a.col - b.col);
    spanning.push(...shown.filter((c) => c.rowSpan > 1).map((c) => ({ ...c, row: r })));
    if (shown.length === 0) return;
    const { text, ranges } = joinCells(shown.map((c) => ({ ...c, value: c.text })));
    const header = r < headerRows;
    const cells: TableCell[] = ranges.map((g) => {
      const name = header ? undefined : names.get(g.col);
      return { ref: columnRef(g.col, first + r + 1), col: g.col, start: g.start, end: g.end, ...(name ? { header: name } : {}) };
    });
    const place: TableRow = {
      index: table.index,
      row: first + r,
      header,
      ...(title ? { title } : {}),
      ...(carried.length > 0 ? { carried } : {}),
    };
    out.push({
      element_id: '',
      type: 'table',
      section_path: sectionPath,
      text,
      anchor: pageAnchorOf(
        info,
        shown.map((c) => c.box),
      ),
      spans: ranges.map((g) => ({ start: g.start, end: g.end, box: g.box })),
      cells,
      table: place,
    });
  });
  return out;
}
