import { findPeriods, headerScale } from '@pinpoint/analysis';
import type { QaCell, QaColumn, QaRow, QaTable } from '../table/model.js';
import { termsOf } from '../table/model.js';
import { datedRows, periodColumns, periodYear } from '../table/period-columns.js';
import type { Amount } from './amount.js';
import { amountOf, nilOf } from './amount.js';
import { dayMonths } from './days.js';
import { yearsNamed } from './plan.js';

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
const LABEL_NAMED = 0.7;
/** … and its label names this share of the question's item text at least. */
const TEXT_NAMED = 0.5;

type Weights = ReadonlyMap<string, number>;
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
const sum = (terms: Iterable<string>, weights: Weights): number => {
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
function labelOf(row: QaRow, first: number): string {
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
function itemTerms(text: string): Set<string> {
  const terms = termsOf(text);
  for (const q of qualifiersOf(text)) terms.add(`~${q}`);
  return terms;
}

/** A row label's terms, read once per label (a table's labels are matched against many names). */
function labelTerms(label: string): Set<string> {
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
const firstPeriod = (years: ReadonlyMap<number, number>): number =>
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
function shares(
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
    // section's total row ("Total revenues")
    // (a row that names the item itself goes first)
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
    if (/^(?:total|totals)\b|^(?:合計|総計|合计|总计|總計)/iu.test(labelOf(row, first))) return row;
  }
  return undefined;
}

/** What a table calls its total row, by language: a label of these words alone is the table's total. */
const TOTAL_LABEL = /^(?:total|totals|grand total|合計|総計|合计|总计|總計)\s*[.:：]?$/iu;
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

/** A numbering before a table's title ("18 Investment in associates", "Note 7.", "056_18"). */
const TITLE_NUMBER = /^(?:\s*(?:note\s+)?[\d.]+[_\s.:-]+)+/iu;

/**
 * A balance a table of movements states on a dated row under its period columns ("At 1 January |
 * 65.6 | 64.8", "Outstanding as of 31 December"): the row of the day and month the question names,
 * when the table's title names the line item asked ("total investment in associates" of "18
 * Investment in associates"). The row is labelled by the title; its periods say the day.
 */
export function balanceRow(table: QaTable, text: string, day: string, weights: Weights): RowMatch | undefined {
  const title = table.title.replace(TITLE_NUMBER, '').trim();
  const asked = itemTerms(text);
  const askedWeight = sum(asked, weights);
  const terms = labelTerms(title);
  if (askedWeight === 0 || terms.size === 0) return undefined;
  const { years } = periodColumns(table);
  const first = firstPeriod(years);
  const rows = table.rows.filter((r) => {
    const label = labelOf(r, first);
    const days = dayMonths(label);
    return days.length === 1 && days[0] === day && yearsNamed(label).length === 0;
  });
  const [row] = rows;
  if (!row || rows.length > 1) return undefined;
  const { labelShare, textShare } = shares(terms, asked, askedWeight, weights);
  return labelShare >= LABEL_NAMED && textShare >= TEXT_NAMED
    ? { row, label: title, labelShare, textShare, day: labelOf(row, first) }
    : undefined;
}

/**
 * A table of quarters ("2019: | | ", "Fourth Quarter | $11.44 | $9.47", or "Q4 2019" rows, or
 * "2019 High | 2019 Low" columns): the cells of the column the item names ("high price" is High) in
 * the rows of the quarters asked of the year asked, chronologically — every quarter the year shows
 * where `quarters` is empty (two at least). A quarter row's year is its own label's, else the year
 * of the section row above it (a row naming a year that states no amount), else its column's.
 * Undefined when the table holds no quarter rows, no column names the item, or a quarter asked is
 * not in it; `year` may be left out where the table's quarters are of one year.
 */
export function quarterCells(
  table: QaTable,
  text: string,
  year: number | undefined,
  quarters: readonly number[],
  weights: Weights,
): { cells: LocatedCell[]; match: number } | undefined {
  const label = table.columns[0];
  if (!label) return undefined;
  const columnYears = periodColumns(table).years;
  // each quarter row by its year (where it says it) and quarter
  const rows: { row: QaRow; quarter: number; year: number | undefined; name: string }[] = [];
  let section: number | undefined;
  for (const row of table.rows) {
    const name = row.cells.get(label.col)?.text.trim() ?? '';
    const periods = findPeriods(name);
    const quarter = periods.find((p) => p.quarter !== undefined);
    const amounts = [...row.cells.values()].some((c) => c.col !== label.col && amountOf(c.text));
    if (quarter?.quarter !== undefined) {
      const own = periodYear(quarter);
      rows.push({ row, quarter: quarter.quarter, year: own ?? section, name });
    } else if (!amounts && periods.length > 0) section = yearsNamed(name).at(-1) ?? section;
  }
  if (rows.length < 2) return undefined;
  const asked = itemTerms(text);
  const askedWeight = sum(asked, weights);
  if (askedWeight === 0) return undefined;
  // the column the item names, without the year a column of one year says ("2019 High"): its whole
  // name, though the question may say more of it than the table ("high price" of a table of share prices)
  const named: { col: number; name: string; labelShare: number; textShare: number; score: number }[] = [];
  for (const column of table.columns) {
    if (column === label) continue;
    const colYear = columnYears.get(column.col);
    if (colYear !== undefined && year !== undefined && colYear !== year) continue;
    const name = column.name
      .replace(/\b(?:19|20)\d{2}\b/gu, ' ')
      .replace(/\s+/gu, ' ')
      .trim();
    const terms = labelTerms(name);
    if (terms.size === 0) continue;
    const { labelShare, textShare } = shares(terms, asked, askedWeight, weights);
    if (labelShare < LABEL_NAMED || textShare === 0) continue;
    named.push({ col: column.col, name, labelShare, textShare, score: labelShare + textShare });
  }
  const [best, next] = named.sort((a, b) => b.score - a.score);
  // two columns named alike ("High" and "Low" of "the high and low price"): the question does not say which
  if (!best || (next && next.score >= best.score - 1e-9)) return undefined;
  const { col } = best;
  // a table of one year's quarters may say its year only above it ("Common Stock Price Range 2018")
  const said = yearsNamed(`${table.title} ${table.headings ?? ''} ${(table.lead ?? []).join(' ')}`);
  const yearOf = (r: (typeof rows)[number]): number | undefined =>
    r.year ?? columnYears.get(col) ?? (said.length === 1 ? said[0] : undefined);
  const years = new Set(rows.map(yearOf));
  const want = year ?? (years.size === 1 ? [...years][0] : undefined);
  if (want === undefined) return undefined;
  const inYear = rows.filter((r) => yearOf(r) === want);
  const picked =
    quarters.length === 0 ? inYear : [...quarters].sort((a, b) => a - b).map((q) => inYear.find((r) => r.quarter === q));
  if (picked.length < 2) return undefined;
  const cells: LocatedCell[] = [];
  for (const r of [...picked].sort((a, b) => (a?.quarter ?? 0) - (b?.quarter ?? 0))) {
    const cell = r?.row.cells.get(col);
    const amount = cell ? amountOf(cell.text) : null;
    if (!r || !cell || !amount) return undefined;
    cells.push({ cell, amount, label: best.name, year: want, period: `${r.name} ${want}`, dated: true });
  }
  return { cells, match: best.score };
}

/** The span of years a maturity column's header gives ("Less than 1 year": 0–1, "1-3 years": 1–3, "More than 5 years": 5 on, 「1年超3年以内」). */
const MATURITY_SPANS: { re: RegExp; span: (m: RegExpExecArray) => [number, number] }[] = [
  {
    re: /(?<a>\d{1,2})\s*(?:-|–|—|~|～|to|and|至|年超)\s*(?<b>\d{1,2})\s*(?:years?|yrs?|年)/iu,
    span: (m) => [Number(m.groups?.a), Number(m.groups?.b)],
  },
  {
    re: /(?:less\s+than|up\s+to|within|under|not\s+later\s+than|no\s+later\s+than|<)\s*(?<b>\d{1,2}|one)\s*(?:years?|yrs?)|(?<c>\d{1,2}|one)\s+years?\s+or\s+less|(?<d>\d{1,2})\s*年(?:以内|内)/iu,
    span: (m) => [0, yearsSaid(m.groups?.b ?? m.groups?.c ?? m.groups?.d)],
  },
  {
    re: /(?:more\s+than|after|over|beyond|greater\s+than|later\s+than|>)\s*(?<a>\d{1,2}|five)\s*(?:years?|yrs?)|(?<b>\d{1,2})\s+years?\s+(?:and\s+(?:over|beyond|more|thereafter)|or\s+more)|(?<c>\d{1,2})\s*年(?:超|以上)/iu,
    span: (m) => [yearsSaid(m.groups?.a ?? m.groups?.b ?? m.groups?.c), Number.POSITIVE_INFINITY],
  },
];
const yearsSaid = (s: string | undefined): number => (s === 'one' ? 1 : s === 'five' ? 5 : Number(s));
/** Rows a table's header may take beside its first. */
const HEADER_ROWS = 3;
const THEREAFTER = /^\s*(?:thereafter|after\s+that|later\s+years)\s*$/iu;

/** A table's maturity columns with the span of years each covers; "Thereafter" runs on from the last. */
export function maturityColumns(table: QaTable): { col: number; name: string; from: number; to: number }[] {
  const out: { col: number; name: string; from: number; to: number }[] = [];
  let after: QaColumn | undefined;
  // (the first column is the line items': a row labelled "1年以内" is an aging bucket, no maturity column)
  for (const column of table.columns.slice(1)) {
    // the header, or the rows above the column's first amount (a header of two rows the file did not mark)
    const said = [column.name.split(' / ').at(-1)?.trim() ?? ''];
    for (const row of table.rows.slice(0, HEADER_ROWS)) {
      const text = row.cells.get(column.col)?.text.trim() ?? '';
      if (amountOf(text)) break;
      if (text) said.push(text);
    }
    const name = said.find((t) => THEREAFTER.test(t) || MATURITY_SPANS.some(({ re }) => re.test(t)));
    if (!name) continue;
    if (THEREAFTER.test(name)) {
      after = { ...column, name };
      continue;
    }
    for (const { re, span } of MATURITY_SPANS) {
      const m = re.exec(name);
      if (!m) continue;
      const [from, to] = span(m);
      if (from < to) out.push({ col: column.col, name, from, to });
      break;
    }
  }
  const last = Math.max(0, ...out.map((c) => c.to).filter(Number.isFinite));
  if (after && out.length > 0) out.push({ col: after.col, name: after.name, from: last, to: Number.POSITIVE_INFINITY });
  return out.sort((a, b) => a.from - b.from);
}

/**
 * The amounts of the row the item names that fall due within a span of years ("due within 5
 * years"): the cells of the maturity columns that make up the span end to end ("Less than 1 year",
 * "1-3 years", "3-5 years"), a dash read as nil. Undefined when the columns do not make it up.
 */
export function maturityCells(
  table: QaTable,
  text: string,
  span: { from: number; to: number },
  weights: Weights,
): { cells: LocatedCell[]; match: number } | undefined {
  const columns = maturityColumns(table).filter((c) => c.from >= span.from && c.to <= span.to);
  // end to end: "1-3 years" then "4-5 years" or "3-5 years"
  let reach = span.from;
  for (const c of columns) {
    if (c.from !== reach && c.from !== reach + 1) return undefined;
    reach = c.to;
  }
  if (columns.length === 0 || reach !== span.to) return undefined;
  for (const match of rowsNamed(table, text, weights)) {
    const cells: LocatedCell[] = [];
    for (const c of columns) {
      const cell = match.row.cells.get(c.col);
      const amount = cell ? (amountOf(cell.text) ?? nilOf(cell.text)) : null;
      if (!cell || !amount) break;
      cells.push({ cell, amount, label: match.label, year: 0, period: c.name, dated: true });
    }
    if (cells.length === columns.length && cells.some((c) => !c.amount.nil))
      return { cells, match: match.labelShare + match.textShare };
  }
  return undefined;
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
