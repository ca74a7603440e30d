import type { QaCell, QaColumn, QaTable } from './model.js';

/**
 * How a superlative measures a cell: by the number it shows ("1,400 tons"), by how many values it
 * lists ("1996, 2001" lists two premierships, "979–988" ten engine numbers).
 */
export type CellReading = 'value' | 'items';

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

/** The measure of a cell as a reading takes it (null when the cell gives none). */
export function measureOf(cell: QaCell | undefined, reading: CellReading): number | null {
  if (!cell) return null;
  return reading === 'items' ? listedValues(cell.text) : cell.num;
}
