import type { CellReading } from './cell-measure.js';
import type { TableWords } from './lexicon/index.js';
import { lexiconFor, unspaced } from './lexicon/index.js';
import type { HeaderHit } from './locate-columns.js';
import { conditionColumns, headerHits, ordinal, sharedColumn } from './locate-columns.js';
import type { Located } from './locate-operands.js';
import { filteredOperands, operands, yearOperands } from './locate-operands.js';
import type { RowMatch } from './locate-rows.js';
import { balanceRows, excluding, keptCell, leadingRow, matchRows, nearTerms, normal, termsOfRows } from './locate-rows.js';
import type { QaCell, QaColumn, QaRow, QaTable } from './model.js';
import { termsOf } from './model.js';
import { namedRow } from './named-items.js';
import type { PeriodColumns } from './period-columns.js';
import { periodColumns, questionYear } from './period-columns.js';
import type { Exclusion, NumericFilter, TableOp } from './plan-op.js';
import { excludedTerms, formOf, LIST_ORDER, MONEY, operation, questionTerms, SAME, UNSEEN_FLOOR, yearSpan } from './plan-op.js';
import type { QuestionBound } from './question-words.js';
import { boundOf, phraseRe, says, unquoted, without } from './question-words.js';

/** What a question asks of a table: the operation, the columns it names and the rows its values select. */
export interface TablePlan {
  /** The words of the question's language: the answer is told in them. */
  words: TableWords;
  op: TableOp;
  /** Column whose cell is the answer. */
  answer: QaColumn | undefined;
  /**
   * Numeric column compared, summed or subtracted (superlatives, totals, differences); for "the same
   * score as …", the column whose value the other row shares.
   */
  measure: QaColumn | undefined;
  /** How the measure reads a cell: its number, or how many values it lists ("more premierships": "1996, 2001" is two). */
  reading: CellReading;
  /** Rows whose cells match the question's values, best first, with their match score; `quoted` when a whole cell is in the question. */
  matched: RowMatch[];
  /** "Which of A or B": the superlative is taken over the rows the question names. */
  comparing: boolean;
  /** "which had more GER numbers, 1898 or 1893?": a value compared that names several rows counts their total. */
  totals: boolean;
  /** The superlative is taken over the rows a quoted value picks ("Jay Mills' first year"). */
  within: boolean;
  /**
   * "from where did it receive the most accolades?": a superlative that names no number to compare
   * counts rows — the answer column's value that the most (or fewest) rows hold.
   */
  frequency: boolean;
  /** The terms of a value the question excludes ("other than X", "not from X"): rows holding it are no answer. */
  excluded: Set<string> | undefined;
  /**
   * "the previous Asian Championships": a cell of the named row, quoted whole and shared by other
   * rows, that the row after or before must share too.
   */
  kept: QaCell | undefined;
  /** "more than 40,000 people", "below 18": the rows whose cell in a numeric column passes the bound. */
  filter: NumericFilter | undefined;
  /** "listed after", "the row below": the row after or before is the next one down or up the table, not in time. */
  listOrder: boolean;
  /** Weight of the question's terms the table holds, over all of them (0..1); words of question form left out. */
  coverage: number;
  /** Weight of the question's terms found in the table's titles and header names (0..1). */
  headerCoverage: number;
  /** The heaviest question term the table lacks, over the heaviest term (0..1): a name the table never mentions. */
  missing: number;
  /** Weight of the question's terms found in the titles, headers and the best-matching row together (0..1). */
  focus: number;
  /** Weight share of the question's terms that no indexed document holds (0..1). */
  unseen: number;
  /** Weight of the question's terms the one row that holds most of them holds (0..1): the row the question is about. */
  rowCoverage: number;
  /**
   * A year the question names against the table's period columns: 1 when a column is that year's,
   * -1 when the table's columns are periods and none is, 0 when either says no year.
   */
  periodFit: number;
}

/** The question's terms that are evidence of the table asked about (not words of question form, not a bound's), weighted. */
function contentTerms(
  q: string,
  qTerms: Map<string, number>,
  bound: QuestionBound | undefined,
  table: QaTable,
  words: TableWords,
): { content: [string, number][]; titled: Set<string> } {
  const boundTerms = bound === undefined ? new Set<string>() : termsOf(bound.raw);
  const form = unspaced(words) ? undefined : formOf(words);
  const said = form ? undefined : termsOf(without(q, [...words.particles, ...words.form], words));
  const titled = new Set([...termsOf(table.title), ...table.columns.flatMap((c) => [...(c.titled ?? c.terms)])]);
  // A header word is in every row's retrieval text, so the index weighs it as common as the rows
  // make it ("driver" and "laps" over a few race tables: 0.05); as evidence that this is the table
  // asked about it weighs at least what a word the index never saw weighs at the least
  const content = [...qTerms]
    .filter(([t]) => (form ? !form.has(t) : said?.has(t)) && !boundTerms.has(t))
    .map(([t, w]): [string, number] => [t, titled.has(t) ? Math.max(w, UNSEEN_FLOOR) : w]);
  return { content, titled };
}

type Fit = Pick<TablePlan, 'coverage' | 'focus' | 'rowCoverage' | 'unseen' | 'headerCoverage' | 'missing'>;

/** How much of the question the table holds: in all, in its titles and headers, in its best row (`first`), in any one row. */
function fitOf(
  content: [string, number][],
  titled: Set<string>,
  table: QaTable,
  first: RowMatch | undefined,
  weights: Map<string, number>,
): Fit {
  const total = content.reduce((s, [, w]) => s + w, 0);
  const held = content.reduce((s, [t, w]) => (table.vocabulary.has(t) ? s + w : s), 0);
  const headerHeld = content.reduce((s, [t, w]) => (titled.has(t) ? s + w : s), 0);
  const heaviest = Math.max(0, ...content.map(([, w]) => w));
  const lacking = Math.max(0, ...content.filter(([t]) => !table.vocabulary.has(t)).map(([, w]) => w));
  const bestRow = new Set([...(first?.row.cells.values() ?? [])].flatMap((c) => [...c.terms]));
  const focused = content.reduce((s, [t, w]) => (titled.has(t) || bestRow.has(t) ? s + w : s), 0);
  let rowHeld = 0;
  for (const terms of termsOfRows(table)) {
    rowHeld = Math.max(
      rowHeld,
      content.reduce((s, [t, w]) => (terms.has(t) ? s + w : s), 0),
    );
  }
  // without index statistics (no weights) nothing counts as unseen
  const unseen = weights.size === 0 ? 0 : content.reduce((s, [t, w]) => (weights.get(t) ? s : s + w), 0);
  return {
    coverage: total === 0 ? 1 : held / total,
    focus: total === 0 ? 1 : focused / total,
    rowCoverage: total === 0 ? 0 : rowHeld / total,
    unseen: total === 0 ? 0 : unseen / total,
    headerCoverage: total === 0 ? 0 : headerHeld / total,
    missing: heaviest === 0 ? 0 : lacking / heaviest,
  };
}

/**
 * The operation the question's words ask (`bound0`: the question without its numeric bound), as the
 * rows and columns located settle it: the same value as a named row's, a total the table writes, a
 * count, first and last by a date, "the top" in the table's own order.
 */
function settledOp(
  at: Located,
  bound0: string,
  rowTerms: Map<string, number>,
): { op: TableOp; shared: QaColumn | undefined; within: boolean; byTime: boolean } {
  const { question, q, table, words, hits, matched } = at;
  const numericHits = hits.filter((h) => h.col.numeric >= 0.6);
  // "more than 40,000" bounds rows; it is not a superlative
  // "listed next to X" names a neighbour, not an order
  let op = operation(unquoted(bound0).replace(phraseRe(words.beside, words), ' '), numericHits.length > 0, words);
  const shared = SAME.test(q) ? sharedColumn(hits, matched[0]) : undefined;
  if (shared) op = 'same';
  // "営業利益の合計" over a 合計 row, "the total assets" over a "Total assets" row: a total the table
  // writes is looked up — the row's label says the total and more of the question
  const writesTotal = (c: QaCell): boolean =>
    says(c.text.normalize('NFKC').toLowerCase(), words.sum, words) && [...c.terms].filter((t) => rowTerms.has(t)).length >= 2;
  if (op === 'sum' && matched[0]?.cells.some(writesTotal)) op = 'lookup';
  // "the total number of circuits listed": with no number column named to add up, the rows are counted
  if (op === 'sum' && !numericHits.some((h) => !ordinal(table, h.col)) && !MONEY.test(q)) op = 'count';
  // "the first canal opened", "the earliest to take office": first/last by the named date or number column
  // "Jay Mills' first year": the smallest year among the rows the quoted value picks
  const measured = numericHits.some((h) => !ordinal(table, h.col));
  // "the least caps of the alumni in the 1990s": the superlative over the rows of the decade
  const within =
    ((op === 'first' || op === 'last') && measured && matched[0]?.quoted === true) ||
    ((op === 'max' || op === 'min') && yearSpan(normal(question)) !== undefined && matched[0]?.quoted === true);
  // "his first season": first and last order by time, so a named date or season column is the one compared
  const byTime = (op === 'first' || op === 'last') && measured;
  if (byTime) op = op === 'first' ? 'min' : 'max';
  // "the top driver" with no number named: the table's own order ranks its rows
  if (op === 'max' && numericHits.length === 0 && /\btop\b/.test(q)) op = 'first';
  return { op, shared, within, byTime };
}

/** What the rows a question picks are located from. */
interface RowQuery {
  question: string;
  q: string;
  table: QaTable;
  words: TableWords;
  hits: HeaderHit[];
  rowTerms: Map<string, number>;
  exclusion: Exclusion | undefined;
  periods: PeriodColumns;
  /** The columns of the year the question names, in a table whose columns are periods. */
  yearCols: QaColumn[];
  /** The question without its numeric bound. */
  bound0: string;
}

/**
 * The rows a question's values pick, best first (`first`: the best of them, which the table's fit
 * reads), then as the plan reads them: the balance rows of the date it asks about, else led by the
 * row a quoted name says (`saidRow`).
 */
function locateRows(r: RowQuery): { matched: RowMatch[]; first: RowMatch | undefined; saidRow: QaRow | undefined } {
  const { question, q, table, words, hits, exclusion, periods, yearCols } = r;
  const headerTerms = new Set(hits.flatMap((h) => [...h.col.terms]));
  const named = new Map(hits.map((h) => [h.col.col, h.score / (hits[0]?.score ?? 1)]));
  const excluded = exclusion?.terms;
  // "in addition to Gildeskål Church": the value named to be left out picks no row
  const wanted = excluded ? new Map([...r.rowTerms].filter(([t]) => !excluded.has(t) || headerTerms.has(t))) : r.rowTerms;
  const found = matchRows(table, normal(question), wanted, headerTerms, named, unspaced(words));
  const picked = excluding(table, exclusion, yearCols.length > 0 ? found.filter((m) => !periods.labelRows.has(m.row)) : found);
  const asOf = yearCols.length === 0 && says(q, words.asOf, words) ? questionYear(r.bound0) : undefined;
  const onDate = asOf === undefined ? [] : balanceRows(table, asOf);
  const saidRow = onDate.length > 0 ? undefined : namedRow(question, table, words.sum);
  return { matched: leadingRow(saidRow, onDate.length > 0 ? onDate : picked), first: picked[0], saidRow };
}

/**
 * Reads a question against a table in stages: plan (its terms, bound, exclusion and operation, from
 * the question and the lexicons, plan-op.ts), then locate — the rows its values pick (locate-rows.ts)
 * and the columns it names (locate-columns.ts), from which each operation takes its answer and
 * measure columns (locate-operands.ts). The plan is computed and phrased by answer-table.ts.
 */
export function planQuestion(question: string, table: QaTable, weights: Map<string, number>): TablePlan {
  const words = lexiconFor(question);
  const q = question.normalize('NFKC').toLowerCase();
  const qTerms = questionTerms(q, words, weights);
  const rowTerms = nearTerms(qTerms, table, weights);
  // "at least 40 laps": a bound is not a value to look for — no table need hold the number 40
  const bound = boundOf(q, words);
  const { content, titled } = contentTerms(q, qTerms, bound, table, words);
  const hits = headerHits(q, qTerms, table.columns);
  const exclusion = excludedTerms(q, words);
  // "2020年の…": a table whose columns are periods answers from the column of that year, and the
  // rows that name the periods are no answer
  const bound0 = bound ? `${q.slice(0, bound.span[0])} ${q.slice(bound.span[1])}` : q;
  const periods = periodColumns(table);
  const year = periods.years.size > 0 ? questionYear(bound0) : undefined;
  const yearCols = year === undefined ? [] : table.columns.filter((c) => periods.years.get(c.col) === year);
  const rows = locateRows({ question, q, table, words, hits, rowTerms, exclusion, periods, yearCols, bound0 });
  const fit = fitOf(content, titled, table, rows.first, weights);
  const { matched, saidRow } = rows;
  const conditionCols = conditionColumns(q, table, matched, rowTerms);
  const at: Located = {
    question,
    q,
    table,
    words,
    qTerms,
    hits,
    matched,
    best: matched[0]?.score ?? 0,
    conditionCols,
    comparing: /\bor\b/.test(q) && conditionCols.size > 0,
  };
  const { op: read, shared, within, byTime } = settledOp(at, bound0, rowTerms);
  const chosen = yearOperands(at, operands(at, read, { byTime, shared, exclusion, saidRow }), yearCols, periods, bound);
  const { operands: o, filter } = filteredOperands(at, chosen, bound);
  return {
    words,
    op: o.op,
    answer: o.answer,
    measure: o.measure,
    reading: o.reading,
    filter,
    matched,
    comparing: at.comparing,
    totals: o.totals,
    within,
    frequency: o.frequency,
    excluded: exclusion?.terms,
    kept: o.op === 'next' || o.op === 'previous' ? keptCell(normal(question), table, matched[0], o.answer) : undefined,
    listOrder: LIST_ORDER.test(q),
    ...fit,
    periodFit: year === undefined ? 0 : yearCols.length > 0 ? 1 : -1,
  };
}
