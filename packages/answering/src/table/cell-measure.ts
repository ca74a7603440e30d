import type { QaCell, QaColumn, QaRow, QaTable } from './model.js';
import { folded } from './model.js';

/**
 * How a superlative measures a cell: by the number it shows ("1,400 tons"), by how many values it
 * lists ("1996, 2001" lists two premierships, "979–988" ten engine numbers), by how long the span
 * of years it gives lasted ("1927–1938": 11 years).
 */
export type CellReading = 'value' | 'items' | 'length';

/** A cell that lists nothing: "Nil", "None", a dash. */
const NOTHING = /^\s*(?:nil|none|[-\u2010-\u2015\u2212]*)\s*$/i;
const ITEM = /^\d+$/;
/** "979–988": a run of numbers, its ends written with the same number of digits (3 or more: not a score "1-2"). */
const RUN = /^(\d{3,})\s*[-\u2010-\u2015\u2212]\s*(\d{3,})$/;

/**
 * How many values a cell lists: "1996, 2001" → 2, "602–608, 946–948" → 10, "2005" → 1, "Nil" → 0;
 * null when it is not a list of numbers ("1,332" is one number: a list puts a space after its commas).
 */
export function listedValues(text: string): number | null {
  const t = text.normalize('NFKC').replace(/\[[^\]]*\]/g, '');
  if (NOTHING.test(t)) return 0;
  let n = 0;
  for (const raw of t.split(/,\s+|\s*[;&]\s*|\s+and\s+/)) {
    const item = raw.trim();
    const run = RUN.exec(item);
    if (run?.[1] && run[2] && run[1].length === run[2].length && Number(run[2]) > Number(run[1])) {
      n += Number(run[2]) - Number(run[1]) + 1;
    } else if (ITEM.test(item)) n += 1;
    else return null;
  }
  return n;
}

/**
 * A column whose cells list values ("1996, 2001", "979–988"): nearly all its non-empty cells read as
 * lists, and at least one lists more than one value (else it is a column of plain numbers).
 */
export function listsValues(table: QaTable, col: QaColumn): boolean {
  const counts = table.rows
    .map((r) => r.cells.get(col.col)?.text ?? '')
    .filter((t) => t.trim() !== '')
    .map(listedValues);
  const read = counts.filter((n): n is number => n !== null);
  return read.length > 0 && read.length >= 0.8 * counts.length && read.some((n) => n > 1);
}

/** "1894–1904", "1990–91": a span of years, from one year to another. */
const SPAN = /^\s*(\d{4})\s*[-\u2010-\u2015\u2212]\s*(\d{4}|\d{2})\s*$/;

/** How many years a span of years lasted: "1927–1938" → 11, "1990–91" → 1; null when the cell gives no span. */
function spanLength(text: string): number | null {
  const m = SPAN.exec(text.normalize('NFKC'));
  if (!m?.[1] || !m[2]) return null;
  const from = Number(m[1]);
  const to = m[2].length === 2 ? Math.floor(from / 100) * 100 + Number(m[2]) : Number(m[2]);
  return to >= from ? to - from : null;
}

/** A column of spans of years ("Term": "1894–1904"): half its non-empty cells or more give one. */
export function givesSpans(table: QaTable, col: QaColumn): boolean {
  const texts = table.rows.map((r) => r.cells.get(col.col)?.text ?? '').filter((t) => t.trim() !== '');
  return texts.length > 0 && texts.filter((t) => spanLength(t) !== null).length * 2 >= texts.length;
}

/** The measure of a cell as a reading takes it (null when the cell gives none). */
export function measureOf(cell: QaCell | undefined, reading: CellReading): number | null {
  if (!cell) return null;
  if (reading === 'items') return listedValues(cell.text);
  return reading === 'length' ? spanLength(cell.text) : cell.num;
}

/** A value the question compares ("1898 or 1893") and the rows that hold it, with their total measure. */
export interface MeasuredGroup {
  key: QaCell;
  cells: QaCell[];
  total: number;
}

/**
 * "which had more GER numbers, 1898 or 1893?": each value compared names several rows, and its
 * measure is the total over them. Undefined unless two values or more are compared and one of them
 * names more than one row (one row each is an ordinary superlative).
 */
export function groupExtreme(
  rows: { row: QaRow; cells: QaCell[] }[],
  measure: QaColumn,
  reading: CellReading,
  op: 'max' | 'min',
): MeasuredGroup | undefined {
  const groups = new Map<string, MeasuredGroup>();
  for (const m of rows) {
    const key = m.cells[0];
    const cell = m.row.cells.get(measure.col);
    const n = measureOf(cell, reading);
    if (!key || !cell || n === null) continue;
    const id = folded(key.text);
    const g = groups.get(id) ?? { key, cells: [], total: 0 };
    g.cells.push(cell);
    g.total += n;
    groups.set(id, g);
  }
  const all = [...groups.values()];
  if (all.length < 2 || all.every((g) => g.cells.length === 1)) return undefined;
  return all.reduce((a, b) => (op === 'max' ? (b.total > a.total ? b : a) : b.total < a.total ? b : a));
}
