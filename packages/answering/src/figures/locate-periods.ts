import { findPeriods } from '@pinpoint/analysis';
import type { QaColumn, QaRow, QaTable } from '../table/model.js';
import { periodColumns, periodYear } from '../table/period-columns.js';
import { amountOf, nilOf } from './amount.js';
import { dayMonths } from './days.js';
import type { LocatedCell, RowMatch, Weights } from './locate.js';
import { firstPeriod, itemTerms, LABEL_NAMED, labelOf, labelTerms, rowsNamed, shares, sum, TEXT_NAMED } from './locate.js';
import { yearsNamed } from './plan.js';

/*
 * Periods a table writes other than in its columns of years: a balance on a dated row of a movements
 * table ("At 1 January"), the quarter rows of a year, and columns of maturities ("1 to 3 years").
 */

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
  const picked = quarters.length === 0 ? inYear : quarters.map((q) => inYear.find((r) => r.quarter === q));
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
export function maturityColumns(table: QaTable): readonly MaturityColumn[] {
  // read to choose a figure's tables, then for its cells: once per table
  let found = maturities.get(table);
  if (!found) {
    found = readMaturityColumns(table);
    maturities.set(table, found);
  }
  return found;
}
const maturities = new WeakMap<QaTable, MaturityColumn[]>();

/** A maturity column and the span of years it covers. */
interface MaturityColumn {
  col: number;
  name: string;
  from: number;
  to: number;
}

function readMaturityColumns(table: QaTable): MaturityColumn[] {
  const out: MaturityColumn[] = [];
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
