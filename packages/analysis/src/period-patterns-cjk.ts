import { hanDigit, parseHanNumeral } from './han-numerals.js';
import {
  eraYear,
  fiscalYearOf,
  formatEnd,
  type Period,
  type PeriodPattern,
  quarterEnd,
  ROC_OFFSET,
  whole,
} from './period-types.js';
import { hasKana } from './scripts.js';

/** Japanese and Chinese (Simplified and Traditional) period expressions, on NFKC text. */

const HAN_DIGITS = '〇零一二三四五六七八九';
/** A year: 2022, 二〇二二, 令和4 / 令和元 / R4 / H30, 民國111 / 民国一一一. */
const YEAR = `(?:(令和|平成|昭和|大正|(?<![A-Za-z])[RHST])\\s*(\\d{1,2}|元|[${HAN_DIGITS}十]{1,3})|(?:中華|中华)?(民國|民国)\\s*(\\d{1,3}|[${HAN_DIGITS}十百]{1,5})|(?<![0-9])(\\d{4})|([${HAN_DIGITS}]{4}))`;
const NUM = `(\\d{1,2}|[${HAN_DIGITS}十]{1,3})`;
const Q = `([1-4一二三四])`;
const FISCAL_WORD = '(?:财年|財年|财政年度|財政年度|会计年度|會計年度|财务年度|財務年度)';
/** What follows a year. Groups: 7–8 月期 month, 9–10 date month/day, 11 month, (年末: none), 12 年度, 13 财年, 14 年. */
const AFTER_YEAR = `(?:年\\s*${NUM}\\s*月\\s*期|[/／.]${NUM}\\s*期|年\\s*${NUM}\\s*月\\s*${NUM}\\s*日|年\\s*${NUM}\\s*月(?!\\s*期)|年\\s*年?\\s*(?:末|底)|(年度)|(${FISCAL_WORD})|(年))`;
/** Quarter or half after a year. Groups: 15–17 quarter (第3四半期, 三季度, Q3), 18 half 上/下, 19 半年度/中間期, 20 前三季度, 21 3Q. 上年 (last year) is no half. */
const PART = `(?:\\s*[のの之]?\\s*(?:第\\s*${Q}\\s*(?:四半期|季度|季)|${Q}季度|Q([1-4])|([上下])(?:半(?:年度?|期)|期)|(半年度|中間期|中间期)|(前三季度)|([1-4])Q))?`;

function smallNumber(s: string): number | undefined {
  if (s === '元') return 1;
  const n = /^\d+$/.test(s) ? Number(s) : parseHanNumeral(s);
  return n === null || !Number.isFinite(n) ? undefined : n;
}

function quarterNumber(s: string): 1 | 2 | 3 | 4 {
  return (hanDigit(s) ?? Number(s)) as 1 | 2 | 3 | 4;
}

/** Gregorian year of groups 1–6 of YEAR. */
function gregorianYear(m: RegExpExecArray): number | undefined {
  if (m[1] !== undefined) {
    const n = smallNumber(m[2] as string);
    return n === undefined ? undefined : eraYear(m[1], n);
  }
  if (m[3] !== undefined) {
    const n = smallNumber(m[4] as string);
    return n === undefined ? undefined : n + ROC_OFFSET;
  }
  if (m[5] !== undefined) return Number(m[5]);
  return m[6] === undefined ? undefined : (parseHanNumeral(m[6]) ?? undefined);
}

/** The period the year and what follows it name, before any quarter/half. */
function yearPeriod(m: RegExpExecArray, year: number): Period | null {
  const fyMonth = m[7] ?? m[8];
  if (fyMonth !== undefined) {
    const month = smallNumber(fyMonth);
    if (month === undefined || month < 1 || month > 12) return null;
    return { kind: 'fiscal-year', fiscal_year: year, year_label: 'end', months: 12, end: formatEnd(year, month) };
  }
  if (m[9] !== undefined || m[11] !== undefined) {
    const month = smallNumber((m[9] ?? m[11]) as string);
    const day = m[10] === undefined ? undefined : smallNumber(m[10]);
    if (month === undefined || month < 1 || month > 12 || (day !== undefined && (day < 1 || day > 31))) return null;
    return { kind: 'date', end: formatEnd(year, month, day) };
  }
  if (m[12] !== undefined) return { kind: 'fiscal-year', fiscal_year: year, year_label: 'start' };
  if (m[13] !== undefined) return { kind: 'fiscal-year', fiscal_year: year, year_label: 'end' };
  if (m[14] !== undefined)
    return { kind: 'calendar-year', fiscal_year: year, year_label: 'end', months: 12, end: formatEnd(year, 12) };
  // 2022年末 / 2022年底: the end of the year.
  return { kind: 'date', end: formatEnd(year, 12) };
}

/** A quarter or half (groups 15–20) of the year period `base`, or `base` itself. */
function withPart(m: RegExpExecArray, base: Period): Period | null {
  const q = m[15] ?? m[16] ?? m[17] ?? m[21];
  const half = m[18] ?? (m[19] !== undefined ? '上' : undefined);
  if (q === undefined && half === undefined && m[20] === undefined) return base;
  const { kind: _k, months: _m, end: fyEnd, ...year } = base;
  const endMonth = fyEnd === undefined ? undefined : Number(fyEnd.slice(5, 7));
  const fy = base.year_label === 'start' && endMonth !== undefined ? fiscalYearOf(fyEnd as string, 'end') : base.fiscal_year;
  const partEnd = (quarter: number) =>
    endMonth === undefined || fy === undefined ? {} : { end: quarterEnd(fy, endMonth, quarter) };
  if (q !== undefined) return { kind: 'quarter', ...year, quarter: quarterNumber(q), months: 3, ...partEnd(quarterNumber(q)) };
  if (half !== undefined) {
    const h = half === '上' ? 1 : 2;
    return { kind: 'half', ...year, half: h, months: 6, ...partEnd(h * 2) };
  }
  return { kind: 'months-ended', ...year, months: 9, ...partEnd(3) };
}

const yearExpression: PeriodPattern = {
  gate: /[年期]|财|財|会计|會計/u,
  re: new RegExp(`${YEAR}\\s*${AFTER_YEAR}${PART}`, 'gud'),
  build(m) {
    const year = gregorianYear(m);
    if (year === undefined || year < 1868 || year > 2200) return [];
    const base = yearPeriod(m, year);
    if (base?.kind === 'date') {
      // A date takes no quarter or half: the period ends with the date's own text.
      const last = m[10] !== undefined ? { group: 10, char: '日' } : m[11] !== undefined ? { group: 11, char: '月' } : undefined;
      const at = last && m.indices?.[last.group]?.[1];
      const end = last && at !== undefined ? m.input.indexOf(last.char, at) + 1 : (m.indices?.[14]?.[0] ?? m.index + m[0].length);
      return [{ period: base, start: m.index, end }];
    }
    const period = base && withPart(m, base);
    return period ? whole(m, period) : [];
  },
};

const shortYearTerm: PeriodPattern = {
  // 24年3月期, 24/3期, 24年3月期第2四半期 / 2Q: Japanese IR writes the fiscal year's end with two digits.
  gate: /期/u,
  re: /(?<![0-9/.])(\d{2})\s*(?:年\s*(\d{1,2})\s*月|[/／](\d{1,2}))\s*期(?:\s*[のの]?\s*(?:第\s*([1-4])\s*四半期|([1-4])Q))?/dgu,
  build(m) {
    const year = 2000 + Number(m[1]);
    const month = Number(m[2] ?? m[3]);
    if (month < 1 || month > 12) return [];
    const fy: Period = { kind: 'fiscal-year', fiscal_year: year, year_label: 'end', months: 12, end: formatEnd(year, month) };
    const q = m[4] ?? m[5];
    if (q === undefined) return whole(m, fy);
    return whole(m, {
      kind: 'quarter',
      fiscal_year: year,
      year_label: 'end',
      quarter: Number(q) as 1 | 2 | 3 | 4,
      months: 3,
      end: quarterEnd(year, month, Number(q)),
    });
  },
};

const quarterAlone: PeriodPattern = {
  // 第3四半期, 第三季度, 第3季, 三季度 (no year)
  gate: /季|四半期/u,
  re: new RegExp(`第\\s*${Q}\\s*(?:四半期|季度|季)|${Q}季度`, 'gud'),
  build(m) {
    const q = quarterNumber((m[1] ?? m[2]) as string);
    return whole(m, { kind: 'quarter', quarter: q, months: 3 });
  },
};

/** hasKana of the last input seen: a long document may hold many 上期 and is scanned once. */
let kanaOf: { input: string; kana: boolean } | undefined;
function inputHasKana(input: string): boolean {
  if (kanaOf?.input !== input) kanaOf = { input, kana: hasKana(input) };
  return kanaOf.kana;
}

const halfAlone: PeriodPattern = {
  // 上期 下期 上半期 下半期 中間期 上半年 下半年 半年度. Not 上年度 (last year) nor the Chinese
  // statement columns 上期金额 / 上期末 (the prior period).
  gate: /[上下中半]/u,
  re: /([上下])(?:半期|期|半年度?)(?![間间金末数數发發余餘])|(中間期|中间期|半年度)/gu,
  build(m) {
    // 上期/下期 are halves in Japanese; in Chinese 上期 is the prior period (上期的利息支出).
    if (m[1] !== undefined && m[0].length === 2 && !inputHasKana(m.input)) return [];
    return whole(m, { kind: 'half', half: m[1] === '下' ? 2 : 1, months: 6 });
  },
};

const fullYearAlone: PeriodPattern = {
  // 通期 (the whole fiscal year, as against a quarter), 全年度
  gate: /通期|全年度/u,
  re: /通期|全年度/gu,
  build(m) {
    return whole(m, { kind: 'fiscal-year', months: 12 });
  },
};

const businessTerm: PeriodPattern = {
  // 第125期: the company's 125th business term — a term number, not a year.
  gate: /第/u,
  re: new RegExp(`第\\s*(\\d{1,3}|[${HAN_DIGITS}十百]{1,5})\\s*期(?!間)`, 'gud'),
  build(m) {
    const n = smallNumber(m[1] as string);
    return n === undefined || n < 1 ? [] : whole(m, { kind: 'term', term: n });
  },
};

const DATE_J = `${YEAR}\\s*年\\s*${NUM}\\s*月\\s*${NUM}\\s*日`;
const range: PeriodPattern = {
  // 自 2022年4月1日 至 2023年3月31日 / 2022年4月1日から2023年3月31日まで / 2022年1月1日至2022年12月31日
  gate: /日\s*(?:至|から|[~～\-－—])/u,
  re: new RegExp(`(?:自\\s*)?${DATE_J}\\s*(?:至|から|~|～|-|－|—)\\s*${DATE_J}`, 'gud'),
  build(m) {
    const from = gregorianYear(m);
    const to = gregorianYear(shift(m, 8));
    const fromMonth = smallNumber(m[7] as string);
    const toMonth = smallNumber(m[15] as string);
    const toDay = smallNumber(m[16] as string);
    if (from === undefined || to === undefined || fromMonth === undefined || toMonth === undefined) return [];
    const months = (to - from) * 12 + toMonth - fromMonth + 1;
    if (months < 1 || months > 24) return [];
    const end = formatEnd(to, toMonth, toDay);
    if (months === 12)
      return whole(m, { kind: 'fiscal-year', fiscal_year: fiscalYearOf(end, 'end'), year_label: 'end', months, end });
    return whole(m, { kind: months === 3 ? 'quarter' : months === 6 ? 'half' : 'months-ended', months, end });
  },
};

/** A view of `m` whose groups 1.. are `m`'s groups `by+1`.. (the second date of a range). */
function shift(m: RegExpExecArray, by: number): RegExpExecArray {
  const out = [m[0], ...m.slice(by + 1)] as unknown as RegExpExecArray;
  return out;
}

const endedZh: PeriodPattern = {
  // 截至2022年12月31日止年度 / 截至2022年6月30日止六个月 / 截至2022年9月30日止九個月
  gate: /截至/u,
  re: new RegExp(`截至\\s*${DATE_J}\\s*止?\\s*(?:(年度)|(${NUM})\\s*[个個]?月)`, 'gud'),
  build(m) {
    const year = gregorianYear(m);
    const month = smallNumber(m[7] as string);
    const day = smallNumber(m[8] as string);
    if (year === undefined || month === undefined) return [];
    const end = formatEnd(year, month, day);
    if (m[9] !== undefined)
      return whole(m, { kind: 'fiscal-year', fiscal_year: fiscalYearOf(end, 'end'), year_label: 'end', months: 12, end });
    const months = smallNumber(m[10] as string);
    return months === undefined || months > 12 ? [] : whole(m, { kind: 'months-ended', months, end });
  },
};

export const CJK_PERIOD_PATTERNS: readonly PeriodPattern[] = [
  range,
  endedZh,
  yearExpression,
  shortYearTerm,
  quarterAlone,
  halfAlone,
  fullYearAlone,
  businessTerm,
];
