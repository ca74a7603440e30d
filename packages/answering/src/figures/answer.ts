import type { Calculation, FigureValue } from '@pinpoint/core';
import type { QaCell, QaRow, QaTable } from '../table/model.js';
import type { Operand } from './compute.js';
import { compute, FigureError, rounded } from './compute.js';
import type { LocatedCell } from './locate.js';
import { cellAt, rowsNamed, tableScale, yearColumns } from './locate.js';
import { figureLine, figureValue, fill, operandsOf, withUnit, written } from './phrase.js';
import type { FigurePlan } from './plan.js';
import { itemText, planFigure } from './plan.js';

/** A figure read from one table: the answer line, the operand cells in citation order, value and calculation. */
export interface FigureReading {
  table: number;
  /** How the reading was chosen: its rows' match, and how many other tables matched almost as well. */
  features: Record<string, number>;
  text: string;
  cells: QaCell[];
  how: string;
  value: FigureValue;
  calculation: Calculation;
}

/** A figure the tables cannot give: the operand not found (or the arithmetic refused), said in the question's language. */
export interface FigureMissing {
  table: number;
  missing: string;
  code: 'PP_FIGURE_OPERAND_MISSING' | 'PP_FIGURE_DIVIDE_BY_ZERO' | 'PP_FIGURE_OPERANDS';
}

type Weights = ReadonlyMap<string, number>;

/** The years an operation reads from a table: those the question names, else the table's newest (two for a change, all for an average or sum). */
function yearsFor(plan: FigurePlan, table: QaTable): number[] | undefined {
  const have = [...yearColumns(table, plan.percent).keys()].sort((a, b) => a - b);
  if (have.length === 0) return undefined;
  const two = plan.op === 'change' || plan.op === 'pctChange';
  if (plan.years.length === 0) {
    if (two) return have.length >= 2 ? have.slice(-2) : undefined;
    return plan.op === 'average' || plan.op === 'sum' ? have : have.slice(-1);
  }
  const named = [...plan.years].sort((a, b) => a - b);
  // "the change in 2019": from the year before it the table shows
  if (two && named.length === 1) {
    const before = have.filter((y) => y < (named[0] as number)).at(-1);
    return before === undefined ? undefined : [before, named[0] as number];
  }
  if (two) return [named[0] as number, named.at(-1) as number];
  return plan.op === 'ratio' || plan.op === 'share' ? named.slice(-1) : named;
}

/** Operand cells located in one table, with how well their rows' labels match the question. */
interface Located {
  cells: LocatedCell[];
  match: number;
}

/** The operand cells of a plan in one table, or the item text that names no row of it. */
function locate(plan: FigurePlan, table: QaTable, weights: Weights): Located | { missing: string } {
  const years = yearsFor(plan, table);
  if (!years) return { missing: itemText(plan) };
  const out: LocatedCell[] = [];
  const used = new Set<QaRow>();
  let match = 0;
  for (const item of plan.items) {
    const found = rowsNamed(table, itemText(plan, item), weights)
      .filter((m) => !used.has(m.row))
      .map((m) => ({ m, cells: years.map((y) => cellAt(table, m, y, plan.percent)) }))
      // each period its own cell: a row whose years all read one cell (a merged cell) is no series
      .find((f) => f.cells.every((c) => c !== undefined) && new Set(f.cells.map((c) => c?.cell)).size === f.cells.length);
    if (!found) return { missing: itemText(plan, item) };
    used.add(found.m.row);
    match += (found.m.labelShare + found.m.textShare) / plan.items.length;
    out.push(...(found.cells as LocatedCell[]));
  }
  return { cells: out, match };
}

/** What a table's place in the fit order adds to its rows' match: the better-fitting table wins a tie. */
const ORDER_BONUS = 0.02;
/** Another table whose rows match within this of the best is a rival reading. */
const RIVAL = 0.05;

/**
 * A figure question answered from the tables (best fit first): the table whose rows' labels the
 * question names best, holding every operand — each operand a cited cell, the arithmetic shown.
 * Undefined when the question asks no arithmetic, or when no table of periods holds its operands and
 * the table the question fits best has no periods (a table of rows the table reader computes over); a
 * FigureMissing when that table has periods but not the operand.
 */
export function answerFigure(
  question: string,
  tables: QaTable[],
  weights: Weights,
  maxTables = 8,
): FigureReading | FigureMissing | undefined {
  const plan = planFigure(question);
  if (!plan) return undefined;
  let missing: FigureMissing | undefined;
  let best: { index: number; located: Located; score: number } | undefined;
  const scores: number[] = [];
  for (const [i, table] of tables.slice(0, maxTables).entries()) {
    if (yearColumns(table, plan.percent).size === 0) continue;
    const located = locate(plan, table, weights);
    if (!('cells' in located)) {
      // only the table the question fits best is the one asked about: its periods without the operand refuse
      if (i === 0) missing = { table: i, missing: located.missing, code: 'PP_FIGURE_OPERAND_MISSING' };
      continue;
    }
    const score = located.match - ORDER_BONUS * i;
    scores.push(located.match);
    if (!best || score > best.score) best = { index: i, located, score };
  }
  // no table of periods holds the operands: refused when the table asked about is one; else the table reader answers
  if (!best) return missing;
  try {
    const top = best.located.match;
    const features = {
      figure_match: top,
      figure_table: best.index,
      figure_rivals: scores.filter((x) => x >= top - RIVAL).length - 1,
    };
    return { ...reading(plan, tables[best.index] as QaTable, best.index, best.located.cells), features };
  } catch (e) {
    if (e instanceof FigureError) return { table: best.index, missing: e.message, code: e.code };
    throw e;
  }
}

/** The answer line, value and calculation of located operands. */
function reading(plan: FigurePlan, table: QaTable, index: number, cells: LocatedCell[]): Omit<FigureReading, 'features'> {
  // costs and outflows a statement writes in brackets ("(5,075)"): their average or sum is the cost, not a negative
  const outflows = (plan.op === 'average' || plan.op === 'sum') && cells.every((c) => c.amount.number < 0);
  const operands: Operand[] = cells.map((c, i) => ({
    n: i + 1,
    number: outflows ? -c.amount.number : c.amount.number,
    written: c.amount.written,
  }));
  const computed = compute(plan.op, operands, plan.percent);
  const declared = tableScale(table);
  const { scale } = declared;
  // the unit the table declares, else the currency its cells write ("$120.7")
  const unit = declared.unit ?? cells.find((c) => c.amount.currency)?.amount.currency;
  // a change or average of a row of percentages is in percent; a ratio has no unit
  const percent =
    plan.percent ||
    ((plan.op === 'change' || plan.op === 'average' || plan.op === 'sum') && cells.every((c) => c.amount.percent));
  const scaled = !percent && plan.op !== 'ratio' && plan.op !== 'share';
  const number = rounded(computed.number);
  const figure = withUnit(written(number), plan.words, {
    scale: scaled ? scale : 1,
    percent,
    ...(scaled && unit ? { unit } : {}),
  });
  const years = [...new Set(cells.map((c) => c.year))].sort((a, b) => a - b);
  const item = cells[0]?.label ?? '';
  const what = fill(plan.words.say[plan.op], {
    item,
    a: cells[0]?.label ?? '',
    b: cells.at(-1)?.label ?? '',
    from: String(years[0] ?? ''),
    to: String(years.at(-1) ?? ''),
    periods: years.join(plan.words.say.joiner),
  });
  const marks = operands.map((o) => `[${o.n}]`).join('');
  return {
    table: index,
    text: figureLine(plan.words, figure, what, computed.expression, marks),
    cells: cells.map((c) => c.cell),
    how: what,
    value: figureValue(number, { scale: scaled ? scale : 1, percent, unit: scaled ? unit : undefined }),
    calculation: { expression: computed.expression, operands: operandsOf(cells) },
  };
}

/** The refusal line naming the operand not found, in the question's language. */
export function missingLine(question: string, missing: FigureMissing): string {
  const plan = planFigure(question);
  const years = plan?.years.length ? ` (${plan.years.join(plan.words.say.joiner)})` : '';
  return fill(plan?.words.say.missing ?? '{item}', { item: missing.missing, periods: years });
}
