import { endMonth, fiscalYearOf, type Period, quarterEnd } from './period-types.js';

/**
 * Does a document covering period `doc` answer a question about period `question`? A score:
 *   1     the same period (FY2022 ↔ "year ended December 31, 2022" ↔ fiscal 2022 ↔ a FY2022 10-K;
 *         2023年3月期 ↔ 2022年度 of a company whose year ends in March)
 *   0.8   a year-to-date period ending with the asked quarter (nine months ended … for Q3)
 *   0.6   a fourth quarter or second half for a year question (Q4 releases carry the full year),
 *         a half holding the asked quarter
 *   0.5   the document's next period, which carries this one as comparatives (a FY2023 10-K
 *         for FY2022; the same quarter a year later); a quarter question with no year
 *   0.3   part of the asked year, or the year holding the asked quarter
 *   0.25  two years later (income statements show three years)
 *   0     otherwise (an earlier document never answers a later period).
 * A weak side (a bare "2022") multiplies by 0.9, so the explicit label is preferred.
 * When only one side knows its fiscal year's end month, the other side is read with it (the
 * document tells the company's calendar); when neither does, years are taken to end in December.
 */
export const PERIOD_SCORES = Object.freeze({
  same: 1,
  yearToDate: 0.8,
  closingPart: 0.6,
  comparative: 0.5,
  noYear: 0.5,
  part: 0.3,
  twoYearsLater: 0.25,
  weak: 0.9,
});

type Grain = 'year' | 'half' | 'quarter' | 'ytd' | 'date' | 'term';

function grainOf(p: Period): Grain {
  if (p.kind === 'fiscal-year' || p.kind === 'calendar-year') return 'year';
  if (p.kind === 'quarter' || p.kind === 'half' || p.kind === 'date' || p.kind === 'term') return p.kind;
  return p.months === 12 ? 'year' : p.months === 3 ? 'quarter' : p.months === 6 ? 'half' : 'ytd';
}

/** The quarter (1–4) a period ends with, when known. */
function closingQuarter(p: Period): number | undefined {
  if (p.quarter !== undefined) return p.quarter;
  if (p.half !== undefined) return p.half * 2;
  return undefined;
}

/** Month (1–12) in which the period's fiscal year ends, when the period tells it. */
function fiscalYearEndMonth(p: Period): number | undefined {
  if (p.end === undefined) return undefined;
  const { month } = endMonth(p.end);
  if (grainOf(p) === 'year') return month;
  const q = closingQuarter(p);
  if (q === undefined || p.kind === 'date') return undefined;
  return ((month - 1 + 3 * (4 - q)) % 12) + 1;
}

/** The period's fiscal year in the 'end' convention, reading with `fyEnd` when its own end month is unknown. */
function fiscalYearEnding(p: Period, fyEnd: number | undefined): number | undefined {
  if (p.end !== undefined && (grainOf(p) === 'year' || p.fiscal_year === undefined)) {
    const { year, month } = endMonth(p.end);
    if (grainOf(p) === 'year') return fiscalYearOf(p.end, 'end');
    return fyEnd === undefined || month <= fyEnd ? year : year + 1;
  }
  if (p.fiscal_year === undefined) return undefined;
  if (p.year_label !== 'start') return p.fiscal_year;
  const month = fiscalYearEndMonth(p) ?? fyEnd;
  return month === undefined || month === 12 ? p.fiscal_year : p.fiscal_year + 1;
}

/** A period read in the 'end' convention, with its closing quarter and end month filled in where they follow. */
interface Resolved {
  grain: Grain;
  term?: number;
  /** Fiscal year, 'end' convention. */
  fy?: number;
  /** The quarter of its fiscal year the period ends with (4 for a year). */
  quarter?: number;
  /** 'YYYY-MM' of its last month. */
  end?: string;
}

function resolve(p: Period, fyEnd: number | undefined): Resolved {
  const grain = grainOf(p);
  const r: Resolved = { grain };
  if (p.term !== undefined) r.term = p.term;
  const fy = fiscalYearEnding(p, fyEnd);
  if (fy !== undefined) r.fy = fy;
  const yearEnd = fyEnd ?? 12;
  let quarter = grain === 'year' ? 4 : closingQuarter(p);
  if (quarter === undefined && p.end !== undefined && grain !== 'date') {
    const back = (yearEnd - endMonth(p.end).month + 12) % 12;
    if (back % 3 === 0) quarter = 4 - back / 3;
  }
  if (quarter !== undefined) r.quarter = quarter;
  const end = p.end?.slice(0, 7) ?? (fy !== undefined && quarter !== undefined ? quarterEnd(fy, yearEnd, quarter) : undefined);
  if (end !== undefined) r.end = end;
  return r;
}

export function periodsMatch(question: Period, doc: Period): number {
  const fyEnd = fiscalYearEndMonth(doc) ?? fiscalYearEndMonth(question);
  const score = rawMatch(resolve(question, fyEnd), resolve(doc, fyEnd));
  return question.weak || doc.weak ? score * PERIOD_SCORES.weak : score;
}

function rawMatch(q: Resolved, d: Resolved): number {
  if (q.grain === 'term' || d.grain === 'term') return q.grain === d.grain && q.term === d.term ? PERIOD_SCORES.same : 0;
  if (q.fy === undefined || d.fy === undefined) {
    // Periods without a year agree when they are the same kind of part (第3四半期 ↔ Q3, 通期 ↔ a year).
    return q.grain === d.grain && q.grain !== 'date' && q.quarter === d.quarter ? PERIOD_SCORES.noYear : 0;
  }
  const gap = d.fy - q.fy;
  if (gap === 0) return sameYear(q, d);
  if (gap === 1 && q.grain === d.grain && q.grain !== 'date' && q.quarter === d.quarter) return PERIOD_SCORES.comparative;
  // A balance-sheet date at the end of the year before: the later report's comparative column.
  if (gap === 1 && q.grain === 'date' && d.grain === 'year' && q.end?.slice(5) === d.end?.slice(5))
    return PERIOD_SCORES.comparative;
  if (gap === 2 && q.grain === 'year' && d.grain === 'year') return PERIOD_SCORES.twoYearsLater;
  return 0;
}

function sameYear(q: Resolved, d: Resolved): number {
  if (q.grain === 'date' || d.grain === 'date') {
    if (q.end !== undefined && q.end === d.end) return PERIOD_SCORES.same;
    return q.grain === d.grain ? 0 : PERIOD_SCORES.part;
  }
  if (q.grain === d.grain) return q.quarter === d.quarter ? PERIOD_SCORES.same : 0;
  if (q.grain === 'year') return d.quarter === 4 ? PERIOD_SCORES.closingPart : PERIOD_SCORES.part;
  if (d.grain === 'year') return PERIOD_SCORES.part;
  if (q.quarter === undefined || d.quarter === undefined) return 0;
  if (q.grain === 'quarter' && d.grain === 'half')
    return d.quarter - 2 < q.quarter && q.quarter <= d.quarter ? PERIOD_SCORES.closingPart : 0;
  if (q.grain === 'quarter' && d.grain === 'ytd') return q.quarter === d.quarter ? PERIOD_SCORES.yearToDate : 0;
  return 0;
}

/**
 * The best score of any of a document's periods for any of a question's periods: a question may
 * name several (FY2021 and FY2022), a document holds its own and its comparatives. 0 when either
 * list is empty.
 */
export function bestPeriodMatch(question: readonly Period[], doc: readonly Period[]): number {
  let best = 0;
  for (const q of question) for (const d of doc) best = Math.max(best, periodsMatch(q, d));
  return best;
}
