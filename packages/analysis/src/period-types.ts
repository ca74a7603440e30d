/**
 * Normalised periods: what a document covers or a question asks about.
 *
 * The year rule: `fiscal_year` is the year as the text labels it, and `year_label` says which
 * convention the label follows.
 * - `'end'`: the label is the calendar year in which the fiscal year ENDS. This is the SEC/US
 *   usage (Microsoft's FY2023 ends 2023-06-30), the Japanese 「2023年3月期」 (the year ending March
 *   2023) and Chinese 「2022财年」.
 * - `'start'`: the label is the year in which the fiscal year BEGINS: Japanese and Chinese 「年度」.
 *   「2022年度」 of a company whose year ends in March runs April 2022 – March 2023; of a company
 *   whose year ends in December it is the calendar year 2022.
 * `fiscalYearOf(end, label)` gives the label of the fiscal year ending at `end` in either
 * convention; `periodsMatch` compares periods of different conventions through it.
 */
export type PeriodKind = 'fiscal-year' | 'calendar-year' | 'quarter' | 'half' | 'months-ended' | 'date' | 'term';

export interface Period {
  kind: PeriodKind;
  /** The year as labelled (see `year_label`). */
  fiscal_year?: number;
  /** Which year the label names: the year the fiscal year ends in, or the one it starts in (年度). */
  year_label?: 'end' | 'start';
  quarter?: 1 | 2 | 3 | 4;
  half?: 1 | 2;
  /** Length in months, when the text says it (nine months ended …, 12 for a year). */
  months?: number;
  /** The last day ('YYYY-MM-DD') or month ('YYYY-MM') of the period; for a date, the date. */
  end?: string;
  /** A numbered business term (第125期): the term number, not a year. */
  term?: number;
  /** A bare number that only looks like a year (2022 alone): a hint, not a statement. */
  weak?: boolean;
}

export interface PeriodMention extends Period {
  /** Half-open codepoint range in the input as given (before NFKC). */
  span: [number, number];
  /** The input's text of the span. */
  text: string;
}

/** Calendar year in which era year `n` of a Japanese era falls (令和1 = 2019, 平成1 = 1989, 昭和1 = 1926). */
const ERA_START: Readonly<Record<string, number>> = {
  令和: 2019,
  R: 2019,
  平成: 1989,
  H: 1989,
  昭和: 1926,
  S: 1926,
  大正: 1912,
  T: 1912,
};

export function eraYear(era: string, n: number): number | undefined {
  const start = ERA_START[era];
  return start === undefined ? undefined : start + n - 1;
}

/** Minguo (Republic of China) year → Gregorian: 民國111年 = 2022. */
export const ROC_OFFSET = 1911;

function pad2(n: number): string {
  return n < 10 ? `0${n}` : String(n);
}

/** 'YYYY-MM' or 'YYYY-MM-DD' when the day is known. */
export function formatEnd(year: number, month: number, day?: number): string {
  return day === undefined ? `${year}-${pad2(month)}` : `${year}-${pad2(month)}-${pad2(day)}`;
}

/** Year and month of an `end`, with 52/53-week years ending in the first days of January counted as December. */
export function endMonth(end: string): { year: number; month: number } {
  const year = Number(end.slice(0, 4));
  const month = Number(end.slice(5, 7));
  const day = end.length >= 10 ? Number(end.slice(8, 10)) : undefined;
  if (month === 1 && day !== undefined && day <= 7) return { year: year - 1, month: 12 };
  return { year, month };
}

/**
 * The label of the fiscal year that ends at `end`: in the `'end'` convention the year it ends
 * in; in the `'start'` convention (年度) the year it starts in — the same year when it ends in
 * December, the year before otherwise. A year ending 2023-01-01 (a 52/53-week year) counts as
 * ending in December 2022.
 */
export function fiscalYearOf(end: string, label: 'end' | 'start'): number {
  const { year, month } = endMonth(end);
  if (label === 'end' || month === 12) return year;
  return year - 1;
}

/** End month ('YYYY-MM') of quarter `q` of a fiscal year labelled `fy` ('end') that ends in month `fyEndMonth`. */
export function quarterEnd(fy: number, fyEndMonth: number, q: number): string {
  const total = fy * 12 + (fyEndMonth - 1) - 3 * (4 - q);
  return formatEnd(Math.floor(total / 12), (total % 12) + 1);
}

/** A period found in the NFKC text, with its UTF-16 range there (mapped back to the source by the caller). */
export interface FoundPeriod {
  period: Period;
  start: number;
  end: number;
}

/** One form of period expression: a global regex (flags `giud`) and what a match means. */
export interface PeriodPattern {
  /** A cheap test every match needs; texts failing it skip `re` (most texts hold no period). */
  gate: RegExp;
  re: RegExp;
  build(m: RegExpExecArray): FoundPeriod[];
}

/** A two-digit year: 70–99 → 19xx, else 20xx. */
export function fullYear(digits: string): number {
  const n = Number(digits);
  if (digits.length !== 2) return n;
  return n >= 70 ? 1900 + n : 2000 + n;
}

/** The whole match as one period. */
export function whole(m: RegExpExecArray, period: Period): FoundPeriod[] {
  return [{ period, start: m.index, end: m.index + m[0].length }];
}
