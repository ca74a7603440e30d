import { financeGroupsIn } from '@pinpoint/analysis';
import type { Calculation, FigureValue } from '@pinpoint/core';
import { askedPart } from '../gate-view.js';
import { lexiconFor } from '../table/lexicon/index.js';
import type { AskedForm } from './asked.js';
import { askedForm, otherCurrency, stateFigure } from './asked.js';
import { rounded } from './compute.js';
import { askedExpression, definedFormula } from './defined.js';
import type { CellFinder, Evaluated, NotEvaluated } from './evaluate.js';
import { evaluateMeasure } from './evaluate.js';
import type { LocatedCell } from './locate.js';
import { amountFormula, LOWER_IS_BETTER, MEASURE_FORMULAS, measureItems } from './measures.js';
import { figureLine, fill, operandsOf, written } from './phrase.js';
import { planFigure, yearsNamed } from './plan.js';
import type { FigureWords } from './words.js';
import { FIGURE_WORDS } from './words.js';

/**
 * A figure asked of a report: a line item or a measure of the lexicon (FY2018 capital expenditure,
 * the FY2020 working capital ratio, 2019年度の営業利益率), for the years the question names — its
 * value, or its change, % change or average over them.
 */
export interface ReportFigurePlan {
  /** The lexicon group: a line item, or a measure of MEASURE_FORMULAS. */
  measure: string;
  /** The name the question gives it. */
  name: string;
  /** `trend`: the measure for each year named (or the named year and the two before it), and its direction. */
  op: 'value' | 'change' | 'pctChange' | 'average' | 'trend';
  years: number[];
  /** The figure is computed (a measure's formula, or an operation over years), not one cell looked up. */
  computed: boolean;
  words: FigureWords;
  /** The scale and rounding the question asks the figure in ("in USD millions"). */
  asked: AskedForm;
  /**
   * A measure the question does not define: the report's own row of it ("Effective tax rate | 21.6 %")
   * is read first, its formula computed only where the report states none.
   */
  stated: boolean;
  /** A trend the question asks to be judged ("improving", 「改善」): said as improving or not, not as rising or falling. */
  judges?: boolean;
  /** The formula the question gives for its figure ("DPO is defined as: …", "EBITDA less capex"), read over the lexicon's line items. */
  formula?: string;
}

/** A question that defines its measure ("DPO is defined as …", "Define working capital ratio as …", "using …"). */
const DEFINES =
  /\b(?:defined\s+as|define[sd]?\b|calculated\s+as|calculate\s+\w+(?:\s+\w+)?\s+using|using|formula)\b|定義|定义|とする|按照/iu;

/** A question that compares a figure across the periods it names. */
const COMPARES = /\b(?:compare[sd]?|comparison|versus|vs\.?)(?!\w)|比較|比较|相比|対比/iu;

/** Questions that ask for an explanation: no figure answers them. */
const EXPLAINS = /\b(?:why|drove|drive[sn]?|drivers?|explain|reasons?)\b|なぜ|理由|要因|为什么|為什麼|原因/iu;

/** Questions that ask for a judgment or an explanation, not a figure (what drove, is it improving). */
const JUDGES = new RegExp(
  `${EXPLAINS.source}|\\b(?:improv\\w*|trend\\w*|profile|healthy|health|outlook|roughly|risks?|should|would)\\b|^\\s*(?:does|do|did|is|are|was|were|has|have|can|could)\\b|改善|是否`,
  'iu',
);
/** Questions that ask for a figure. */
const ASKS = /\b(?:what(?:'s| is| was| were| are)?|how much|how many|calculate|compute)\b|いくら|何|多少|几|幾/iu;

/**
 * Reads a question as a report figure: the first lexicon line item or measure its asked part
 * names, with the years it names. Undefined when it asks for no figure, names no line item or
 * no year, or asks for a judgment.
 */
export function planReportFigure(question: string): ReportFigurePlan | undefined {
  const asked = askedPart(question);
  const words = FIGURE_WORDS[lexiconFor(question).lang];
  // "Does AMEX have an improving operating margin profile as of FY2022?": its figures say
  // "How does its effective tax rate in FY2022 compare to FY2021?": the measure in each year, side by side
  const namedYears = yearsNamed(asked).sort((a, b) => a - b);
  const compares = COMPARES.test(asked) && namedYears.length >= 2;
  const trend = (words.trend.test(asked) || compares) && !EXPLAINS.test(asked);
  // "Is the liquidity profile healthy based on its quick ratio for FY2022?": the measure it names, for
  // that year, is what the judgment rests on — stated, the judgment left to the reader
  const judged = !trend && JUDGES.test(asked) && !EXPLAINS.test(asked);
  if (!trend && !judged && !ASKS.test(asked)) return undefined;
  if (namedYears.length === 0) return undefined;
  const latest = namedYears.at(-1) as number;
  // a trend "as of FY2022" reads the named year and the two before it, as a 10-K shows them
  const years = trend ? (namedYears.length > 1 ? range(namedYears) : [latest - 2, latest - 1, latest]) : namedYears;
  const named = financeGroupsIn(asked);
  const first = named.find((g) => MEASURE_FORMULAS[g.group]) ?? named[0];
  if (!first || (judged && !MEASURE_FORMULAS[first.group])) return undefined;
  // the question's own formula: a figure it names as an expression of line items ("EBITDA less capex"),
  // else the definition it gives of its measure, else the lexicon's
  const expression = askedExpression(asked, question);
  const formula = expression ?? definedFormula(question, first.group);
  // a question that names other line items than its figure's operands asks something else
  const operands = new Set(measureItems(formula ?? first.group).map((i) => i.id));
  const reads = (g: string): boolean => g === first.group || operands.has(g) || (formula?.includes(g) ?? false);
  if (named.some((g) => !reads(g.group))) return undefined;
  const op = planFigure(asked)?.op;
  const over = trend ? 'trend' : op === 'change' || op === 'pctChange' || op === 'average' ? op : 'value';
  if (over === 'value' && years.length > 1) return undefined;
  if (judged && over !== 'value') return undefined;
  if (over !== 'value' && years.length < 2) return undefined;
  const measured = MEASURE_FORMULAS[first.group] !== undefined || formula !== undefined;
  const computed = over !== 'value' || measured;
  const stated = MEASURE_FORMULAS[first.group] !== undefined && formula === undefined && !DEFINES.test(question);
  return {
    measure: first.group,
    name: expression ? expressionName(asked, first.name) : first.name,
    op: over,
    years,
    words,
    computed,
    asked: askedForm(question),
    stated,
    ...(formula ? { formula } : {}),
    ...(trend && words.judges.test(asked) ? { judges: true } : {}),
  };
}

/** The words a question names an expression by ("unadjusted EBITDA less capex"), from its measure's name on. */
function expressionName(asked: string, name: string): string {
  const at = asked.toLowerCase().indexOf(name.toLowerCase());
  const rest = at < 0 ? name : asked.slice(at).split(/\s+(?:for|of|in|at)\s+|[?.,]/u)[0];
  return (rest ?? name).trim();
}

/** The line items (and their years) a plan reads: the measure's items for each year, averaged ones for the year before too. */
export function reportItems(plan: ReportFigurePlan): { item: string; year: number }[] {
  const own = { id: plan.measure, avg: false, abs: false };
  const formula = plan.formula ?? (MEASURE_FORMULAS[plan.measure] ? plan.measure : undefined);
  const items = formula ? measureItems(formula) : [own];
  const years = plan.op === 'average' ? range(plan.years) : plan.years;
  // a measure the report may state: its own row is looked for first
  return (plan.stated ? [own, ...items] : items).flatMap((i) =>
    years.flatMap((y) => (i.avg ? [y, y - 1] : [y]).map((year) => ({ item: i.id, year }))),
  );
}

const range = (ys: number[]): number[] => {
  const [a, b] = [ys[0] as number, ys.at(-1) as number];
  return Array.from({ length: b - a + 1 }, (_, i) => a + i);
};

/** The formula a plan computes: the question's, else the lexicon measure's; undefined for a line item. */
const formulaOf = (plan: ReportFigurePlan): string | undefined => plan.formula ?? MEASURE_FORMULAS[plan.measure]?.formula;

/**
 * The scale and unit a figure is stated in: an amount (a line item, or a sum and difference of them:
 * EBITDA, free cash flow) in its first cell's; a percentage or a ratio in none.
 */
function unitOf(
  plan: ReportFigurePlan,
  cells: LocatedCell[],
  percent: boolean,
  scaleOf: (cell: LocatedCell) => { scale: number; unit?: string },
): { scale: number; unit?: string } {
  const formula = formulaOf(plan);
  const first = cells[0];
  return first && !percent && (formula === undefined || amountFormula(formula)) ? scaleOf(first) : { scale: 1 };
}

/** The measure for a year: the report's own figure where it states one, else its formula over line items. */
function measureFor(plan: ReportFigurePlan, year: number, find: CellFinder): Evaluated | NotEvaluated {
  const own = plan.stated ? find(plan.measure, year) : undefined;
  return own
    ? { number: own.amount.number, expression: own.amount.written, cells: [own] }
    : evaluateMeasure(plan.formula ?? plan.measure, year, find);
}

/**
 * A trend: the measure for each year the report shows of those planned (two at least, the last
 * among them), and its direction — improving or not where the question asks so — every operand cited.
 */
function trendOf(
  plan: ReportFigurePlan,
  find: CellFinder,
  scaleOf: (cell: LocatedCell) => { scale: number; unit?: string },
): ReportFigure | { missing: string; year?: number; currency?: string } {
  const each: { year: number; e: Evaluated }[] = [];
  let missing: NotEvaluated | undefined;
  for (const year of plan.years) {
    const r = measureFor(plan, year, find);
    if ('number' in r) each.push({ year, e: r });
    else missing ??= r;
  }
  const last = plan.years.at(-1);
  if (each.length < 2 || each.at(-1)?.year !== last) {
    const m = missing ?? { missing: plan.name };
    return m.year === undefined ? { missing: m.missing } : { missing: m.missing, year: m.year };
  }
  const cells = [...new Set(each.flatMap((x) => x.e.cells))];
  const percent = MEASURE_FORMULAS[plan.measure]?.percent === true;
  const { scale, unit } = unitOf(plan, cells, percent, scaleOf);
  // asked in another currency ("in USD millions" of a report in yen): no rate converts it
  const other = percent || formulaOf(plan) !== undefined ? undefined : otherCurrency(plan.asked, unit);
  if (other) return { missing: plan.name, currency: other };
  const said = each.map((x) => ({
    ...x,
    figure: stateFigure(rounded(x.e.number), { scale, percent, unit }, plan.asked, plan.words),
  }));
  const series = said.map((x) => `${x.figure.text} (${x.year})`).join(' → ');
  const [from, to] = [said[0]?.figure.value.number ?? 0, said.at(-1)?.figure.value.number ?? 0];
  const up = to > from;
  const w = plan.words.say;
  // "improving" where the question asks it: up for a margin, down for days to collect
  const better = up !== LOWER_IS_BETTER.has(plan.measure);
  const direction = to === from ? w.flat : plan.judges ? (better ? w.better : w.worse) : up ? w.up : w.down;
  const marks = cells.map((_, i) => `[${i + 1}]`).join('');
  return {
    text: `${fill(w.trend, { direction, item: plan.name, series })} ${marks}`,
    cells,
    value: said.at(-1)?.figure.value ?? { number: to },
    calculation: { expression: each.map((x) => x.e.expression).join(' → '), operands: operandsOf(cells) },
  };
}

/** A report figure answered: the line, the operand cells in citation order, value and calculation. */
export interface ReportFigure {
  text: string;
  cells: LocatedCell[];
  value: FigureValue;
  calculation: Calculation;
}

/**
 * Computes a planned report figure with each line item read by `find`, the unit and scale of
 * each cell read by `scaleOf`. Returns the missing line item's name when one is not found.
 */
export function answerReportFigure(
  plan: ReportFigurePlan,
  find: CellFinder,
  scaleOf: (cell: LocatedCell) => { scale: number; unit?: string },
): ReportFigure | { missing: string; year?: number } {
  if (plan.op === 'trend') return trendOf(plan, find, scaleOf);
  const years =
    plan.op === 'average'
      ? range(plan.years)
      : plan.op === 'value'
        ? plan.years
        : [plan.years[0] as number, plan.years.at(-1) as number];
  const each: Evaluated[] = [];
  for (const y of years) {
    const r = measureFor(plan, y, find);
    if (!('number' in r)) return r.year === undefined ? { missing: r.missing } : { missing: r.missing, year: r.year };
    each.push(r);
  }
  const cells = [...new Set(each.flatMap((e) => e.cells))];
  const mark = (c: LocatedCell): string => `[${cells.indexOf(c) + 1}]`;
  const percentMeasure = MEASURE_FORMULAS[plan.measure]?.percent === true;
  const [a, b] = [each[0] as Evaluated, each.at(-1) as Evaluated];
  let number: number;
  let expression: string;
  if (plan.op === 'value') [number, expression] = [a.number, a.expression];
  else if (plan.op === 'change') [number, expression] = [b.number - a.number, `(${b.expression}) − (${a.expression})`];
  else if (plan.op === 'pctChange') {
    if (a.number === 0) return { missing: 'division by zero' };
    [number, expression] = [
      ((b.number - a.number) / a.number) * 100,
      `((${b.expression}) − (${a.expression})) ÷ (${a.expression}) × 100`,
    ];
  } else
    [number, expression] = [
      each.reduce((s, e) => s + e.number, 0) / each.length,
      `(${each.map((e) => e.expression).join(' + ')}) ÷ ${each.length}`,
    ];
  const percent = plan.op === 'pctChange' || percentMeasure;
  const plain = !percent && formulaOf(plan) === undefined;
  const { scale, unit } = unitOf(plan, cells, percent, scaleOf);
  // a line item looked up: its size, as a statement writes an outflow in brackets
  const shown = plan.op === 'value' && plain ? Math.abs(number) : number;
  const stated = stateFigure(rounded(shown), { scale, percent, unit }, plan.asked, plan.words);
  // a change of a rate is in percentage points ("−3 percentage points"), not a rate of change
  const figure =
    plan.op === 'change' && percentMeasure ? fill(plan.words.say.points, { n: written(stated.value.number) }) : stated.text;
  const { value } = stated;
  // one cell looked up is named as its row is; a computed figure by the measure the question names
  const only = cells.length === 1 ? cells[0] : undefined;
  const item = plan.op === 'value' && only ? only.label : plan.name;
  const what = fill(plan.words.say[plan.op === 'value' ? 'value' : plan.op], {
    item,
    from: String(years[0]),
    to: String(years.at(-1)),
    periods: years.join(plan.words.say.joiner),
  });
  const marks = cells.map(mark).join('');
  const calc = plan.op === 'value' && cells.length === 1 ? undefined : expression;
  return {
    text: figureLine(plan.words, figure, what, calc, marks),
    cells,
    value,
    calculation: { expression, operands: operandsOf(cells) },
  };
}
