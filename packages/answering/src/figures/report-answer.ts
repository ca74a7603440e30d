import { financeGroupNames, financeGroupStatement } from '@pinpoint/analysis';
import type { Calculation, Citation, FigureValue } from '@pinpoint/core';
import type { TableSource } from '../table/answer-table.js';
import { citeCell, tableFor } from '../table/answer-table.js';
import type { QaTable } from '../table/model.js';
import { termsOf } from '../table/model.js';
import type { LocatedCell } from './locate.js';
import { cellAt, qualifiersOf, rowsNamed, tableCurrency, tableScale } from './locate.js';
import { fill } from './phrase.js';
import type { ReportFigurePlan } from './report.js';
import { answerReportFigure } from './report.js';
import { statementOf, statementsNamed } from './statements.js';

/** A report figure as the ask pipeline returns it: the answer line with its citations, or the refusal naming the missing line item. */
export type ReportFigureAnswer =
  | { refused: false; answer: string; citations: Citation[]; value: FigureValue; calculation: Calculation }
  | { refused: true; answer: string; missing: string };

/** A row counts as a line item's when the item's name covers this share of its label, and the label all of the name. */
const LABEL_IS_NAME = 0.6;
const NAME_IN_LABEL = 0.99;
const NO_WEIGHTS: ReadonlyMap<string, number> = new Map();
/** What a table's place in the search order takes from its row's fit: the first table found wins a tie. */
const TABLE_ORDER = 0.01;
/** What a primary statement adds to its rows' fit, and a statement the question names besides (decisive: a row's own fit is at most 3). */
const STATEMENT_FIT = 0.1;
const NAMED_STATEMENT_FIT = 3;
/** What a line item's own statement adds to its rows' fit, and another primary statement takes (decisive against a label's fit, at most 3, but not against a statement the question names). */
const HOME_FIT = 2;
/** In a statement the question names, or the item's own, a row whose label holds the whole name is the item's at this share of its label. */
const LABEL_IN_NAMED_STATEMENT = 0.3;

/**
 * Answers a report figure from the tables each line item's own search found (`sources`: per line
 * item, best first): a line item's cell is the year's cell of the first table's row its name
 * labels. Every operand is cited; a figure with an operand missing is refused naming it.
 */
export function readReportFigure(
  plan: ReportFigurePlan,
  sources: ReadonlyMap<string, TableSource[]>,
  asked = '',
): ReportFigureAnswer {
  const sourceOf = new Map<LocatedCell, TableSource>();
  const found = new Map<string, LocatedCell | undefined>();
  const find = (item: string, year: number): LocatedCell | undefined => {
    const key = `${item}\u0000${year}`;
    if (!found.has(key)) {
      const best = itemCell(item, year, sources.get(item) ?? [], asked);
      if (best) sourceOf.set(best.cell, best.source);
      found.set(key, best?.cell);
    }
    return found.get(key);
  };
  const scaleOf = (c: LocatedCell) => {
    const source = sourceOf.get(c);
    const declared = source ? tableScale(tableFor(source)) : { scale: 1 };
    // "(Millions)" over the columns, "$" in the cell
    const unit = declared.unit ?? c.amount.currency ?? (source ? tableCurrency(tableFor(source)) : undefined);
    return { scale: declared.scale, ...(unit ? { unit } : {}) };
  };
  const read = answerReportFigure(plan, find, scaleOf);
  if ('currency' in read && typeof read.currency === 'string')
    return { refused: true, answer: fill(plan.words.say.unit, { item: plan.name, detail: read.currency }), missing: plan.name };
  if ('missing' in read) {
    const years = read.year === undefined ? '' : ` (${read.year})`;
    const missing = financeGroupNames(read.missing)[0] ?? read.missing;
    return { refused: true, answer: fill(plan.words.say.missing, { item: missing, periods: years }), missing };
  }
  const citations = read.cells.map((c, i) => {
    const source = sourceOf.get(c) as TableSource;
    return citeCell(c.cell, i + 1, source);
  });
  if (!citations.every((c): c is Citation => c !== undefined)) {
    return { refused: true, answer: fill(plan.words.say.missing, { item: plan.name, periods: '' }), missing: plan.name };
  }
  return { refused: false, answer: read.text, citations, value: read.value, calculation: read.calculation };
}

/** The rows a lexicon name labels in a table, read once per table, name and threshold (every year of every item asks again). */
function namedRows(table: QaTable, name: string, label: number): ReturnType<typeof rowsNamed> {
  let byName = rowsByName.get(table);
  if (!byName) {
    byName = new Map();
    rowsByName.set(table, byName);
  }
  const key = `${label}\u0000${name}`;
  let rows = byName.get(key);
  if (!rows) {
    rows = rowsNamed(table, name, NO_WEIGHTS, { label, text: NAME_IN_LABEL });
    byName.set(key, rows);
  }
  return rows;
}
const rowsByName = new WeakMap<QaTable, Map<string, ReturnType<typeof rowsNamed>>>();

/**
 * A line item's cell for a year in the first of the tables (best first) that has a row its lexicon
 * names label (the name all in the label, the label mostly the name) and a column of that year.
 */
export function itemCell(
  item: string,
  year: number,
  sources: readonly TableSource[],
  asked = '',
): { cell: LocatedCell; source: TableSource; home: boolean } | undefined {
  const words = termsOf(asked);
  const named = statementsNamed(asked);
  const homeStatement = financeGroupStatement(item);
  let best: { cell: LocatedCell; source: TableSource; score: number; home: boolean } | undefined;
  for (const [i, source] of sources.entries()) {
    const table = tableFor(source);
    // a line item is read from a primary statement before a note's or a segment's table, and from
    // a statement the question names before any other table — where the statement may write the
    // item with its own qualifiers ("Depreciation and amortization of property, equipment and intangibles")
    const statement = statementOf(table);
    const asked = statement !== undefined && named.has(statement);
    // a balance is never its change: the cash flows' "Inventories (140)" is no year's inventories
    if (homeStatement === 'balance' && statement === 'cash-flow' && !asked) continue;
    // a balance is read from the balance sheet before a note's table
    const own = statement !== undefined && statement === homeStatement;
    const home = statement === undefined || homeStatement === undefined || asked ? 0 : own ? HOME_FIT : -HOME_FIT;
    const fit = (statement ? STATEMENT_FIT : 0) + (asked ? NAMED_STATEMENT_FIT : 0) + home;
    const label = asked || own ? LABEL_IN_NAMED_STATEMENT : LABEL_IS_NAME;
    for (const name of financeGroupNames(item)) {
      const qualified = qualifiersOf(name);
      for (const m of namedRows(table, name, label)) {
        // "Total other current assets" is not current assets, nor "Income before taxes" income
        if ([...qualifiersOf(m.label)].some((q) => !qualified.has(q))) continue;
        const cell = cellAt(table, m, year, false);
        if (!cell) continue;
        // "net property, plant and equipment": a label whose every word the question says ("Property, plant and equipment, net") over one that adds its own ("Gross …")
        const label = termsOf(m.label);
        const said = label.size === 0 ? 0 : [...label].filter((t) => words.has(t) || termsOf(name).has(t)).length / label.size;
        const score = m.labelShare + m.textShare + said + fit - TABLE_ORDER * i;
        if (!best || score > best.score) best = { cell, source, score, home: own };
      }
    }
  }
  return best && { cell: best.cell, source: best.source, home: best.home };
}
