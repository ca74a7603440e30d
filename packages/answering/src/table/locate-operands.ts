import type { CellReading } from './cell-measure.js';
import { givesSpans, listsValues } from './cell-measure.js';
import { labelValue } from './key-value.js';
import type { TableWords } from './lexicon/index.js';
import { unspaced } from './lexicon/index.js';
import type { HeaderHit } from './locate-columns.js';
import {
  askedColumn,
  DATED,
  money,
  ordinal,
  ranked,
  repeats,
  superlativeColumn,
  totalColumn,
  typedColumn,
  unitColumn,
  whoColumn,
  yearUnder,
} from './locate-columns.js';
import type { RowMatch } from './locate-rows.js';
import { rowFrequencies } from './locate-rows.js';
import type { QaColumn, QaRow, QaTable } from './model.js';
import type { PeriodColumns } from './period-columns.js';
import type { Exclusion, NumericFilter, TableOp } from './plan-op.js';
import { COUNTED, LASTED, MONEY, MOST_ROWS, numericFilter, STANDING, THING_ASKED } from './plan-op.js';
import type { QuestionBound } from './question-words.js';
import { phraseAt, says } from './question-words.js';

/** What the columns of an operation are chosen from: the question and the rows and headers it was located by. */
export interface Located {
  question: string;
  /** The question in NFKC, lower case. */
  q: string;
  table: QaTable;
  words: TableWords;
  qTerms: Map<string, number>;
  hits: HeaderHit[];
  /** Rows matched, best first; a lookup may move the row of the label it names to the front. */
  matched: RowMatch[];
  /** The best row's score as matched (before a label named moves its row first). */
  best: number;
  /** Columns the question's values were found in: conditions on rows, not the answer. */
  conditionCols: Set<number>;
  /** "Which of A or B": the rows the question names are compared. */
  comparing: boolean;
}

/** The columns an operation reads: the answer's, the measure compared or added up, and how it reads a cell. */
export interface Operands {
  /** The operation, as the columns settle it ("the highest position": the smallest number). */
  op: TableOp;
  answer: QaColumn | undefined;
  measure: QaColumn | undefined;
  reading: CellReading;
  totals: boolean;
  frequency: boolean;
}

/** How the operation was read: by time ("his first season"), the same value as a named row's, a value left out, a row quoted. */
interface Reading {
  byTime: boolean;
  shared: QaColumn | undefined;
  exclusion: Exclusion | undefined;
  saidRow: QaRow | undefined;
}

/** The answer and measure columns of an operation. */
export function operands(at: Located, op: TableOp, reading: Reading): Operands {
  if (op === 'max' || op === 'min' || op === 'sum' || op === 'difference') return extremeOperands(at, op, reading.byTime);
  const plain = { op, measure: undefined, reading: 'value' as const, totals: false, frequency: false };
  if (op === 'same') return { ...plain, ...sameOperands(at, reading.shared) };
  if (op === 'next' || op === 'previous') return { ...plain, answer: stepAnswer(at) };
  return { ...plain, ...lookupOperands(at, op, reading) };
}

/** The numeric column a superlative, a total or a difference compares, and how it reads a cell. */
function comparedColumn(
  at: Located,
  op: 'max' | 'min' | 'sum' | 'difference',
  byTime: boolean,
): { measure: QaColumn | undefined; named: boolean; reading: CellReading } {
  const { q, table, words, hits, conditionCols } = at;
  const numericHits = hits.filter((h) => h.col.numeric >= 0.6);
  const dated = byTime ? numericHits.find((h) => DATED.test(h.col.name) && !ordinal(table, h.col)) : undefined;
  const counted = numericHits.filter((h) => !ordinal(table, h.col));
  const extreme = op === 'max' || op === 'min' ? op : undefined;
  const after = extreme ? superlativeColumn(q, extreme, counted, words) : undefined;
  let measure = (dated ?? counted.find((h) => h.col === after) ?? counted[0])?.col;
  if (!measure && MONEY.test(q)) measure = table.columns.find((c) => c.numeric >= 0.8 && money(table, c));
  const named = measure !== undefined;
  if (!measure) measure = table.columns.find((c) => c.numeric >= 0.8 && !conditionCols.has(c.col) && !ordinal(table, c));
  // "which team had more Qld Cup premierships": the named column lists values ("1996, 2001"), and they
  // are counted — not the column asked for ("what season has the most goals": a season "2002–2003")
  const superlative = op === 'max' || op === 'min';
  const asked = askedColumn(q, table, new Set(), words);
  const listed =
    superlative && COUNTED.test(q)
      ? hits.find((h) => h.col !== asked && !conditionCols.has(h.col.col) && listsValues(table, h.col))?.col
      : undefined;
  if (listed) return { measure: listed, named, reading: 'items' };
  // "who served the longest": a column of terms "1927–1938" is measured by how long each lasted
  if (superlative && LASTED.test(q) && measure && givesSpans(table, measure)) return { measure, named, reading: 'length' };
  return { measure, named, reading: 'value' };
}

/** A superlative, a total or a difference: the column compared, and the column whose cell answers. */
function extremeOperands(at: Located, read: 'max' | 'min' | 'sum' | 'difference', byTime: boolean): Operands {
  const { q, table, words, hits, conditionCols, comparing } = at;
  let op: TableOp = read;
  const { named, reading, ...compared } = comparedColumn(at, read, byTime);
  let measure = compared.measure;
  const superlative = op === 'max' || op === 'min';
  // "the highest position a song reached": on a column of places the highest is the smallest number
  const word = superlative ? phraseAt(q, op === 'max' ? words.max : words.min, words).phrase : undefined;
  if (word && STANDING.test(word) && reading === 'value' && measure && ranked(table, measure)) op = op === 'max' ? 'min' : 'max';
  // "which had more GER numbers, 1898 or 1893": the number named, each value's rows add up — a
  // comparative weighs what each value has in all; "did A or B make the most laps" asks for one row
  const totals = comparing && /\b(more|fewer|less)\b/.test(q) && (named || reading === 'items');
  const before = hits.filter((h) => h.col !== measure && h.pos < (hits.find((x) => x.col === measure)?.pos ?? q.length));
  // "what year was his first year": the year compared is the answer
  const yearAsked = says(q, words.when, words) && measure !== undefined && DATED.test(measure.name);
  let answer = comparing
    ? table.columns.find((c) => conditionCols.has(c.col))
    : yearAsked
      ? measure
      : (askedColumn(q, table, new Set([measure?.col ?? -1]), words) ??
        before[0]?.col ??
        whoColumn(q, table, new Set([measure?.col ?? -1])) ??
        (THING_ASKED.test(q) ? undefined : measure));
  answer ??= typedColumn(q, table, new Set([measure?.col ?? -1]), words);
  let frequency = false;
  if (!named && reading === 'value' && !byTime && !comparing && MOST_ROWS.test(q) && answer && repeats(table, answer)) {
    frequency = true;
    measure = undefined;
  }
  return { op, answer, measure, reading, totals, frequency };
}

/** "the same score as the game in Benin": the shared column is the measure; the answer the column asked, else the anchor's. */
function sameOperands(at: Located, shared: QaColumn | undefined): Pick<Operands, 'answer' | 'measure'> {
  const { q, table, words, matched } = at;
  const anchorCol = matched[0]?.cells.find((c) => c.col !== shared?.col)?.col;
  const answer =
    askedColumn(q, table, new Set([shared?.col ?? -1]), words) ??
    whoColumn(q, table, new Set([shared?.col ?? -1])) ??
    table.columns.find((c) => c.col === anchorCol);
  return { answer, measure: shared };
}

/** The row after or before one: the column whose cell answers. */
function stepAnswer(at: Located): QaColumn | undefined {
  const { q, table, words, hits, matched, conditionCols } = at;
  // "the title listed after Parva": the named column may be the one the anchor row was found in.
  // "the next opening act after the Cadillac Tramps": by default the column the anchor value is in.
  const anchorCol = matched[0]?.cells[0]?.col;
  // "2021年の次の年度の従業員数": a column named besides the one the anchor value is in
  const other = hits.find((h) => h.col.col !== anchorCol && !conditionCols.has(h.col.col))?.col;
  return (
    askedColumn(q, table, new Set(), words) ??
    (unspaced(words) ? other : undefined) ??
    table.columns.find((c) => c.col === anchorCol) ??
    hits[0]?.col ??
    table.columns.find((c) => conditionCols.has(c.col))
  );
}

/**
 * The column a lookup's header names: one whose every word the question says, else a numeric column
 * one of whose header words nothing else in the table says.
 */
function headerSaid(at: Located, named: HeaderHit[]): QaColumn | undefined {
  const { table, qTerms } = at;
  // 「木星的公转周期」 over a row 「别名 | 岁星 | 公转周期 | 11.862年」: the value beside the label named —
  // unless the question says every word of a column's header of two words or more (「年初…递延所得税资产…余额」
  // names 「年初余额 / 递延所得税资产」; the character pairs (#) a header's words make aside): then the
  // column it names holds the value, not the cell beside the label
  const words1 = (c: QaColumn): string[] => [...c.terms].filter((t) => !t.startsWith('#'));
  const saidWhole = named
    .filter((h) => words1(h.col).length >= 2 && words1(h.col).every((t) => qTerms.has(t)))
    .sort((a, b) => words1(b.col).length - words1(a.col).length)[0]?.col;
  // 「期初时，综合服务费有多少？」 over 「期末数 | 期初数」: in a column of numbers, a word of its header
  // that no other header and no cell says names it (a profile's columns hold labels and values alike,
  // and are read by label; a word a cell says may name the row)
  const cellTerms = rowFrequencies(table);
  const alone = (c: QaColumn, t: string): boolean =>
    qTerms.has(t) && !cellTerms.has(t) && !table.columns.some((x) => x !== c && x.terms.has(t));
  const saidAlone = named.find((h) => h.col.numeric >= 0.6 && words1(h.col).some((t) => alone(h.col, t)))?.col;
  return saidWhole ?? saidAlone;
}

/** A lookup, a count, the first or the last: the column whose cell answers, and the number a count reads. */
function lookupOperands(at: Located, op: TableOp, reading: Reading): Pick<Operands, 'answer' | 'measure'> {
  const { question, q, table, words, hits, matched, best, conditionCols } = at;
  const { exclusion, saidRow } = reading;
  // "who is the only person to rank from Jamaica": a person, not the number of the named column
  const who = /^\s*who\b/.test(q);
  // "name one that is not in the Tikamgarh district": the column the negated words name is no answer
  const ruledOut = new Set(conditionCols);
  if (exclusion?.negated)
    for (const c of table.columns) if ([...c.terms].some((t) => exclusion.terms.has(t))) ruledOut.add(c.col);
  const named = hits.filter((h) => !ruledOut.has(h.col.col));
  const header = who ? undefined : headerSaid(at, named);
  const label =
    op === 'lookup' && !header
      ? labelValue(
          question,
          table,
          // the row a quoted name says whole is the one its label is looked for in
          saidRow ? [saidRow] : matched.map((m) => m.row),
          unspaced(words),
        )
      : undefined;
  // the row of the label named leads
  const labelled = matched.findIndex((m) => m.row === label?.row);
  if (labelled > 0) matched.unshift(...matched.splice(labelled, 1));
  const beside = label?.col;
  const answer =
    askedColumn(q, table, ruledOut, words) ??
    beside ??
    (op === 'lookup' ? header : undefined) ??
    named.find((h) => !who || h.col.numeric < 0.5)?.col ??
    whoColumn(q, table, ruledOut) ??
    typedColumn(q, table, ruledOut, words);
  if (op !== 'count') return { answer, measure: undefined };
  // "how many goals did X score": the named number of the row; "how many years did X coach": rows are counted
  let measure = named.find((h) => h.col.numeric >= 0.5 && !DATED.test(h.col.name) && !ordinal(table, h.col))?.col;
  // "how many people didn't name their language": one row answers, and its number is the count
  const single = matched.filter((m) => m.score >= 0.5 * best).length === 1;
  // "how many tons does the TE class displace": the column whose cells are counted in tons;
  // "how many medals did Venezuela win": the row's Total
  if (!measure && single) measure = unitColumn(q, table) ?? totalColumn(table);
  if (!measure && single && answer && answer.numeric >= 0.6 && !DATED.test(answer.name) && !ordinal(table, answer))
    measure = answer;
  return { answer, measure };
}

/**
 * "2020年の…" over a table whose columns are periods: a lookup answers from the column of the year
 * named (the one under the column the question names), and a measure in another year's column moves
 * to it; "how many shares were purchased in 2019" of one named row is that row's number in the year's column.
 */
export function yearOperands(
  at: Located,
  o: Operands,
  yearCols: QaColumn[],
  periods: PeriodColumns,
  bound: QuestionBound | undefined,
): Operands {
  const { q, table, words, hits, matched, best } = at;
  if (yearCols.length === 0 || says(q, words.when, words)) return o;
  const inYear = (c: QaColumn | undefined): boolean => c !== undefined && yearCols.includes(c);
  const pick = yearUnder(table, yearCols, hits) ?? yearCols[0];
  const single = matched.filter((m) => m.score >= 0.5 * best).length === 1;
  const op = o.op === 'count' && !o.measure && !bound && single ? 'lookup' : o.op;
  if (op === 'lookup' && !inYear(o.answer)) return { ...o, op, answer: pick };
  if (o.measure && periods.years.has(o.measure.col) && !inYear(o.measure)) return { ...o, op, measure: pick };
  return { ...o, op };
}

/**
 * "more than 40,000 people": the rows a lookup, a count, the first or the last reads are those whose
 * cell in the bounded column passes; the rows are counted, and the bounded column is no answer.
 */
export function filteredOperands(
  at: Located,
  o: Operands,
  bound: QuestionBound | undefined,
): { operands: Operands; filter: NumericFilter | undefined } {
  const { q, table, words, hits } = at;
  const { op } = o;
  const filter =
    op === 'lookup' || op === 'count' || op === 'first' || op === 'last'
      ? numericFilter(
          bound,
          table,
          hits.map((h) => h.col),
        )
      : undefined;
  if (!filter) return { operands: o, filter };
  const measure = op === 'count' ? undefined : o.measure;
  let answer = o.answer;
  if (answer?.col === filter.col.col) {
    const not = new Set([filter.col.col]);
    answer = askedColumn(q, table, not, words) ?? whoColumn(q, table, not) ?? typedColumn(q, table, not, words);
  }
  return { operands: { ...o, measure, answer }, filter };
}
