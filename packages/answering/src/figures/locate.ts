import { headerScale } from '@pinpoint/analysis';
import type { QaCell, QaColumn, QaRow, QaTable } from '../table/model.js';
import { termsOf } from '../table/model.js';
import { datedRows, periodColumns } from '../table/period-columns.js';
import type { Amount } from './amount.js';
import { amountOf, nilOf } from './amount.js';

/** A located operand: the cell, its amount, the row's line item and the column's period. */
export interface LocatedCell {
  cell: QaCell;
  amount: Amount;
  /** The row's line item as the table writes it. */
  label: string;
  year: number;
  /** The column's header as the table writes it (or the year). */
  period: string;
  /** The period is a day or quarter of the year its row names ("At 1 January 2019", "Third Quarter 2019"): answers name it. */
  dated?: boolean;
}

/** How well a row's label is named by a text: share of the label's weight named, and of the text's. */
export interface RowMatch {
  row: QaRow;
  label: string;
  labelShare: number;
  textShare: number;
  /** A balance's dated row ("At 1 January"): its label, said before each period. */
  day?: string;
}

/** A row counts as the one named when this share of its label's weight is in the question. */
export const LABEL_NAMED = 0.7;
/** … and its label names this share of the question's item text at least. */
export const TEXT_NAMED = 0.5;

export type Weights = ReadonlyMap<string, number>;
/** The heaviest weight of a question's terms: what a term no document holds weighs (it names something absent). */
const heaviest = new WeakMap<Weights, number>();
function weightOf(weights: Weights, t: string): number {
  if (t.startsWith('~')) return QUALIFIER_WEIGHT;
  const w = weights.get(t);
  if (w !== undefined && w > 0) return w;
  let max = heaviest.get(weights);
  if (max === undefined) {
    max = Math.max(1, ...weights.values());
    heaviest.set(weights, max);
  }
  return max;
}
export const sum = (terms: Iterable<string>, weights: Weights): number => {
  let s = 0;
  for (const t of terms) s += weightOf(weights, t);
  return s;
};

/**
 * What a label says beside its line item's name: a footnote mark ("costs(1)", "Revenue (a)", "Sales*"),
 * a note reference ("Disposals (Note (c))", "(Note 7(b))"), the sign word a statement puts before
 * a deduction ("Less: Voyage expenses", "Add:"), and the period it describes after the name.
 */
const LABEL_MARKS = [
  /\s*\((?:note|notes|see note)\b[^()]*(?:\([^()]*\)[^()]*)*\)/giu,
  /\s*\((?:\d{1,2}|[a-h]|i{1,3}|iv|v)\)(?=\s|$|[,:;])/giu,
  /(?<=\p{L})\*+|(?<=\p{L})[¹²³⁴⁵⁶⁷⁸⁹⁰]+/gu,
  /^\s*(?:less|add|plus|deduct)\s*[:：]?\s+(?=\p{L})/iu,
  // the period a label describes after its name: "Interim dividend for the half year ended 31 December 2018 of AU 16 cents"
  /(?<=\S)\s+(?:for|in|during)\s+the\s+(?:(?:half|full|fiscal|financial)[- ])?(?:year|quarter|period|(?:three|six|nine|twelve|52|53)[- ](?:months?|weeks?))\s+(?:then\s+)?(?:ended|ending)\b.*$/iu,
  // a company named with its legal form: "Apple Inc."
  /(?<![\w-])(?:inc|ltd|co|corp|llc|plc|limited|corporation)\.?(?![\w-])/giu,
];

/** A name a label defines for its item: "Huawei Technologies Co., Ltd. (“Huawei”)" is Huawei. */
const DEFINED_NAME = /\(\s*(?:the\s+)?[“"]([^”"]+)[”"]\s*\)/u;

/** A line item's name as a row's label cell writes it, without its footnote marks and sign words. */
export function itemName(label: string): string {
  // a report's labels are read for every name a question asks of it: each once
  let name = names.get(label);
  if (name === undefined) {
    let out = DEFINED_NAME.exec(label)?.[1] ?? label;
    for (const re of LABEL_MARKS) out = out.replace(re, ' ');
    name = out.replace(/\s+/g, ' ').trim() || label.trim();
    if (names.size >= LABELS) names.clear();
    names.set(label, name);
  }
  return name;
}
const names = new Map<string, string>();

/** A row's label: its cells left of the first period column that say words (not "3-5", not an amount), joined; a note beside the periods ("NM") is no part of it. */
export function labelOf(row: QaRow, first: number): string {
  return itemName(
    [...row.cells.values()]
      .filter((c) => c.col < first && /\p{L}/u.test(c.text) && amountOf(c.text) === null)
      .map((c) => c.text.trim())
      .join(' '),
  );
}

/**
 * Words a search drops as too common that tell line items apart: "Other revenues" is not
 * "Revenues", nor "Income before taxes" "Income taxes".
 */
const QUALIFIERS = /\b(?:other|before|after|excluding|including|without|not)\b/giu;

/** What a qualifier weighs: enough to tell "Other revenues" from "Revenues", never enough to name a row alone. */
const QUALIFIER_WEIGHT = 1;

/** The qualifiers a text says ("other", "before", "excluding"), lower-cased. */
export function qualifiersOf(text: string): Set<string> {
  return new Set([...text.matchAll(QUALIFIERS)].map((m) => m[0].toLowerCase()));
}

/** A line item's terms: its analysed terms and its qualifiers ("~other"). */
export function itemTerms(text: string): Set<string> {
  const terms = termsOf(text);
  for (const q of qualifiersOf(text)) terms.add(`~${q}`);
  return terms;
}

/** A row label's terms, read once per label (a table's labels are matched against many names). */
export function labelTerms(label: string): Set<string> {
  let terms = labels.get(label);
  if (!terms) {
    terms = itemTerms(label);
    if (labels.size >= LABELS) labels.clear();
    labels.set(label, terms);
  }
  return terms;
}
const LABELS = 8192;
const labels = new Map<string, Set<string>>();

/**
 * Whether a row's label text could be a line item's name: every term of the name in it, and the
 * name at least `share` of the label's terms (a check on a row's chunk text, before its table is read).
 */
export function labelMayName(label: string, name: string, share: number): boolean {
  const terms = labelTerms(itemName(label));
  const want = labelTerms(name);
  if (terms.size === 0 || want.size === 0) return false;
  let held = 0;
  for (const t of want) if (terms.has(t)) held++;
  return held === want.size && held / terms.size >= share;
}

/** The column of a table's first period: its labels stand left of it. */
export const firstPeriod = (years: ReadonlyMap<number, number>): number =>
  years.size > 0 ? Math.min(...years.keys()) : Number.POSITIVE_INFINITY;

/** Each row's label, a total's as the table names it: read once per table (every name asked of it reads them). */
function rowLabels(table: QaTable): Map<QaRow, string> {
  let found = labelsRead.get(table);
  if (!found) {
    const { years } = periodColumns(table);
    const first = firstPeriod(years);
    const totals = totalRows(table, years, first);
    found = new Map(table.rows.map((r) => [r, totals.get(r) ?? labelOf(r, first)]));
    labelsRead.set(table, found);
  }
  return found;
}
const labelsRead = new WeakMap<QaTable, Map<QaRow, string>>();

/** How much of a label's weight a text names, and how much of the text's weight the label (and `context`, terms the table's title adds) names. */
export function shares(
  terms: ReadonlySet<string>,
  asked: ReadonlySet<string>,
  askedWeight: number,
  weights: Weights,
  context: readonly string[] = [],
): { labelShare: number; textShare: number } {
  const named = [...terms].filter((t) => asked.has(t));
  return { labelShare: sum(named, weights) / sum(terms, weights), textShare: sum([...named, ...context], weights) / askedWeight };
}

/** The rows of a table whose label the text names, best first (see LABEL_NAMED). */
export function rowsNamed(
  table: QaTable,
  text: string,
  weights: Weights,
  min: { label: number; text: number } = { label: LABEL_NAMED, text: TEXT_NAMED },
): RowMatch[] {
  const { years, labelRows } = periodColumns(table);
  const asked = itemTerms(text);
  const askedWeight = sum(asked, weights);
  const out: RowMatch[] = [];
  if (askedWeight === 0) return out;
  const totals = totalRows(table, years, firstPeriod(years));
  const labels = rowLabels(table);
  // a table's total says what it totals in the table's title ("Total" under "10. Accrued Liabilities")
  const titled = totals.size > 0 ? termsOf(`${table.title} ${table.headings ?? ''}`) : undefined;
  for (const row of table.rows) {
    if (labelRows.has(row)) continue;
    const total = totals.get(row);
    const label = labels.get(row) ?? '';
    const terms = labelTerms(label);
    if (terms.size === 0) continue;
    const context = total !== undefined && titled ? [...asked].filter((t) => titled.has(t) && !terms.has(t)) : [];
    const { labelShare, textShare } = shares(terms, asked, askedWeight, weights, context);
    if (labelShare < min.label || textShare < min.text) continue;
    // a section's heading ("Net revenues by geographical region of shipment" over its regions) names the
    // section's total row ("Total revenues"), a little behind a row that names the item itself
    const sectionTotal = isHeading(row, years) ? totalOfSection(table, row, years) : undefined;
    if (sectionTotal) out.push({ row: sectionTotal, label, labelShare: labelShare - SECTION_COST, textShare });
    else out.push({ row, label, labelShare, textShare });
  }
  return out.sort((a, b) => b.labelShare + b.textShare - (a.labelShare + a.textShare) || a.row.index - b.row.index);
}

/** A row that heads a section: a label and no amount in any period column. */
const isHeading = (row: QaRow, years: ReadonlyMap<number, number>): boolean =>
  years.size > 0 && [...years.keys()].every((c) => amountOf(row.cells.get(c)?.text ?? '') === null);

/** What a section heading's match gives up to a row that names the item itself. */
const SECTION_COST = 0.01;

/**
 * The total row of the section a heading opens: the first row after it labelled as a total ("Total
 * revenues", "Total"), before the next heading ("Current liabilities:" is totalled by "Total current
 * liabilities", not by the "Total liabilities" below it).
 */
function totalOfSection(table: QaTable, heading: QaRow, years: ReadonlyMap<number, number>): QaRow | undefined {
  const first = firstPeriod(years);
  for (const row of table.rows.slice(table.rows.indexOf(heading) + 1)) {
    if (isHeading(row, years)) return undefined;
    if (TOTAL_FIRST.test(labelOf(row, first))) return row;
  }
  return undefined;
}

/** What a table calls its total row, by language: a label of these words alone is the table's total. */
/** The words a total's label starts with, by language: Latin ones as whole words, CJK ones as they stand. */
const LATIN_TOTAL = 'total|totals';
const CJK_TOTAL = '合計|総計|合计|总计|總計';
const TOTAL_LABEL = new RegExp(String.raw`^(?:${LATIN_TOTAL}|grand total|${CJK_TOTAL})\s*[.:：]?$`, 'iu');
/** A label that starts with a total's word ("Total revenues", 「合計」). */
const TOTAL_FIRST = new RegExp(String.raw`^(?:${LATIN_TOTAL})\b|^(?:${CJK_TOTAL})`, 'iu');
const SAID_TOTAL = 'Total';

/**
 * The rows that total a table, with their label: a row labelled "Total" (合計, 合计) alone, and a row
 * with no label whose figures are the sum of the rows above it (since the last such row) — a report
 * table's total line, which it often leaves unlabelled.
 */
function totalRows(table: QaTable, years: ReadonlyMap<number, number>, first: number): Map<QaRow, string> {
  let found = totals.get(table);
  if (!found) {
    found = readTotalRows(table, years, first);
    totals.set(table, found);
  }
  return found;
}
const totals = new WeakMap<QaTable, Map<QaRow, string>>();

function readTotalRows(table: QaTable, years: ReadonlyMap<number, number>, first: number): Map<QaRow, string> {
  const out = new Map<QaRow, string>();
  const cols = [...years.keys()];
  if (cols.length === 0) return out;
  let above: QaRow[] = [];
  // the heading row of the block being summed ("Acquisition-related charges:"): its total is named by it
  let section = '';
  for (const row of table.rows) {
    const label = labelOf(row, first);
    if (TOTAL_LABEL.test(label)) {
      out.set(row, label);
      above = [];
      section = '';
      continue;
    }
    const amounts = cols.map((c) => amountOf(row.cells.get(c)?.text ?? '')?.number);
    if (label === '' && above.length >= 2 && amounts.every((a) => a !== undefined) && sumsAbove(above, cols, amounts)) {
      out.set(row, section ? `${SAID_TOTAL} ${section.replace(/[\s:：]+$/u, '')}` : SAID_TOTAL);
      above = [];
      section = '';
      continue;
    }
    if (label !== '' && amounts.every((a) => a === undefined)) {
      section = label;
      above = [];
    } else if (label !== '') above.push(row);
  }
  return out;
}

/** Each column's figure is the sum of the rows above, to the rounding of their figures. */
function sumsAbove(above: QaRow[], cols: number[], amounts: (number | undefined)[]): boolean {
  return cols.every((c, i) => {
    const parts = above.map((r) => amountOf(r.cells.get(c)?.text ?? '')?.number ?? 0);
    const total = parts.reduce((a, b) => a + b, 0);
    const stated = amounts[i] as number;
    return stated !== 0 && Math.abs(total - stated) <= Math.max(1, above.length * 0.5, Math.abs(stated) * 0.001);
  });
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
  const { years, yearBefore } = periodColumns(table);
  for (const [col, year] of years) {
    const have = byYear.get(year);
    if (have === undefined || (isPercent(have) && !isPercent(col) && !percent)) byYear.set(year, col);
  }
  // "January 3, 2020" is fiscal 2019 too, where no column says 2019
  for (const [col, year] of yearBefore) if (!byYear.has(year)) byYear.set(year, col);
  return byYear;
}

/**
 * A table of dated rows ("At 1 January 2019 | 64.8", 「2019年３月31日残高」) whose columns are its line
 * items, read as a table of period columns: one row per item column, labelled by its header, and one
 * column per dated row. Its cells are the table's own (cited where they stand). Undefined when the table
 * has period columns or fewer than two dated rows.
 */
export function periodsAcross(table: QaTable): QaTable | undefined {
  if (!across.has(table)) across.set(table, readAcross(table));
  return across.get(table);
}
const across = new WeakMap<QaTable, QaTable | undefined>();

function readAcross(table: QaTable): QaTable | undefined {
  const label = table.columns[0];
  const dated = [...datedRows(table).keys()];
  if (!label || dated.length < 2 || periodColumns(table).years.size > 0) return undefined;
  const columns: QaColumn[] = [
    { ...label, col: 0 },
    ...dated.map((row, i) => {
      const name = row.cells.get(label.col)?.text ?? '';
      return { col: i + 1, name, terms: termsOf(name), numeric: 1 };
    }),
  ];
  const rows: QaRow[] = [];
  for (const column of table.columns) {
    if (column === label || column.name.trim() === '') continue;
    const cells = new Map<number, QaCell>();
    dated.forEach((row, i) => {
      const cell = row.cells.get(column.col);
      if (cell) cells.set(i + 1, { ...cell, col: i + 1 });
    });
    const [first] = cells.values();
    if (!first) continue;
    // the item's label is its header (never cited: operands are the dated rows' cells)
    cells.set(0, { ...first, col: 0, text: column.name, terms: column.terms, num: null });
    rows.push({ element: first.element, index: rows.length, cells: new Map([...cells].sort((a, b) => a[0] - b[0])) });
  }
  return rows.length > 0 ? { ...table, columns, rows } : undefined;
}

/**
 * The cell of a row in a year's column, as an amount; undefined when it states none. With `nil`, a
 * dash in a row of amounts is zero, as report tables write it (a change or a sum reads it so).
 */
export function cellAt(table: QaTable, match: RowMatch, year: number, percent: boolean, nil = false): LocatedCell | undefined {
  const col = yearColumns(table, percent).get(year);
  if (col === undefined) return undefined;
  const own = match.row.cells.get(col);
  const cell = own && own.text.trim() !== '' ? own : underHeader(table, match.row, col, percent);
  if (!cell) return undefined;
  const amount =
    amountOf(cell.text) ??
    (nil && [...yearColumns(table, percent).values()].some((c) => c !== col && amountOf(match.row.cells.get(c)?.text ?? ''))
      ? nilOf(cell.text)
      : null);
  if (!amount) return undefined;
  // a header of several rows reads as one line ("December 31, / 2018" is December 31, 2018)
  const header =
    table.columns
      .find((c) => c.col === col)
      ?.name.split(' / ')
      .join(' ')
      .trim() || String(year);
  return match.day
    ? { cell, amount, label: match.label, year, period: `${match.day} ${header}`, dated: true }
    : { cell, amount, label: match.label, year, period: header };
}

/**
 * A period's header over more than one column ("$" and the figure set apart on a PDF page): the
 * row's one amount in the columns from the header's up to the next period's, when the header's own
 * column is empty.
 */
function underHeader(table: QaTable, row: QaRow, col: number, percent: boolean): QaCell | undefined {
  const periods = [...periodColumns(table).years.keys()];
  const next = Math.min(...periods.filter((c) => c > col), col + GROUP_WIDTH + 1);
  const under = [...row.cells.values()].filter((c) => c.col > col && c.col < next && amountOf(c.text));
  const [only] = under;
  return under.length === 1 && only && (percent || !amountOf(only.text)?.percent) ? only : undefined;
}
/** Columns a period's header may stand over beside its own. */
const GROUP_WIDTH = 2;

/**
 * The currency a table's amounts are in: the one its cells write ("$ 2,822,795" on a statement's
 * first and total rows, the rows between bare), when they write one only.
 */
export function tableCurrency(table: QaTable): string | undefined {
  let found = currencies.get(table);
  if (found === undefined) {
    const seen = new Set<string>();
    for (const r of table.rows)
      for (const c of r.cells.values()) {
        const currency = amountOf(c.text)?.currency;
        if (currency) seen.add(currency);
      }
    found = seen.size === 1 ? ([...seen][0] as string) : null;
    currencies.set(table, found);
  }
  return found ?? undefined;
}
const currencies = new WeakMap<QaTable, string | null>();

/** The scale and unit a table declares: in a header, its title, the headings and lines above it or its first rows ("(in millions)", 「（単位：百万円）」). */
export function tableScale(table: QaTable): { scale: number; unit?: string } {
  const texts = [
    ...table.columns.map((c) => c.name),
    table.title,
    table.headings ?? '',
    ...(table.lead ?? []),
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
