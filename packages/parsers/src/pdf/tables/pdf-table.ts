import type { Box } from '@pinpoint/core';

/** One cell of a table found on a PDF page: its place in the grid and the box of its text on the page. */
export interface PdfTableCell {
  row: number;
  col: number;
  rowSpan: number;
  colSpan: number;
  text: string;
  /** Union of the cell's word boxes: PDF points, top-left origin, unrotated page space. */
  box: Box;
}

/** A table found on one page: plain data, so it crosses from a parser child to its parent. */
export interface PdfTable {
  page_index: number;
  /** 'lattice': cells from drawn rulings; 'stream': columns from the alignment of the text. */
  flavor: 'lattice' | 'stream';
  /** The table's extent on the page (same space as the cell boxes). */
  box: Box;
  rowCount: number;
  colCount: number;
  /** Cells in row-major order; a merged cell appears once, at its top-left grid position. */
  cells: PdfTableCell[];
  /** How many leading rows are header rows. */
  headerRows: number;
  /** Caption or the line just above the table, when there is one. */
  title?: string;
}

/** The full grid: a merged cell's text at its top-left position, "" at the others. */
export function tableGrid(table: PdfTable): string[][] {
  const rows = Array.from({ length: table.rowCount }, () => Array.from({ length: table.colCount }, () => ''));
  for (const c of table.cells) {
    const row = rows[c.row];
    if (row) row[c.col] = c.text;
  }
  return rows;
}

export function unionBox(boxes: readonly Box[]): Box {
  let x0 = Number.POSITIVE_INFINITY;
  let y0 = Number.POSITIVE_INFINITY;
  let x1 = Number.NEGATIVE_INFINITY;
  let y1 = Number.NEGATIVE_INFINITY;
  for (const b of boxes) {
    x0 = Math.min(x0, b[0]);
    y0 = Math.min(y0, b[1]);
    x1 = Math.max(x1, b[2]);
    y1 = Math.max(y1, b[3]);
  }
  return [x0, y0, x1, y1];
}
