import { headerScale } from '@pinpoint/analysis';
import type { QaCell, QaRow, QaTable } from '../table/model.js';
import { termsOf } from '../table/model.js';
import { periodColumns } from '../table/period-columns.js';
import type { Amount } from './amount.js';
import { amountOf } from './amount.js';

/** A located operand: the cell, its amount, the row's line item and the column's period. */
export interface LocatedCell {
  cell: QaCell;
  amount: Amount;
  /** The row's line item as the table writes it. */
  label: string;
  year: number;
  /** The column's header as the table writes it (or the year). */
  period: string;
}

/** How well a row's label is named by a text: share of the label's weight named, and of the text's. */
interface RowMatch {
  row: QaRow;
  label: string;
  labelShare: number;
  textShare: number;
}

/** A row counts as the one named when this share of its label's weight is in the question. */
const LABEL_NAMED = 0.7;
/** … and its label names this share of the question's item text at least. */
const TEXT_NAMED = 0.5;

type Weights = ReadonlyMap<string, number>;
/** The heaviest weight of a question's terms: what a term no document holds weighs (it names something absent). */
const heaviest = new WeakMap<Weights, number>();
function weightOf(weights: Weights, t: string): number {
  const w = weights.get(t);
  if (w !== undefined && w > 0) return w;
  let max = heaviest.get(weights);
  if (max === undefined) {
    max = Math.max(1, ...weights.values());
    heaviest.set(weights, max);
  }
  return max;
}
const sum = (terms: Iterable<string>, weights: Weights): number => {
  let s = 0;
  for (const t of terms) s += weightOf(weights, t);
  return s;
};

/** A row's label: its cells outside the period columns that say words (not "3-5", not an amount), joined. */
function labelOf(row: QaRow, periods: ReadonlyMap<number, number>): string {
  return [...row.cells.values()]
    .filter((c) => !periods.has(c.col) && /\p{L}/u.test(c.text) && amountOf(c.text) === null)
    .map((c) => c.text.trim())
    .join(' ');
}

/** The rows of a table whose label the text names, best first (see LABEL_NAMED). */
export function rowsNamed(
  table: QaTable,
  text: string,
  weights: Weights,
  min: { label: number; text: number } = { label: LABEL_NAMED, text: TEXT_NAMED },
): RowMatch[] {
  const { years, labelRows } = periodColumns(table);
  const asked = termsOf(text);
  const askedWeight = sum(asked, weights);
  const out: RowMatch[] = [];
  for (const row of table.rows) {
    if (labelRows.has(row)) continue;
    const label = labelOf(row, years);
    const terms = termsOf(label);
    if (terms.size === 0 || askedWeight === 0) continue;
    const named = [...terms].filter((t) => asked.has(t));
    const labelShare = sum(named, weights) / sum(terms, weights);
    const textShare = sum(named, weights) / askedWeight;
    if (labelShare >= min.label && textShare >= min.text) out.push({ row, label, labelShare, textShare });
  }
  return out.sort((a, b) => b.labelShare + b.textShare - (a.labelShare + a.textShare) || a.row.index - b.row.index);
}

/**
 * The period columns of a table, one per year: where two columns end in the same year (an amount and
 * its "%" beside it), the one that is not a percentage unless a percentage is asked.
 */
export function yearColumns(table: QaTable, percent: boolean): ReadonlyMap<number, number> {
  // read for every row and year a question names: once per table and kind of figure
  const memo = percent ? percentYears : amountYears;
  let found = memo.get(table);
  if (!found) {
    found = readYearColumns(table, percent);
    memo.set(table, found);
  }
  return found;
}
const amountYears = new WeakMap<QaTable, Map<number, number>>();
const percentYears = new WeakMap<QaTable, Map<number, number>>();

function readYearColumns(table: QaTable, percent: boolean): Map<number, number> {
  const byYear = new Map<number, number>();
  const isPercent = (col: number): boolean => (table.columns.find((c) => c.col === col)?.name ?? '').includes('%');
  for (const [col, year] of periodColumns(table).years) {
    const have = byYear.get(year);
    if (have === undefined || (isPercent(have) && !isPercent(col) && !percent)) byYear.set(year, col);
  }
  return byYear;
}

/** The cell of a row in a year's column, as an amount; undefined when it states none. */
export function cellAt(table: QaTable, match: RowMatch, year: number, percent: boolean): LocatedCell | undefined {
  const col = yearColumns(table, percent).get(year);
  if (col === undefined) return undefined;
  const cell = match.row.cells.get(col);
  const amount = cell ? amountOf(cell.text) : null;
  if (!cell || !amount) return undefined;
  const header = table.columns.find((c) => c.col === col)?.name.trim() || String(year);
  return { cell, amount, label: match.label, year, period: header };
}

/** The scale and unit a table declares: in a header, its title, the headings above it or its first rows ("(in millions)", 「（単位：百万円）」). */
export function tableScale(table: QaTable): { scale: number; unit?: string } {
  const texts = [
    ...table.columns.map((c) => c.name),
    table.title,
    table.headings ?? '',
    ...table.rows.slice(0, 2).flatMap((r) => [...r.cells.values()].map((c) => c.text)),
  ];
  let unit: string | undefined;
  for (const t of texts) {
    if (!t) continue;
    const read = headerScale(t);
    if (read.scale !== 1) return { scale: read.scale, ...(read.unit && read.unit !== '%' ? { unit: read.unit } : {}) };
    if (read.unit && read.unit !== '%' && unit === undefined) unit = read.unit;
  }
  return { scale: 1, ...(unit ? { unit } : {}) };
}
