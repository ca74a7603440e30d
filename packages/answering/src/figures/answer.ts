import type { Calculation, FigureValue } from '@pinpoint/core';
import type { QaCell, QaRow, QaTable } from '../table/model.js';
import type { Amount } from './amount.js';
import { amountOf } from './amount.js';
import { otherCurrency, stateFigure } from './asked.js';
import type { Operand } from './compute.js';
import { compute, FigureError, rounded } from './compute.js';
import type { LocatedCell, RowMatch } from './locate.js';
import { cellAt, periodsAcross, rowsNamed, tableCurrency, tableScale, yearColumns } from './locate.js';
import { balanceRow, maturityCells, maturityColumns, quarterCells } from './locate-periods.js';
import { figureLine, fill, operandsOf } from './phrase.js';
import type { FigurePlan } from './plan.js';
import { itemText, planFigure, TOGETHER, yearsNamed } from './plan.js';

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
  code:
    | 'PP_FIGURE_OPERAND_MISSING'
    | 'PP_FIGURE_DIVIDE_BY_ZERO'
    | 'PP_FIGURE_OPERANDS'
    | 'PP_FIGURE_AMBIGUOUS'
    | 'PP_FIGURE_ONE_PERIOD'
    | 'PP_FIGURE_CURRENCIES'
    | 'PP_FIGURE_UNIT';
  /** PP_FIGURE_CURRENCIES, PP_FIGURE_UNIT: the currencies the operands or the figure are in. */
  detail?: string;
  /** PP_FIGURE_AMBIGUOUS: the tables (by index) whose rows fit as well and give other figures, the best first. */
  rivals?: number[];
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
  // a ratio of one line item: its first named period over its second, in the question's order
  if (plan.op === 'ratio' && plan.items.length === 1)
    return plan.years.length === 2 && plan.years.every((y) => have.includes(y)) ? plan.years : undefined;
  return plan.op === 'ratio' || plan.op === 'share' ? named.slice(-1) : named;
}

/** What each nil operand ("—" read as zero) takes from a table's match. */
const NIL_COST = 0.5;
/** What a row of percentages takes from a table's match when the question asks no percentage, and a row of amounts when it asks one. */
const PERCENT_COST = 0.25;

/** Operand cells located in one table, with how well their rows' labels match the question. */
interface Located {
  cells: LocatedCell[];
  match: number;
}

/** The operand cells of a plan in one table, or the item text that names no row of it. */
function locate(plan: FigurePlan, table: QaTable, weights: Weights): Located | { missing: string } {
  // one line item over the quarter rows asked, in the column it names, or over the maturity columns that make up
  // the span of years asked
  if (plan.quarters || plan.maturity) {
    const text = itemText(plan);
    const read =
      plan.items.length !== 1
        ? undefined
        : plan.quarters
          ? quarterCells(table, text, plan.years[0], plan.quarters, weights)
          : maturityCells(table, text, plan.maturity as { from: number; to: number }, weights);
    return read ?? { missing: text };
  }
  const years = yearsFor(plan, table);
  if (!years) return { missing: itemText(plan) };
  const out: LocatedCell[] = [];
  const used = new Set<QaRow>();
  let match = 0;
  // a change or a sum reads a dash as nil; a rate, a mean or a ratio of nothing is no figure
  const nil = plan.op === 'change' || plan.op === 'sum';
  const rowOf = (text: string) => {
    // a balance on the day the question names, where no row names the item: the dated row of a table of movements
    const day = plan.day ? balanceRow(table, text, plan.day, weights) : undefined;
    return (
      [...rowsNamed(table, text, weights), ...(day ? [day] : [])]
        .filter((m) => !used.has(m.row))
        .map((m) => ({ m, cells: years.map((y) => cellAt(table, m, y, plan.percent, nil)) }))
        // each period its own cell: a row whose years all read one cell (a merged cell) is no series
        .find((f) => f.cells.every((c) => c !== undefined) && new Set(f.cells.map((c) => c?.cell)).size === f.cells.length)
    );
  };
  for (const [i, item] of plan.items.entries()) {
    const found = rowOf(itemText(plan, item));
    // the part of a share named as two line items no row names whole ("land and leasehold improvements")
    const pieces =
      i === 0 && plan.items.length === 2 && (!found || found.m.textShare < 1) ? piecesOf(plan, item, rowOf) : undefined;
    if (pieces) {
      for (const p of pieces) {
        used.add(p.m.row);
        out.push(...(p.cells as LocatedCell[]));
        match += (p.m.labelShare + p.m.textShare) / (2 * plan.items.length);
      }
      continue;
    }
    if (!found) return { missing: itemText(plan, item) };
    used.add(found.m.row);
    // a row of figures fits better than one that says nil where a figure is asked, and a row of
    // amounts better than a row of percentages (of revenue, say) where no percentage is asked
    const cells = found.cells as LocatedCell[];
    const nils = cells.filter((c) => c.amount.nil).length;
    // (a change, an average or a sum is in its operands' unit: percentages where the question asks a percentage)
    const same = plan.op === 'change' || plan.op === 'average' || plan.op === 'sum';
    const percents = same && plan.percentAsked !== cells.every((c) => c.amount.percent) ? PERCENT_COST : 0;
    match += (found.m.labelShare + found.m.textShare - NIL_COST * nils - percents) / plan.items.length;
    out.push(...cells);
  }
  return { cells: out, match };
}

/** Rows located for a text: the row and its cells for the years read. */
type RowOf = (text: string) => { m: RowMatch; cells: (LocatedCell | undefined)[] } | undefined;

/** The two line items a share's part names together, each a row of its own named whole; undefined otherwise. */
function piecesOf(plan: FigurePlan, item: string, rowOf: RowOf): NonNullable<ReturnType<RowOf>>[] | undefined {
  if (plan.op !== 'share' && plan.op !== 'ratio') return undefined;
  const parts = itemText(plan, item).split(TOGETHER);
  if (parts.length !== 2) return undefined;
  const found = parts.map((p) => rowOf(p.trim()));
  const [a, b] = found;
  return a && b && a.m.row !== b.m.row && found.every((f) => f && f.m.textShare >= 0.99) ? [a, b] : undefined;
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
  maxTables = 20,
): FigureReading | FigureMissing | undefined {
  const plan = planFigure(question);
  if (!plan) return undefined;
  // a ratio or share of two line items is one period's figure: asked of several ("in 2017 and 2018"), any one
  // of them would answer another question
  if ((plan.op === 'ratio' || plan.op === 'share') && plan.items.length === 2 && plan.years.length > 1)
    return { table: 0, missing: itemText(plan), code: 'PP_FIGURE_ONE_PERIOD' };
  // items named together that one row names as a whole ("cash and cash equivalents"): a lookup
  const whole = plan.whole;
  if (whole && tables.slice(0, maxTables).some((t) => rowsNamed(t, whole, weights).length > 0)) return undefined;
  let missing: FigureMissing | undefined;
  const found: { index: number; located: Located; score: number }[] = [];
  // quarters and maturities are periods a table writes outside its year columns (locate-periods.ts)
  const otherPeriods = plan.quarters !== undefined || plan.maturity !== undefined;
  // a table of dated rows is read across: its columns are the line items
  const views = tables
    .slice(0, maxTables)
    .map((t) => (otherPeriods || yearColumns(t, plan.percent).size > 0 ? t : (periodsAcross(t) ?? t)));
  for (const [i, table] of views.entries()) {
    if (!otherPeriods && yearColumns(table, plan.percent).size === 0) continue;
    // amounts due within a span are read from columns of maturities: a table of aging rows (「1年以内」) is the table reader's
    if (plan.maturity && maturityColumns(table).length === 0) continue;
    const located = locate(plan, table, weights);
    if (!('cells' in located)) {
      // only the table the question fits best is the one asked about: its periods without the operand refuse
      // (a table read across is no table of periods: its rows are the table reader's)
      if (i === 0 && table === tables[0]) missing = { table: i, missing: located.missing, code: 'PP_FIGURE_OPERAND_MISSING' };
      continue;
    }
    found.push({ index: i, located, score: located.match - ORDER_BONUS * i });
  }
  // no table of periods holds the operands: refused when the table asked about is one; else the table reader answers
  const best = found.reduce<(typeof found)[number] | undefined>((b, f) => (!b || f.score > b.score ? f : b), undefined);
  if (!best) return missing;
  try {
    const top = best.located.match;
    const near = found.filter((f) => f !== best && f.located.match >= top - RIVAL);
    // tables of other documents that fit as well and give another figure: the question does not say which it asks
    const value = figureOf(plan, best.located.cells);
    const rivals = near.filter(
      (f) => tables[f.index]?.file !== tables[best.index]?.file && figureOf(plan, f.located.cells) !== value,
    );
    if (rivals.length > 0)
      return {
        table: best.index,
        missing: best.located.cells[0]?.label ?? itemText(plan),
        code: 'PP_FIGURE_AMBIGUOUS',
        rivals: rivals.map((r) => r.index),
      };
    const features = { figure_match: top, figure_table: best.index, figure_rivals: near.length };
    return { ...reading(plan, views[best.index] as QaTable, best.index, best.located.cells), features };
  } catch (e) {
    if (e instanceof FigureError)
      return e.code === 'PP_FIGURE_CURRENCIES' || e.code === 'PP_FIGURE_UNIT'
        ? { table: best.index, missing: best.located.cells[0]?.label ?? itemText(plan), code: e.code, detail: e.message }
        : { table: best.index, missing: e.message, code: e.code };
    throw e;
  }
}

/** The figure located operands give, rounded as an answer states it; undefined when it cannot be computed. */
function figureOf(plan: FigurePlan, cells: LocatedCell[]): number | undefined {
  try {
    const operands = cells.map((c, i) => ({ n: i + 1, number: c.amount.number, written: c.amount.written }));
    return rounded(compute(plan.op, operands, plan.percent).number);
  } catch (e) {
    if (e instanceof FigureError) return undefined;
    throw e;
  }
}

/** The answer line, value and calculation of located operands. */
function reading(plan: FigurePlan, table: QaTable, index: number, cells: LocatedCell[]): Omit<FigureReading, 'features'> {
  // a cost or outflow a statement writes in brackets ("Cost of sales (5,075)"): its average or sum is the
  // cost, not a negative; a loss or an adjustment in brackets stays negative
  const outflows =
    (plan.op === 'average' || plan.op === 'sum') && cells.every((c) => c.amount.number < 0 && plan.words.outflow.test(c.label));
  // amounts of different currencies are not added, compared or divided ("$ 120" beside "€ 95")
  const currencies = [...new Set(cells.map((c) => c.amount.currency).filter((c) => c !== undefined))];
  if (currencies.length > 1) throw new FigureError('PP_FIGURE_CURRENCIES', currencies.join(plan.words.say.joiner));
  const operands: Operand[] = cells.map((c, i) => ({
    n: i + 1,
    number: outflows ? -c.amount.number : c.amount.number,
    written: c.amount.written,
  }));
  const computed = compute(plan.op, operands, plan.percent);
  const declared = tableScale(table);
  const { scale } = declared;
  // the unit the table declares, else the currency its cells write ("$120.7")
  const unit = declared.unit ?? cells.find((c) => c.amount.currency)?.amount.currency ?? tableCurrency(table);
  // a change or average of a row of percentages is in percent; a ratio has no unit
  const percent =
    plan.percent ||
    ((plan.op === 'change' || plan.op === 'average' || plan.op === 'sum') && cells.every((c) => c.amount.percent));
  const scaled = !percent && plan.op !== 'ratio' && plan.op !== 'share';
  // asked in another currency ("in USD millions" of a table in yen): no rate converts it
  const other = scaled ? otherCurrency(plan.asked, unit) : undefined;
  if (other) throw new FigureError('PP_FIGURE_UNIT', other);
  const { text: figure, value } = stateFigure(
    rounded(computed.number),
    { scale: scaled ? scale : 1, percent, unit: scaled ? unit : undefined },
    plan.asked,
    plan.words,
  );
  const years = [...new Set(cells.map((c) => c.year))].sort((a, b) => a - b);
  // items named together are named together ("Apple and Huawei")
  const item = plan.whole ? cells.map((c) => c.label).join(plan.words.say.joiner) : (cells[0]?.label ?? '');
  // a ratio of one line item is of its periods: each side says its year
  const across = plan.op === 'ratio' && plan.items.length === 1;
  const side = (c: LocatedCell | undefined): string => (c ? (across ? `${c.label} ${c.year}` : c.label) : '');
  // a part of two line items is named by both
  const part = cells.length > 2 && (plan.op === 'share' || plan.op === 'ratio') ? cells.slice(0, -1) : cells.slice(0, 1);
  const dated = cells.length > 0 && cells.every((c) => c.dated);
  const what = fill(plan.words.say[plan.op], {
    item,
    a: part.map(side).join(plan.words.say.joiner),
    b: side(cells.at(-1)),
    // a balance's periods are its days ("At 1 January 2018 to At 1 January 2019"), a quarter's its row ("Third Quarter 2019")
    from: dated ? (cells[0]?.period ?? '') : String(years[0] ?? ''),
    to: dated ? (cells.at(-1)?.period ?? '') : String(years.at(-1) ?? ''),
    periods: dated ? cells.map((c) => c.period).join(plan.words.say.joiner) : years.join(plan.words.say.joiner),
  });
  // the row states the change itself ("36%" under "% Change"): the document's figure first, cited, then
  // the same figure from its cells
  const stated = statedChange(plan, table, cells, computed.number);
  if (stated) {
    const shifted = operands.map((o) => `[${o.n + 1}]`).join('');
    return {
      table: index,
      text: fill(plan.words.say.stated, {
        stated: stated.amount.written,
        what,
        mark: '[1]',
        figure,
        expression: computed.expression,
        marks: shifted,
      }),
      cells: [stated.cell, ...cells.map((c) => c.cell)],
      how: what,
      value,
      calculation: {
        expression: computed.expression,
        operands: operandsOf(cells).map((o) => ({ ...o, n: o.n + 1 })),
      },
    };
  }
  const marks = operands.map((o) => `[${o.n}]`).join('');
  return {
    table: index,
    text: figureLine(plan.words, figure, what, computed.expression, marks),
    cells: cells.map((c) => c.cell),
    how: what,
    value,
    calculation: { expression: computed.expression, operands: operandsOf(cells) },
  };
}

/**
 * The cell of the operands' row that states the change asked, in a column of changes ("% Change",
 * "2019 vs 2018", 「増減率」), when it agrees with the computed change to its own rounding.
 */
function statedChange(
  plan: FigurePlan,
  table: QaTable,
  cells: LocatedCell[],
  computed: number,
): { cell: QaCell; amount: Amount } | undefined {
  if (plan.op !== 'change' && plan.op !== 'pctChange') return undefined;
  const row = table.rows.find((r) => r.element === cells[0]?.cell.element);
  if (!row || cells.some((c) => c.cell.element !== row.element)) return undefined;
  const periods = new Set([...yearColumns(table, false).values(), ...yearColumns(table, true).values()]);
  const asked = new Set(cells.map((c) => c.year));
  for (const cell of row.cells.values()) {
    if (periods.has(cell.col)) continue;
    const header = table.columns.find((c) => c.col === cell.col)?.name ?? '';
    if (!plan.words.changeColumn.test(header)) continue;
    // a column of the change between two other years is not this one
    const years = yearsNamed(header);
    if (years.length > 0 && !years.every((y) => asked.has(y))) continue;
    const amount = amountOf(cell.text);
    if (!amount || amount.percent !== (plan.op === 'pctChange' || header.includes('%'))) continue;
    if (plan.op === 'change' && header.includes('%')) continue;
    if (Math.abs(amount.number - computed) <= 0.5 * 10 ** -amount.decimals + 1e-9) return { cell, amount };
  }
  return undefined;
}

/** The line each refusal is said by, other than an operand not found (`missing`). */
const REFUSAL_LINES: Partial<Record<FigureMissing['code'], 'ambiguous' | 'onePeriod' | 'currencies' | 'unit'>> = {
  PP_FIGURE_AMBIGUOUS: 'ambiguous',
  PP_FIGURE_ONE_PERIOD: 'onePeriod',
  PP_FIGURE_CURRENCIES: 'currencies',
  PP_FIGURE_UNIT: 'unit',
};

/**
 * The refusal line, in the question's language: the operand not found, or — for a figure several
 * documents give differently — those documents (`files`, the best-fitting first).
 */
export function missingLine(question: string, missing: FigureMissing, files: string[] = []): string {
  const plan = planFigure(question);
  const years = plan?.years.length ? ` (${plan.years.join(plan.words.say.joiner)})` : '';
  const line = plan?.words.say[REFUSAL_LINES[missing.code] ?? 'missing'];
  return fill(line ?? '{item}', {
    item: missing.missing,
    periods: years,
    files: files.join(plan?.words.say.joiner ?? ', '),
    detail: missing.detail ?? '',
  });
}
