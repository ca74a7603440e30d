import type { Element, PageInfo } from '@pinpoint/core';
import type { PageTable } from '../../page-table-elements.js';
import { headerNamesOf, pageTableElements } from '../../page-table-elements.js';
import type { PdfTable, PdfTableCell } from './pdf-table.js';

/** The cells of a PDF table, grid row by grid row. */
function gridRows(table: PdfTable): PdfTableCell[][] {
  const rows = Array.from({ length: table.rowCount }, (): PdfTableCell[] => []);
  for (const c of table.cells) rows[c.row]?.push(c);
  return rows;
}

/** Where a PDF table's rows go in the document's one table model: which table, from which row, under which names. */
export interface TablePlace {
  index: number;
  /** Row number of the table's first row: above 0 when it continues a table from the page before. */
  firstRow: number;
  /** Header names and title of the table it continues, when its own page repeats no header. */
  names?: ReadonlyMap<number, string>;
  title?: string;
}

/** A PDF table's header names: its own header rows'. */
export function pdfHeaderNames(table: PdfTable): Map<number, string> {
  return headerNamesOf(gridRows(table).slice(0, table.headerRows));
}

/** One table element per row of a PDF table (see pageTableElements); ids left empty for the caller to number. */
export function tableElements(table: PdfTable, place: TablePlace, info: PageInfo, sectionPath: string[]): Element[] {
  const grid: PageTable = {
    rows: gridRows(table),
    headerRows: table.headerRows,
    names: place.names ?? pdfHeaderNames(table),
    index: place.index,
    firstRow: place.firstRow,
  };
  const title = place.title ?? table.title;
  if (title) grid.title = title;
  return pageTableElements(grid, info, sectionPath);
}
