import type { Element, RecordEntry } from '@pinpoint/core';
import { type CellRange, cellInRange, parseCellRef } from './records.js';
import { splitAtCodepoints } from './textRange.js';

/** The cited part of a cell's text: all of it for a record cell, the cited range for a text one. */
interface CellMark {
  before: string;
  marked: string;
  after: string;
}

export interface GridCell {
  /** The cell's A1 reference in its table, as the anchors name it. */
  ref: string;
  text: string;
  mark?: CellMark | undefined;
}

export interface GridRow {
  key: string;
  /** The row number the cells' A1 references write (1-based), so a cited "C16" is found in row 16. */
  number: number;
  header: boolean;
  cited: boolean;
  /** By grid column, 0 … columns − 1; undefined where the table has no cell. */
  cells: (GridCell | undefined)[];
}

/** A table drawn as rows and columns, with its header rows and the cited row and cell. */
export interface TableGrid {
  columns: number;
  rows: GridRow[];
}

interface PlacedCell extends GridCell {
  col: number;
}

function placeCells(cells: readonly PlacedCell[], columns: number): (GridCell | undefined)[] {
  const out: (GridCell | undefined)[] = Array.from({ length: columns }, () => undefined);
  for (const { col, ...cell } of cells) if (col < columns) out[col] = cell;
  return out;
}

function gridOf(rows: { key: string; number: number; header: boolean; cited: boolean; cells: PlacedCell[] }[]): TableGrid {
  const columns = Math.max(0, ...rows.flatMap((r) => r.cells.map((c) => c.col + 1)));
  return { columns, rows: rows.map((r) => ({ ...r, cells: placeCells(r.cells, columns) })) };
}

/** What a record citation names: the record, and the cells of its range (none: the whole row). */
export interface CitedRecord {
  recordId: string | null;
  range: CellRange | null;
}

/** One table's records (a Word table: `table_index`, cells named A1 on the table's grid) as a grid. */
export function recordTableGrid(records: readonly RecordEntry[], cited: CitedRecord): TableGrid {
  return gridOf(
    records.map((r) => {
      const isCited = r.record_id === cited.recordId;
      const cells = (r.cells ?? []).map((c, i) => {
        const mark = isCited && cellInRange(c.ref, cited.range) ? { before: '', marked: c.value, after: '' } : undefined;
        return { ref: c.ref, col: parseCellRef(c.ref)?.col ?? i, text: c.value, mark };
      });
      const first = r.cells?.[0];
      const number = (first && parseCellRef(first.ref)?.row) ?? (r.row ?? 0) + 1;
      return { key: r.record_id, number, header: r.kind === 'header', cited: isCited, cells };
    }),
  );
}

/** A half-open codepoint range in the decoded text that text anchors index. */
export interface CodepointRange {
  start: number;
  end: number;
}

/** The cell's text split around `cited` when the cited range lies inside the cell. */
function markInCell(element: Element, cell: NonNullable<Element['cells']>[number], cited: CodepointRange): CellMark | undefined {
  if (element.anchor.kind !== 'text' || cited.end <= cited.start) return undefined;
  const start = element.anchor.start + cell.start;
  const end = element.anchor.start + cell.end;
  if (cited.start < start || cited.end > end) return undefined;
  const text = splitAtCodepoints(element.text, cell.start, cell.end).marked;
  const { before, marked, after } = splitAtCodepoints(text, cited.start - start, cited.end - start);
  return { before, marked, after };
}

/**
 * The table that holds the cited element (an HTML row: `table` and `cells` with codepoint ranges
 * into its text) drawn from the version's elements, the cell holding `cited` marked at exactly the
 * cited codepoints; null when the cited element is not in a table with cells.
 */
export function elementTableGrid(
  elements: readonly Element[],
  citedElementId: string,
  cited: CodepointRange | null,
): TableGrid | null {
  const citedElement = elements.find((e) => e.element_id === citedElementId);
  const index = citedElement?.table?.index;
  if (index === undefined) return null;
  const rows = elements.filter((e) => e.table?.index === index && (e.cells?.length ?? 0) > 0);
  if (rows.length === 0) return null;
  return gridOf(
    rows.map((e) => {
      const isCited = e.element_id === citedElementId;
      const cells = (e.cells ?? []).map((c) => ({
        ref: c.ref,
        col: c.col,
        text: splitAtCodepoints(e.text, c.start, c.end).marked,
        mark: isCited && cited ? markInCell(e, c, cited) : undefined,
      }));
      const first = e.cells?.[0];
      const number = (first && parseCellRef(first.ref)?.row) ?? (e.table?.row ?? 0) + 1;
      return { key: e.element_id, number, header: e.table?.header === true, cited: isCited, cells };
    }),
  );
}

/** How many leading rows are the table's head: through its last header row among the first `limit` rows. */
export function headRowCount(rows: readonly GridRow[], limit = 3): number {
  let count = 0;
  rows.slice(0, limit).forEach((row, i) => {
    if (row.header) count = i + 1;
  });
  return count;
}
