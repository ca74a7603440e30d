import type { QaRow, QaTable } from './model.js';

/** The cells a row holds itself (not carried down from a row above) that are not empty. */
const ownCells = (row: QaRow) => [...row.cells.values()].filter((c) => c.element === row.element && c.text.trim() !== '');

/** A data row of one cell in a table of three columns or more: it heads the rows under it ("Third incarnation (1927–1950)"). */
const heading = (table: QaTable, row: QaRow): boolean => table.columns.length >= 3 && ownCells(row).length === 1;

/**
 * The rows a heading row heads: those under it up to the next heading. Undefined when the row heads
 * nothing, or the table has fewer than two headings (one row of a single cell is a row with its
 * values missing, not a section).
 */
export function sectionRows(table: QaTable, row: QaRow): QaRow[] | undefined {
  if (!heading(table, row)) return undefined;
  const headings = table.rows.filter((r) => heading(table, r));
  if (headings.length < 2) return undefined;
  const out: QaRow[] = [];
  for (const r of table.rows.slice(row.index + 1)) {
    if (heading(table, r)) break;
    out.push(r);
  }
  return out.length > 0 ? out : undefined;
}
