import { findPeriods } from '@pinpoint/analysis';
import { lexiconFor } from '../table/lexicon/index.js';
import { termsOf } from '../table/model.js';
import { periodYear } from '../table/period-columns.js';
import type { AskedForm } from './asked.js';
import { askedForm } from './asked.js';
import { dayMonths } from './locate.js';
import type { FigureWords } from './words.js';
import { FIGURE_WORDS } from './words.js';

/** What a figure question asks to be done with the cells it names. */
export type FigureOp = 'value' | 'change' | 'pctChange' | 'average' | 'sum' | 'ratio' | 'share';

/**
 * A figure question read: its operation, the line items it names (one; two for a ratio or a share,
 * the part first), the years it names, in the order it names them, and how it wants the answer
 * (as a percentage or a fraction).
 */
export interface FigurePlan {
  op: FigureOp;
  /** The text naming each operand's line item (the question without its periods, for one item). */
  items: string[];
  years: number[];
  /** The answer is a percentage (a % change, a share asked in percent). */
  percent: boolean;
  words: FigureWords;
  /** The scale and rounding the question asks the figure in. */
  asked: AskedForm;
  /** The question asks a percentage ("the average percentage of net revenues"), though its operation may not be one. */
  percentAsked: boolean;
  /** Items named together ("from Apple and Huawei in 2017"): the one item they would be as a whole ("Cash and cash equivalents" is one row). */
  whole?: string;
  /** The quarters of the year the question names ("between the third quarter and fourth quarter": 3, 4), in order; empty for each quarter ("quarterly"). */
  quarters?: number[];
  /** The span of years from now the amounts asked fall due in ("due within 5 years": 0 to 5; "after 5 years": 5 on): columns of maturities. */
  maturity?: { from: number; to: number };
  /** The one day of a month each period the question names ends on ("from 1 January 2018 to 1 January 2019": "1-1"): a balance's dated row. */
  day?: string;
}

/** Two line items named together in each language ("A and B", 「AとB」, 「A和B」). */
export const TOGETHER =
  /\s+and\s+|(?<=\p{Script=Han}|\p{Script=Katakana})(?:と|和|与|與|及)(?=\p{Script=Han}|\p{Script=Katakana})/u;

/** A quoted name: 「…」, 『…』, “…”, "…". */
const QUOTED = /「[^」]*」|『[^』]*』|“[^”]*”|"[^"]*"/gu;

/** A run of years: "2017-2019", "2017 – 2019", "2017年～2019年", "2017至2019年". */
const YEAR_RUN =
  /\b((?:19|20)\d{2})\s*(?:年度?)?\s*(?:-|–|—|~|～|〜|至|到|から)\s*(?:fy\s*|fiscal\s+)?((?:19|20)\d{2})(?:\s*年度?)?(?!\d)/giu;

/**
 * The years a text names: a period by the year it ends in, else its year as labelled (FY2018,
 * 2019年度); a run of years ("2017-2019") is every year of it.
 */
export function yearsNamed(text: string): number[] {
  const years: number[] = [];
  const add = (y: number | undefined): void => {
    if (y !== undefined && y >= 1900 && y < 2100 && !years.includes(y)) years.push(y);
  };
  const runs = [...text.normalize('NFKC').matchAll(YEAR_RUN)];
  for (const m of runs) {
    const [from, to] = [Number(m[1]), Number(m[2])];
    if (to > from && to - from <= 10) for (let y = from; y <= to; y++) add(y);
  }
  for (const p of findPeriods(text)) {
    if (p.quarter !== undefined || p.half !== undefined) continue;
    add(periodYear(p));
  }
  return years;
}

/** The question without the text of its periods ("from 2017 to 2018", "FY2019", "2017-2019"). */
function withoutPeriods(text: string): string {
  let out = text.replace(YEAR_RUN, ' ');
  for (const p of findPeriods(out).sort((a, b) => b.span[0] - a.span[0])) {
    const cps = Array.from(out);
    out = [...cps.slice(0, p.span[0]), ' ', ...cps.slice(p.span[1])].join('');
  }
  return out;
}

/**
 * Reads a question as a figure question, or undefined when it asks no arithmetic of the cells it
 * names (a lookup is read by the table reader, and phrased as a figure afterwards).
 */
export function planFigure(question: string): FigurePlan | undefined {
  // one question is planned by the wider search, the table reader and the figure reader in turn: once
  if (lastPlan?.question !== question) lastPlan = { question, plan: readPlan(question) };
  return lastPlan.plan;
}
let lastPlan: { question: string; plan: FigurePlan | undefined } | undefined;

function readPlan(question: string): FigurePlan | undefined {
  const words = FIGURE_WORDS[lexiconFor(question).lang];
  // a name the question quotes (「平均年齢（年）」, "Total change in equity") is a line item, not an operation
  const q = question.normalize('NFKC');
  const asks = q.replace(QUOTED, ' ');
  const named = yearsNamed(question);
  const quarters = named.length <= 1 ? quartersNamed(q, words) : undefined;
  // a quarter that says its year ("Q3 2019", 「2018年の第3四半期」) names the year of the quarters
  const years = quarters && named.length === 0 ? quarterYears(q) : named;
  const maturity = maturityOf(q, words);
  const plain = withoutPeriods(q)
    .replace(words.quarterly, ' ')
    .replace(words.maturity ?? /$^/u, ' ');
  const percent = (op: FigureOp): boolean => op === 'pctChange' || (op === 'share' && !words.fraction.test(asks));
  const asked = askedForm(question);
  const percentAsked = words.percentAsked.test(asks);
  const days = dayMonths(q);
  const plan = (op: FigureOp, items: string[]): FigurePlan => ({
    op,
    items,
    years,
    percent: percent(op),
    words,
    asked,
    percentAsked,
    ...(days.length === 1 && years.length > 0 ? { day: days[0] } : {}),
    ...(quarters ? { quarters } : {}),
    ...(maturity ? { maturity } : {}),
  });
  if (words.pctChange.test(asks)) return plan('pctChange', [plain]);
  // "the average proportion of A as a percentage of B": an average of a row of shares the table shows
  // an average of one period is that period's figure: the question asks a lookup
  // the average (or total) of two line items in one period: "of Apple and Huawei in 2017"
  const together = (op: FigureOp): FigurePlan | undefined => {
    const item = itemText(plan(op, [plain]));
    // "percentage of revenue from Apple and Huawei": what they share is said before the first
    const parts = item.split(TOGETHER).map((p, i) => (i === 0 ? (p.split(/\s(?:from|of|for|by|at)\s/u).at(-1) ?? p) : p).trim());
    return parts.length === 2 && parts.every((p) => termsOf(p).size > 0) ? { ...plan(op, parts), whole: item } : undefined;
  };
  if (words.average.test(asks)) return years.length === 1 && !quarters ? together('average') : plan('average', [plain]);
  for (const re of words.ratio) {
    const m = re.exec(plain);
    if (!m?.groups?.a || !m.groups.b) continue;
    const [a, b] = [m.groups.a, m.groups.b];
    // "the ratio of X in fiscal 2019 to fiscal 2018": one line item, a period over another
    const bare = (item: string): boolean => termsOf(itemText(plan('ratio', [item]), item)).size === 0;
    if (years.length === 2 && (bare(a) || bare(b))) return plan('ratio', [bare(a) ? b : a]);
    return plan('ratio', [a, b]);
  }
  for (const re of words.share) {
    const m = re.exec(plain);
    if (m?.groups?.a && m.groups.b) return plan('share', [m.groups.a, m.groups.b]);
  }
  // the amounts due within a span: the sum of the maturity columns that make it up (a share of them is not computed)
  if (maturity && years.length === 0 && !percentAsked) return plan('sum', [plain]);
  if (words.change.test(asks)) return plan('change', [plain]);
  if ((words.sum.test(asks) && years.length !== 1) || (years.length >= 2 && words.totalOf.test(asks)))
    return plan('sum', [plain]);
  if (quarters && (words.sum.test(asks) || words.totalOf.test(asks))) return plan('sum', [plain]);
  if (years.length === 1 && (words.sum.test(asks) || words.totalOf.test(asks))) return together('sum');
  return undefined;
}

/**
 * The quarters a question names ("the third quarter", "Q4", 第3四半期, 第三季度) in its order, or none
 * (every quarter of the year) where it asks over each quarter ("quarterly"); undefined when it names
 * no quarter. A quarter named by its end ("the quarter ended March 31") is a date, not read here.
 */
function quartersNamed(text: string, words: FigureWords): number[] | undefined {
  const named: number[] = [];
  for (const p of findPeriods(text)) if (p.quarter !== undefined && !named.includes(p.quarter)) named.push(p.quarter);
  if (named.length > 0) return named;
  return words.quarterly.test(text) ? [] : undefined;
}

/** The one year the quarters a text names are of ("Q3 2019 and Q4 2019"); none when they say none or several. */
function quarterYears(text: string): number[] {
  const years = new Set(
    findPeriods(text)
      .filter((p) => p.quarter !== undefined)
      .map(periodYear)
      .filter((y) => y !== undefined),
  );
  return years.size === 1 ? [...years] : [];
}

const NUMBER_WORDS: Record<string, number> = { one: 1, two: 2, three: 3, four: 4, five: 5, ten: 10 };

/** The span of years a question asks amounts due in ("within 5 years": 0–5, "after 5 years": 5 on). */
function maturityOf(text: string, words: FigureWords): { from: number; to: number } | undefined {
  const m = words.maturity?.exec(text);
  const said = m?.groups?.n ?? m?.groups?.m;
  if (!said) return undefined;
  const n = NUMBER_WORDS[said.toLowerCase()] ?? Number(said);
  if (!(n > 0)) return undefined;
  return m?.groups?.after ? { from: n, to: Number.POSITIVE_INFINITY } : { from: 0, to: n };
}

const PARTICLES =
  /(?<=^|\s)(?:から|まで|にかけて|より|へ)[のへ]*|(?<=^|\s)[のはとにでをがも和与與及的]+(?=\s|$)|(?<=\S)[のはとにでをがも的]+(?=\s|$)|(?<=^|\s)[和与與及]+(?=\S)/gu;

/** The line item a plan names, as the question writes it: without question form, operation and periods ("Net cash provided by operating activities"). */
export function itemText(plan: FigurePlan, item = plan.items.join(plan.words.say.joiner)): string {
  let text = item;
  for (const re of plan.words.form) text = text.replace(re, ' ');
  for (const re of plan.words.form) text = text.replace(re, ' ');
  // particles a removed period or operation leaves standing alone (「のれんの の」, 「和 净利润的」)
  text = text.replace(PARTICLES, ' ').replace(PARTICLES, ' ');
  return text.replace(/\s+/g, ' ').trim() || item.trim();
}
