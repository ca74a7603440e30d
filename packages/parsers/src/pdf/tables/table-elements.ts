import type { Element, PageInfo, TableCell, TableRow } from '@pinpoint/core';
import { pageAnchorOf } from '../../page-anchor.js';
import { columnRef } from '../../spreadsheet/header.js';
import { joinCells } from '../../spreadsheet/records.js';
import type { PdfTable, PdfTableCell } from './pdf-table.js';

/** Each grid column's header name: the header rows' texts over it, joined with " / ". */
function headerNames(table: PdfTable): Map<number, string> {
  const parts = new Map<number, string[]>();
  for (const c of table.cells) {
    if (c.row >= table.headerRows) continue;
    for (let k = c.col; k < c.col + c.colSpan; k++) {
      const list = parts.get(k) ?? [];
      if (!list.includes(c.text)) list.push(c.text);
      parts.set(k, list);
    }
  }
  return new Map([...parts].map(([k, list]) => [k, list.join(' / ')]));
}

/**
 * One table element per row of a PDF table (the one table model): cells joined with " | ", each
 * cell's range with its header name, and its box on the page as a span, so a cell cites its own box.
 * Element ids are left empty for the caller to number.
 */
export function tableElements(table: PdfTable, index: number, info: PageInfo, sectionPath: string[]): Element[] {
  const names = headerNames(table);
  const title = table.title ?? sectionPath.at(-1);
  const out: Element[] = [];
  const spanning: PdfTableCell[] = [];
  for (let r = 0; r < table.rowCount; r++) {
    const shown = table.cells.filter((c) => c.row === r).sort((a, b) => a.col - b.col);
    const carried = spanning
      .filter((c) => c.row < r && c.row + c.rowSpan > r)
      .map((c) => ({
        col: c.col,
        value: c.text,
        ...(names.get(c.col) && r >= table.headerRows ? { header: names.get(c.col) as string } : {}),
      }));
    spanning.push(...shown.filter((c) => c.rowSpan > 1));
    if (shown.length === 0) continue;
    const { text, ranges } = joinCells(shown.map((c) => ({ ...c, value: c.text })));
    const header = r < table.headerRows;
    const cells: TableCell[] = ranges.map((g) => {
      const name = header ? undefined : names.get(g.col);
      return { ref: columnRef(g.col, r + 1), col: g.col, start: g.start, end: g.end, ...(name ? { header: name } : {}) };
    });
    const place: TableRow = { index, row: r, header, ...(title ? { title } : {}), ...(carried.length > 0 ? { carried } : {}) };
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
  }
  return out;
}
