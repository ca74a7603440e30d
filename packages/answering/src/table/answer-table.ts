import type { Anchor, Calculation, Chunk, Citation, Element, FigureValue } from '@pinpoint/core';
import { answerFigure, missingLine } from '../figures/answer.js';
import { lookupFigure } from '../figures/lookup.js';
import type { FigureOp } from '../figures/plan.js';
import { planFigure } from '../figures/plan.js';
import type { Result } from './compute.js';
import { execute } from './compute.js';
import { lexiconFor } from './lexicon/index.js';
import type { QaCell, QaTable } from './model.js';
import { buildTable } from './model.js';
import { documentMisses, holdsCompany, namedCompany } from './named-document.js';
import { periodColumns } from './period-columns.js';
import { answerLine } from './phrase.js';
import type { TablePlan } from './question.js';
import { planQuestion } from './question.js';

/** One table the retrieval found: every row element of it, and the chunk of each data row. */
export interface TableSource {
  versionId: string;
  file: string;
  /** Document title (file name without extension). */
  title: string;
  /**
   * The names the document's identity gives it (the company and report it is: from its cover,
   * metadata or file name, or an editor's). A question that names a document is matched against
   * these; against the title when there are none.
   */
  names?: string[];
  elements: Element[];
  /** The text just above the table ("(in thousands, except per share data)"), when it has some. */
  lead?: string[];
  chunkOf: (elementId: string) => Chunk | undefined;
  /** Best retrieval rank of any of its rows (1-based). */
  rank: number;
}

export interface TableAnswer {
  refused: boolean;
  answer: string;
  citations: Citation[];
  /** The table's data rows in answer order: the answer's rows first, then rows matching the question. */
  rows: Element[];
  /** How the answer was found (operation, columns), for the UI and the eval. */
  how: string;
  /**
   * The other tables read, best fit first, each with the row its own reading of the question picks
   * and how far its fit falls below the chosen table's (0 when the question tells them apart no better).
   */
  alternatives: { source: TableSource; row: Element; behind: number }[];
  /** The refusal decision's score (see TableAnswerOptions.minEvidence). */
  score: number;
  /** What the refusal decision read: coverage, header coverage, heaviest missing term. */
  features: Record<string, number>;
  /** A figure answer: the number it states, with its unit and scale. */
  value?: FigureValue;
  /** A computed figure: its expression and each operand, cited. */
  calculation?: Calculation;
  /** A refusal that says why (the operand a computed figure lacks), in the question's language. */
  refusal?: string;
  /** Why a refusal that says why was made, when it is not an operand missing: documents that give the figure differently. */
  refusalCode?: 'figure-ambiguous';
}

export interface TableAnswerOptions {
  /**
   * Below this evidence (share of the question's term weight the table holds, plus half the share its
   * titles and headers hold, plus a little for a quoted cell) the table is not the one asked about
   * and the answer is a refusal.
   */
  minEvidence: number;
}

/** Fitted on wtq-dev at ≥ 0.90 of answerable questions answered (README: Measured). */
export const DEFAULT_TABLE_OPTIONS: Readonly<TableAnswerOptions> = Object.freeze({ minEvidence: 0.5 });

/** What a question that quotes a whole cell of the table adds to the evidence. */
const QUOTED = 0.2;
/** What a quoted cell adds to a table's fit when tables are compared. */
const QUOTED_FIT = 0.1;

/**
 * Operations about named rows (a lookup, the row after or before one, a count or total of some rows, a
 * difference between two): a question that asks one of them names its rows.
 */
const ANCHORED = new Set(['lookup', 'next', 'previous', 'count', 'sum', 'difference', 'same']);
/** What a question about named rows loses when no row of the table holds what it names. */
const UNANCHORED = 0.25;
/** The share of the question one row must hold to count as the row the question names. */
const ROW_HELD = 0.5;

/**
 * A question about named rows, none of which the table holds: no cell quoted, no row holding half
 * of it, no numeric bound ("more than 40,000") picking rows.
 */
const unanchored = (plan: TablePlan): boolean =>
  ANCHORED.has(plan.op) && !plan.filter && !plan.matched[0]?.quoted && plan.rowCoverage < ROW_HELD;

/**
 * The refusal decision's score: how much of the question the table holds, its titles and headers
 * counting extra, plus a little when the question quotes a whole cell, minus a little when the
 * question is about named rows and the table holds none of them. The share of the question no
 * indexed document holds is reported (`unseen`) but not subtracted: in a collection of a few tables,
 * ordinary words ("medals", "win") are unseen too, and a plain lookup would be refused.
 */
const evidence = (plan: TablePlan): number =>
  held(plan) + (plan.matched[0]?.quoted ? QUOTED : 0) - (unanchored(plan) ? UNANCHORED : 0);

/** How much of the question the table holds, its titles and headers counting extra. */
const held = (plan: TablePlan): number => plan.coverage + 0.5 * plan.headerCoverage;

/**
 * The anchor of one cell: a single-cell record anchor (sheets, CSV, DOCX), the cell's text range with
 * its raw <td> range (HTML), or the cell's box on its page (slide tables).
 */
export function cellAnchor(cell: QaCell): Anchor {
  const a = cell.element.anchor;
  if (a.kind === 'text') {
    const { raw: _raw, ...rest } = a;
    return {
      ...rest,
      start: a.start + cell.cell.start,
      end: a.start + cell.cell.end,
      ...(cell.cell.raw ? { raw: cell.cell.raw } : {}),
    };
  }
  if (a.kind === 'record') return { ...a, cell_range: cell.cell.ref };
  // a slide table's row (page anchored): the box of the cell's own span
  const boxes = (cell.element.spans ?? []).filter((s) => s.start >= cell.cell.start && s.end <= cell.cell.end).map((s) => s.box);
  return boxes.length > 0 ? { ...a, boxes } : a;
}

/** A citation of one cell (undefined when its row has no chunk). */
export function citeCell(cell: QaCell, n: number, source: TableSource): Citation | undefined {
  const chunk = source.chunkOf(cell.element.element_id);
  if (!chunk) return undefined;
  const citation: Citation = {
    n,
    document_id: chunk.document_id,
    version_id: chunk.version_id,
    chunk_id: chunk.chunk_id,
    element_id: cell.element.element_id,
    file: source.file,
    anchor: cellAnchor(cell),
    quote: cell.text,
    precision: 'exact',
  };
  if (chunk.page_index !== undefined) citation.page_index = chunk.page_index;
  return citation;
}

/** Data rows in answer order: the cells used, then rows matching the question, then the rest in table order. */
function rowOrder(table: QaTable, result: Result | undefined, plan: TablePlan): Element[] {
  const out: Element[] = [];
  const add = (e: Element): void => {
    if (!out.includes(e)) out.push(e);
  };
  for (const c of result?.cells ?? []) add(c.element);
  for (const m of plan.matched) add(m.row.element);
  for (const r of table.rows) add(r.element);
  return out;
}

/** Tables already read, by their rows (the caller keeps the rows of an immutable version). */
const built = new WeakMap<Element[], QaTable>();

/** The table of a source, read once per version's rows. */
export function tableFor(source: TableSource): QaTable {
  let table = built.get(source.elements);
  if (!table) {
    table = buildTable(source.file, source.title, source.elements, source.lead);
    built.set(source.elements, table);
  }
  return table;
}

/** The names a table's document is matched by: its identity's, else its file's title; and the table's own captions. */
function namesOf(source: TableSource): string[] {
  const captions = [...new Set(source.elements.map((e) => e.table?.title ?? '').filter((t) => t !== ''))];
  return [...(source.names?.length ? source.names : [source.title]), ...captions];
}

/** What a table's fit loses when its document is not the one the question names. */
const NAME_FIT = 2;

/** What a table's fit loses per unit of the log of its best row's retrieval rank. */
const RANK_FIT = 0.05;

/** What a table's fit gains when a column is the year the question names, or loses when its period columns are other years. */
const PERIOD_FIT = 0.1;

/**
 * How well a table fits a question: the question's terms it holds (in its headers most), a cell it
 * quotes, a column of the year it names, then its retrieval rank — by its log, since a table of a
 * wider list ranks far down.
 */
const fit = (plan: TablePlan, source: TableSource): number =>
  held(plan) + (plan.matched[0]?.quoted ? QUOTED_FIT : 0) + PERIOD_FIT * plan.periodFit - RANK_FIT * Math.log(source.rank);

/**
 * Answers a question from the tables retrieval found, without a model: the question is read against
 * each table (operation, columns, matching rows) and the best-covered one answers with its cell —
 * a computed answer cites every cell it used and says how. Refuses when no table holds the question.
 */
export function answerFromTables(
  question: string,
  sources: TableSource[],
  weights: Map<string, number>,
  options: Partial<TableAnswerOptions> = {},
): TableAnswer | undefined {
  const { minEvidence } = { ...DEFAULT_TABLE_OPTIONS, ...options };
  const read: { source: TableSource; table: QaTable; plan: TablePlan; fit: number }[] = [];
  for (const source of sources) {
    const table = tableFor(source);
    if (table.rows.length === 0) continue;
    const plan = planQuestion(question, table, weights);
    read.push({ source, table, plan, fit: fit(plan, source) });
  }
  // a question that names a document ("三菱商事株式会社の…") fits that document's tables; one that
  // names a company by its legal form fits only the tables of a document about it
  const words = lexiconFor(question);
  const company = namedCompany(question, words);
  const named = read.map((r) => (company ? holdsCompany(company, r.table, namesOf(r.source)) : true));
  const misses = company
    ? named.map((n) => (n ? 0 : 1))
    : documentMisses(
        question,
        read.map((r) => ({ table: r.table, names: namesOf(r.source) })),
        weights,
        words,
      );
  read.forEach((r, i) => {
    r.fit -= NAME_FIT * (misses[i] ?? 0);
  });
  // best fit first; equal fits keep retrieval order
  read.sort((a, b) => b.fit - a.fit);
  const [chosen, ...others] = read;
  if (!chosen) return undefined;
  // the company named is no candidate table's: the table asked about is not here
  const unnamed = company !== undefined && !named.some((n) => n);
  const { source, table, plan } = chosen;
  const alternatives = others.flatMap((o) => {
    const row = rowOrder(o.table, execute(o.table, o.plan), o.plan)[0];
    return row ? [{ source: o.source, row, behind: chosen.fit - o.fit }] : [];
  });
  const [first, second] = plan.matched;
  const features = {
    table_coverage: plan.coverage,
    header_coverage: plan.headerCoverage,
    missing_max: plan.missing,
    row_focus: plan.focus,
    unseen: plan.unseen,
    row_score: plan.matched[0]?.score ?? 0,
    quoted: plan.matched[0]?.quoted ? 1 : 0,
    row_coverage: plan.rowCoverage,
    unanchored: unanchored(plan) ? 1 : 0,
    company_missing: unnamed ? 1 : 0,
    // how far the chosen table's fit is ahead of the next table's (its whole fit when it is the only one)
    table_margin: chosen.fit - (others[0]?.fit ?? 0),
    // how far the best row's match is ahead of the next row's, over the best (1: one row matches, 0: none)
    row_margin: first && first.score > 0 ? (first.score - (second?.score ?? 0)) / first.score : 0,
  };
  const figure = figureAnswer(question, read, weights, { features, alternatives });
  if (figure) return figure;
  const result = execute(table, plan);
  const rows = rowOrder(table, result, plan);
  const score = evidence(plan);
  // arithmetic asked that no figure reading could give and this reader does not compute: one cell
  // looked up, or rows counted, would state some other number
  if (result && asksOtherFigure(question, table, plan, result)) {
    return { refused: true, answer: '', citations: [], rows, how: plan.op, score, features, alternatives };
  }
  // the table fits but the question's form is not one this reader knows: the extractive answer takes it
  if (!result && score >= minEvidence && !unnamed) return undefined;
  if (!result || score < minEvidence || unnamed) {
    return { refused: true, answer: '', citations: [], rows, how: result?.how ?? plan.op, score, features, alternatives };
  }
  const citations = result.cells
    .map((c, i) => citeCell(c, i + 1, source))
    .filter((c): c is Citation => c !== undefined)
    .map((c, i) => ({ ...c, n: i + 1 }));
  if (citations.length === 0) return undefined;
  const marks = citations.map((c) => `[${c.n}]`).join(' ');
  const computed = result.answerCell === undefined;
  // a figure asked and found in a cell: the figure first, with its unit, line item and period
  const answerRow = result.answerCell && table.rows.find((r) => r.element === result.answerCell?.element);
  const figured =
    result.answerCell && answerRow && !computed && plan.op === 'lookup'
      ? lookupFigure(question, table, result.answerCell, answerRow, marks)
      : undefined;
  if (figured)
    return {
      refused: false,
      answer: figured.text,
      citations,
      rows,
      how: result.how,
      score,
      features,
      alternatives,
      value: figured.value,
    };
  const answer = answerLine(result, plan, marks);
  return { refused: false, answer, citations, rows, how: result.how, score, features, alternatives };
}

/** The table reader's operations that compute what a figure plan's operation asks. */
const FIGURE_OPS: Partial<Record<FigureOp, TablePlan['op']>> = { sum: 'sum', change: 'difference' };

/** A cell, its header or its row that states what a mean, a rate, a ratio or a share asks ("增减比例%", "Average price"). */
const STATES_ASKED: Partial<Record<FigureOp, RegExp>> = {
  average: /\b(?:average|avg|mean)\b|平均/iu,
  pctChange: /%|\b(?:percent|percentage|rate|growth)\b|率|比例/iu,
  ratio: /%|\b(?:ratio|rate|times)\b|率|比/iu,
  share: /%|\b(?:percent|percentage|proportion|share|ratio)\b|率|比/iu,
};

/** A question that asks for a name (a year, a player, a place), not a figure. */
const ASKS_NAME = /\b(?:which|who|whom|whose|where|when)\b|哪|谁|誰|どの|どれ|いつ/iu;

/**
 * The question asks arithmetic (figures/plan.ts) the table reader's operation does not compute: a mean,
 * a rate, a ratio or a share (the reader has no such operation) unless the cell it reads states one, or
 * a sum or change of a table of periods that the reader would give as another operation.
 */
function asksOtherFigure(question: string, table: QaTable, plan: TablePlan, result: Result): boolean {
  const asked = planFigure(question);
  if (!asked || FIGURE_OPS[asked.op] === plan.op) return false;
  const states = STATES_ASKED[asked.op];
  if (!states) return periodColumns(table).years.size > 0;
  // "in which year did Brazil play on average one match": a name is asked, the mean only qualifies it
  if (ASKS_NAME.test(question)) return false;
  // the word is the name of a column the reader reads ("who has the highest average?", "Avg. Finish below 18")
  const columns = [plan.answer, plan.measure, plan.filter?.col].map((c) => c?.name ?? '').join(' ');
  const cell = result.answerCell;
  return !states.test(`${columns} ${cell ? `${cell.text} ${cell.cell.header ?? ''} ${cell.element.text}` : ''}`);
}

interface Read {
  source: TableSource;
  table: QaTable;
  plan: TablePlan;
  fit: number;
}

/**
 * The answer to a figure question that asks arithmetic (figures/answer.ts): computed from the
 * cells of the table that names its operands best, or refused naming the operand no table holds.
 * Undefined when the question asks no arithmetic.
 */
function figureAnswer(
  question: string,
  read: Read[],
  weights: Map<string, number>,
  shared: Pick<TableAnswer, 'features' | 'alternatives'>,
): TableAnswer | undefined {
  const figure = answerFigure(
    question,
    read.map((r) => r.table),
    weights,
  );
  if (!figure) return undefined;
  const at = read[figure.table] as Read;
  const score = evidence(at.plan);
  if ('missing' in figure) {
    const rows = rowOrder(at.table, undefined, at.plan);
    return {
      refused: true,
      answer: '',
      citations: [],
      rows,
      how: figure.code,
      score,
      ...shared,
      refusal: missingLine(
        question,
        figure,
        [figure.table, ...(figure.rivals ?? [])].map((i) => read[i]?.source.file ?? ''),
      ),
      ...(figure.code === 'PP_FIGURE_AMBIGUOUS' ? { refusalCode: 'figure-ambiguous' as const } : {}),
    };
  }
  const cited = figure.cells.map((c, i) => citeCell(c, i + 1, at.source));
  if (!cited.every((c) => c !== undefined)) return undefined;
  const features = {
    ...shared.features,
    ...figure.features,
    figure_coverage: at.plan.coverage,
    figure_header_coverage: at.plan.headerCoverage,
    figure_missing: at.plan.missing,
    figure_evidence: score,
  };
  return {
    refused: false,
    answer: figure.text,
    citations: cited as Citation[],
    rows: [...new Set([...figure.cells.map((c) => c.element), ...rowOrder(at.table, undefined, at.plan)])],
    how: figure.how,
    score,
    features,
    alternatives: shared.alternatives,
    value: figure.value,
    calculation: figure.calculation,
  };
}
