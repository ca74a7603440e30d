import { findPeriods } from '@pinpoint/analysis';
import { EN } from './lexicon/en.js';
import { JA } from './lexicon/ja.js';
import type { TableWords } from './lexicon/lexicon.js';
import { ZH_HANS } from './lexicon/zh-hans.js';
import { ZH_HANT } from './lexicon/zh-hant.js';
import type { QaColumn, QaRow, QaTable } from './model.js';

/**
 * The years a text's periods name, in order, each period by the year it ends in when it says its end
 * ("自 2018年4月1日 至 2019年3月31日" is 2019, "2019年３月31日" 2019, "令和2年" 2020), else its
 * year as labelled ("2022年度"); a business term (第117期) names none.
 */
function yearsIn(text: string): readonly number[] {
  // a table's header texts are read a few times each, and the same texts head table after table
  // ("2022", "Years Ended December 31,"): each text's years are read once
  let years = yearsRead.get(text);
  if (!years) {
    years = findPeriods(text)
      .map(periodYear)
      .filter((y): y is number => y !== undefined && y >= 1900 && y < 2100);
    if (yearsRead.size >= YEARS_READ) yearsRead.clear();
    yearsRead.set(text, years);
  }
  return years;
}
const YEARS_READ = 4096;

/** The year a period is named by: the year it ends in, or its fiscal year as labelled. */
export function periodYear(p: { end?: string | undefined; fiscal_year?: number | undefined }): number | undefined {
  return p.end ? Number(p.end.slice(0, 4)) : p.fiscal_year;
}

/**
 * A 52/53-week year ends on a weekday near the turn of the year: one that ends in the first week of
 * January ("January 3, 2020") is also named as the year before (fiscal 2019). The 1st of January is
 * an opening date of its own year.
 */
function turnOfYear(text: string): boolean {
  const end = findPeriods(text).at(-1)?.end;
  if (!end) return false;
  const [month, day] = [Number(end.slice(5, 7)), Number(end.slice(8, 10))];
  return month === 1 && day >= 2 && day <= 7;
}
const yearsRead = new Map<string, readonly number[]>();

/** Rows above a column's first number: where a table without a header row says what its columns are. */
const LEADING_ROWS = 4;

/**
 * The year each column's period ends in, from its header or the rows above its first number
 * ("前事業年度 (自 2018年4月1日 至 2019年3月31日)" ends in 2019), with the rows that said it. Empty
 * unless two columns or more end in different years: a table whose columns are periods.
 */
export function periodColumns(table: QaTable): PeriodColumns {
  let found = read.get(table);
  if (!found) {
    found = readPeriods(table);
    read.set(table, found);
  }
  return found;
}

export interface PeriodColumns {
  years: Map<number, number>;
  labelRows: Set<QaRow>;
  /** A column whose period ends in the first week of January, with the year before it (fiscal 2019 for "January 3, 2020"). */
  yearBefore: Map<number, number>;
}
const read = new WeakMap<QaTable, PeriodColumns>();

function readPeriods(table: QaTable): PeriodColumns {
  const years = new Map<number, number>();
  const labelRows = new Set<QaRow>();
  const early = new Map<number, number>();
  for (const col of table.columns) {
    if (isYearOnlyData(table, col) || isLabelColumn(table, col)) continue;
    const said = [col.name];
    const rows: QaRow[] = [];
    for (const row of table.rows.slice(0, LEADING_ROWS)) {
      const cell = row.cells.get(col.col);
      if (measures(cell) && yearsIn(cell?.text ?? '').length === 0) break;
      if (cell && yearsIn(cell.text).length > 0) {
        said.push(cell.text);
        rows.push(row);
      }
    }
    const ends = said.filter((s) => yearsIn(s).length > 0);
    const last = ends.at(-1);
    const end = last === undefined ? undefined : yearsIn(last).at(-1);
    if (end === undefined) continue;
    years.set(col.col, end);
    if (turnOfYear(last as string)) early.set(col.col, end - 1);
    for (const r of rows) labelRows.add(r);
  }
  if (new Set(years.values()).size < 2) {
    const relative = relativeYears(table);
    return { years: new Set(relative.values()).size < 2 ? new Map() : relative, labelRows: new Set(), yearBefore: new Map() };
  }
  // the year before is a name of the column only where no other column ends in it
  const named = new Set(years.values());
  const yearBefore = new Map([...early].filter(([, y]) => !named.has(y)));
  return { years, labelRows, yearBefore };
}

/** Every lexicon's words of one kind, as a pattern: whole words where spaces part words, anywhere where they do not. */
const wordsOf = (pick: (w: TableWords) => string[]): RegExp =>
  new RegExp(`\\b(?:${pick(EN).join('|')})\\b|${[JA, ZH_HANS, ZH_HANT].flatMap(pick).join('|')}`, 'iu');
const THIS_PERIOD = wordsOf((w) => w.thisPeriod);
const LAST_PERIOD = wordsOf((w) => w.lastPeriod);

/**
 * 「前連結会計年度 | 当連結会計年度」 under a report's heading 「第95期（自 2019年４月１日 至
 * 2020年３月31日）」: columns of the report's own period and the one before it, which say no year,
 * are that period's year (2020) and the year before (2019), each spread over the columns after it
 * up to the next. Only when the table's title and headings name one year; the header words are each
 * lexicon's thisPeriod and lastPeriod.
 */
function relativeYears(table: QaTable): Map<number, number> {
  const years = new Map<number, number>();
  const report = new Set(yearsIn(`${table.title} ${table.headings ?? ''}`));
  if (report.size !== 1) return years;
  const year = [...report][0] as number;
  let carry: number | undefined;
  for (const col of table.columns) {
    const said = [col.name];
    for (const row of table.rows.slice(0, LEADING_ROWS)) {
      const cell = row.cells.get(col.col);
      if (measures(cell)) break;
      if (cell) said.push(cell.text);
    }
    const text = said.join(' ').normalize('NFKC');
    if (LAST_PERIOD.test(text)) carry = year - 1;
    else if (THIS_PERIOD.test(text)) carry = year;
    // a period's header spread over the columns after it (a merged group header over its sub-columns)
    if (carry !== undefined) years.set(col.col, carry);
  }
  return years;
}

/**
 * A cell that states an amount: it reads as a number and does not start with a word — 「第６期」
 * (a business term) and "FY 2" label a column, "1,234", "△ 593" and "$12" state an amount.
 */
const measures = (cell: { text: string; num: number | null } | undefined): boolean =>
  cell?.num !== null && cell?.num !== undefined && !/^\s*\p{L}/u.test(cell.text.normalize('NFKC'));

/**
 * A column of line items: most of its cells say words and state no amount. A label that names a
 * year ("Tax at the rate of 19.0% (2017/18: 19.0%)", "Final dividend for the year ended 30 June 2018
 * of AU 14 cents") does not make it a period: beside its periods it says three words or more.
 */
function isLabelColumn(table: QaTable, col: QaColumn): boolean {
  let words = 0;
  let said = 0;
  for (const row of table.rows) {
    const cell = row.cells.get(col.col);
    if (!cell || cell.text.trim() === '') continue;
    said++;
    if (cell.num === null && saysWords(cell.text)) words++;
  }
  return said >= 2 && words * 2 > said;
}

/** A text that says words beside any period it names: none named, or three words of letters besides. */
function saysWords(text: string): boolean {
  if (!/\p{L}{2}/u.test(text)) return false;
  if (yearsIn(text).length === 0) return true;
  let rest = text;
  for (const p of findPeriods(text).sort((a, b) => b.span[0] - a.span[0])) {
    const cps = Array.from(rest);
    rest = [...cps.slice(0, p.span[0]), ' ', ...cps.slice(p.span[1])].join('');
  }
  return (rest.match(/\p{L}{3,}/gu) ?? []).length >= 3;
}

/** A column of years ("Year": 1998, 1999 …) is a column of values, not a period. */
function isYearOnlyData(table: QaTable, col: QaColumn): boolean {
  const cells = table.rows.map((r) => r.cells.get(col.col)?.text.trim() ?? '').filter((t) => t !== '');
  return cells.length > 0 && cells.filter((t) => /^(?:19|20)\d{2}$/.test(t)).length * 2 > cells.length;
}

/** The one year a question names ("2020年の", "in 2019", "令和2年"); undefined when it names none or several. */
export function questionYear(question: string): number | undefined {
  if (lastQuestion?.question === question) return lastQuestion.year;
  const years = new Set(yearsIn(question));
  const year = years.size === 1 ? [...years][0] : undefined;
  lastQuestion = { question, year };
  return year;
}
/** A question is read against a dozen tables: its year is read once. */
let lastQuestion: { question: string; year: number | undefined } | undefined;

/**
 * Rows whose label names a date or period, with the year it ends in: a table of balances and their
 * movements (「2019年３月31日残高」, 「前連結会計年度末（2019年3月31日）」, "Balance at December 31,
 * 2019") states a balance on each dated row. The label is the row's cell in the table's first
 * column; a column of bare years ("Year": 1998 …) is a column of values. Empty unless two rows or
 * more end in different years.
 */
export function datedRows(table: QaTable): Map<QaRow, number> {
  let found = dated.get(table);
  if (!found) {
    found = readDatedRows(table);
    dated.set(table, found);
  }
  return found;
}
const dated = new WeakMap<QaTable, Map<QaRow, number>>();

function readDatedRows(table: QaTable): Map<QaRow, number> {
  const rows = new Map<QaRow, number>();
  const label = table.columns[0];
  if (!label || isYearOnlyData(table, label)) return rows;
  // a column of labels: most of its cells say words ("2019年３月31日残高" reads as 2019, and is a label)
  const texts = table.rows.map((r) => r.cells.get(label.col)?.text.trim() ?? '').filter((t) => t !== '');
  if (texts.filter((t) => /\p{L}/u.test(t)).length * 2 <= texts.length) return rows;
  for (const row of table.rows) {
    const text = row.cells.get(label.col)?.text ?? '';
    const year = yearsIn(text).at(-1);
    if (year !== undefined) rows.set(row, year);
  }
  return new Set(rows.values()).size < 2 ? new Map() : rows;
}
