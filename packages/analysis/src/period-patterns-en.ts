import { type FoundPeriod, fiscalYearOf, formatEnd, fullYear, type Period, type PeriodPattern, whole } from './period-types.js';

/** English period expressions (matched case-insensitively on NFKC text). */

const MONTHS = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'];
const MONTH =
  '(?:jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)\\.?';
const DAY = '\\d{1,2}(?:st|nd|rd|th)?';
const DATE = `(?:${MONTH}\\s+${DAY},?\\s+\\d{4}|${DAY}\\s+${MONTH},?\\s+\\d{4}|${MONTH},?\\s+\\d{4}|\\d{4}-\\d{2}-\\d{2}|\\d{4}/\\d{1,2}/\\d{1,2}|\\d{1,2}/\\d{1,2}/\\d{4})`;
const YEAR4 = '(?:19|20)\\d{2}';
/** "FY", "FY'", "fiscal", "fiscal year" before a year. */
const FY_PREFIX = "(?:FY\\s?|F\\.Y\\.\\s?|fiscal\\s+(?:year\\s+)?)['’]?";
/** A year after a quarter/half marker: "FY23", "fiscal 2023", "'23", "2023". */
const YEAR_AFTER = `(?:${FY_PREFIX}(\\d{4}|\\d{2})|['’](\\d{2})|(${YEAR4}))`;
/** Further years after a first one: "…, 2022 and 2021". */
const MORE_YEARS = `((?:(?:\\s*,\\s*(?:and\\s+)?|\\s+and\\s+)${YEAR4}(?!\\d))*)`;
const START = '(?<![A-Za-z0-9])';
const STOP = '(?![A-Za-z0-9])';
const ORDINALS: Readonly<Record<string, 1 | 2 | 3 | 4>> = {
  first: 1,
  '1st': 1,
  second: 2,
  '2nd': 2,
  third: 3,
  '3rd': 3,
  fourth: 4,
  '4th': 4,
};
const ORD = '(first|second|third|fourth|1st|2nd|3rd|4th)';
const LENGTHS: Readonly<Record<string, number>> = {
  three: 3,
  six: 6,
  nine: 9,
  twelve: 12,
  thirteen: 13,
  'twenty-six': 26,
  'thirty-nine': 39,
  'fifty-two': 52,
  'fifty-three': 53,
};
const LENGTH = '(three|six|nine|twelve|thirteen|twenty[\\s-]six|thirty[\\s-]nine|fifty[\\s-]two|fifty[\\s-]three|\\d{1,2})';
const ENDED = '(?:that\\s+)?(?:ended|ending|end)\\s+(?:on\\s+|in\\s+|at\\s+)?';

/** Year, month and day (when given) of an English, ISO (2023-08-30, 2023/8/30) or US numeric (8/30/2023) date. */
function parseEnglishDate(s: string): { year: number; month: number; day?: number } | null {
  const iso = /^(\d{4})[-/](\d{1,2})[-/](\d{1,2})$/.exec(s);
  if (iso) return validDate(Number(iso[1]), Number(iso[2]), Number(iso[3]));
  // Numeric month/day/year: the US order, as SEC filings write it.
  const us = /^(\d{1,2})\/(\d{1,2})\/(\d{4})$/.exec(s);
  if (us) return validDate(Number(us[3]), Number(us[1]), Number(us[2]));
  const month = MONTHS.findIndex((name) => new RegExp(`(?<![a-z])${name}`, 'i').test(s)) + 1;
  const year = /(\d{4})\s*$/.exec(s);
  if (month === 0 || !year) return null;
  const day = /(?<!\d)(\d{1,2})(?:st|nd|rd|th)?(?!\d)/i.exec(s.slice(0, year.index));
  return validDate(Number(year[1]), month, day ? Number(day[1]) : undefined);
}

function validDate(year: number, month: number, day?: number): { year: number; month: number; day?: number } | null {
  if (month < 1 || month > 12 || (day !== undefined && (day < 1 || day > 31))) return null;
  return day === undefined ? { year, month } : { year, month, day };
}

function lengthInMonths(word: string, unit: string): number | undefined {
  const raw = LENGTHS[word.toLowerCase().replace(/\s/g, '-')] ?? Number(word);
  if (!Number.isFinite(raw)) return undefined;
  if (!/^week/i.test(unit)) return raw >= 1 && raw <= 12 ? raw : undefined;
  return ({ 13: 3, 26: 6, 39: 9, 52: 12, 53: 12 } as Record<number, number>)[raw];
}

/** The period an "… ended <date>" phrase names, by its unit. */
function endedPeriod(unit: string, len: string | undefined, end: string, endYear: number): Period | null {
  const u = unit.toLowerCase();
  if (u.startsWith('year')) return { kind: 'fiscal-year', fiscal_year: endYear, year_label: 'end', months: 12, end };
  if (u.startsWith('quarter')) return { kind: 'quarter', months: 3, end };
  if (u.startsWith('half')) return { kind: 'half', months: 6, end };
  const months = len === undefined ? undefined : lengthInMonths(len, u);
  if (months === undefined) return null;
  return { kind: 'months-ended', months, end };
}

/** "… ended December 31, 2022 and 2021": one more period per further year, same month and day. */
function moreYears(m: RegExpExecArray, group: number, base: Period, endText: string): FoundPeriod[] {
  const tail = m[group];
  const at = m.indices?.[group]?.[0];
  if (!tail || at === undefined) return [];
  const out: FoundPeriod[] = [];
  for (const y of tail.matchAll(/\d{4}/g)) {
    const year = Number(y[0]);
    const end = `${year}${endText.slice(4)}`;
    const period: Period = { ...base, end };
    if (period.fiscal_year !== undefined) period.fiscal_year = fiscalYearOf(end, 'end');
    out.push({ period, start: at + y.index, end: at + y.index + 4 });
  }
  return out;
}

const endedPhrase: PeriodPattern = {
  gate: /end/i,
  re: new RegExp(
    `${START}(?:fiscal\\s+)?(years?|quarters?|quarterly\\s+period|half[\\s-]years?|${LENGTH}[\\s-]+(months?|weeks?))\\s+${ENDED}(${DATE})${MORE_YEARS}${STOP}`,
    'giud',
  ),
  build(m) {
    const date = parseEnglishDate(m[4] as string);
    if (!date) return [];
    const end = formatEnd(date.year, date.month, date.day);
    const unit = m[3] ?? (m[1] as string);
    const period = endedPeriod(unit, m[2], end, fiscalYearOf(end, 'end'));
    if (!period) return [];
    const first: FoundPeriod = { period, start: m.index, end: m.indices?.[4]?.[1] ?? m.index };
    return [first, ...moreYears(m, 5, period, end)];
  },
};

const endedNoDate: PeriodPattern = {
  gate: /end/i,
  re: new RegExp(`${START}${LENGTH}[\\s-]+(months?|weeks?)\\s+(?:ended|ending)${STOP}`, 'giud'),
  build(m) {
    const months = lengthInMonths(m[1] as string, m[2] as string);
    return months === undefined ? [] : whole(m, { kind: 'months-ended', months });
  },
};

/** The fiscal year a quarter/half marker's year groups name (FY23, fiscal 2023, '23, 2023). */
function yearOf(m: RegExpExecArray, from: number): number | undefined {
  for (let g = from; g < from + 3; g++) if (m[g] !== undefined) return fullYear(m[g] as string);
  return undefined;
}

function quarterPeriod(q: number, fy: number | undefined): Period {
  const p: Period = { kind: 'quarter', quarter: q as 1 | 2 | 3 | 4, months: 3 };
  if (fy !== undefined) Object.assign(p, { fiscal_year: fy, year_label: 'end' });
  return p;
}

function halfPeriod(h: number, fy: number | undefined): Period {
  const p: Period = { kind: 'half', half: h as 1 | 2, months: 6 };
  if (fy !== undefined) Object.assign(p, { fiscal_year: fy, year_label: 'end' });
  return p;
}

const SEP = '[\\s_\\-/]*';

const quarterFirst: PeriodPattern = {
  // Q3, Q3 2023, Q3 FY23, Q3'23, Q3-2023, 3Q23, 3Q 2023, 3QFY23
  gate: /q[1-4]|[1-4]q/i,
  re: new RegExp(`${START}(?:Q([1-4])|([1-4])Q)(?:${SEP}${YEAR_AFTER}|(?<=\\dQ)(\\d{2}))?${STOP}`, 'giud'),
  build(m) {
    const fy = m[6] !== undefined ? fullYear(m[6]) : yearOf(m, 3);
    return whole(m, quarterPeriod(Number(m[1] ?? m[2]), fy));
  },
};

const yearFirstQuarter: PeriodPattern = {
  // 2023Q4, 2023 Q4, FY23 Q3, FY2023Q3, fiscal 2023 Q3, FY2023 3Q
  gate: /q[1-4]|[1-4]q/i,
  re: new RegExp(`${START}(?:${FY_PREFIX}(\\d{4}|\\d{2})|(${YEAR4}))${SEP}(?:Q([1-4])|([1-4])Q)${STOP}`, 'giud'),
  build(m) {
    return whole(m, quarterPeriod(Number(m[3] ?? m[4]), fullYear((m[1] ?? m[2]) as string)));
  },
};

const YEAR_OF = `(?:\\s+(?:of\\s+)?(?:the\\s+)?(?:${FY_PREFIX}(\\d{4}|\\d{2})|(${YEAR4})))?`;

const ordinalQuarter: PeriodPattern = {
  // third quarter of fiscal 2023, fourth-quarter 2022, third fiscal quarter of 2023
  gate: /quarter/i,
  re: new RegExp(`${START}${ORD}[\\s-]+(?:fiscal\\s+)?quarter${YEAR_OF}${STOP}`, 'giud'),
  build(m) {
    const fy = m[2] !== undefined || m[3] !== undefined ? fullYear((m[2] ?? m[3]) as string) : undefined;
    return whole(m, quarterPeriod(ORDINALS[(m[1] as string).toLowerCase()] as number, fy));
  },
};

const yearOrdinalQuarter: PeriodPattern = {
  // fiscal 2023 third quarter, 2023 fourth quarter
  gate: /quarter/i,
  re: new RegExp(`${START}(?:${FY_PREFIX})?(${YEAR4})\\s+${ORD}[\\s-]+(?:fiscal\\s+)?quarter${STOP}`, 'giud'),
  build(m) {
    return whole(m, quarterPeriod(ORDINALS[(m[2] as string).toLowerCase()] as number, Number(m[1])));
  },
};

const halves: PeriodPattern = {
  // H1 2023, 1H23, H2 FY22, first half of 2023, second half of fiscal 2022
  gate: /h[12]|[12]h|half/i,
  re: new RegExp(
    `${START}(?:H([12])|([12])H|(first|second|1st|2nd)\\s+half)(?:${SEP}${YEAR_AFTER}|(?<=\\dH)(\\d{2})|${YEAR_OF})?${STOP}`,
    'giud',
  ),
  build(m) {
    const word = m[3]?.toLowerCase();
    const h = m[1] ?? m[2] ?? (word === 'first' || word === '1st' ? '1' : '2');
    const raw = m[4] ?? m[5] ?? m[6] ?? m[7] ?? m[8] ?? m[9];
    return whole(m, halfPeriod(Number(h), raw === undefined ? undefined : fullYear(raw)));
  },
};

const fiscalYear: PeriodPattern = {
  // FY2022, FY22, FY'22, fiscal 2022, fiscal year 2022, full year 2022, fiscal years 2022 and 2021
  gate: /fy|f\.y\.|fiscal|full/i,
  re: new RegExp(
    `${START}(?:FY\\s?['’]?(\\d{4}|\\d{2})|(?:fiscal\\s+(?:years?\\s+)?|full[\\s-]year\\s+)['’]?(${YEAR4}))${MORE_YEARS}(?![0-9])`,
    'giud',
  ),
  build(m) {
    const fy = fullYear((m[1] ?? m[2]) as string);
    const first: FoundPeriod = {
      period: { kind: 'fiscal-year', fiscal_year: fy, year_label: 'end' },
      start: m.index,
      end: m.indices?.[m[1] ? 1 : 2]?.[1] ?? m.index,
    };
    const more = Array.from((m[3] ?? '').matchAll(/\d{4}/g), (y): FoundPeriod => {
      const at = (m.indices?.[3]?.[0] ?? 0) + y.index;
      return { period: { kind: 'fiscal-year', fiscal_year: Number(y[0]), year_label: 'end' }, start: at, end: at + 4 };
    });
    return [first, ...more];
  },
};

const fiscalSpan: PeriodPattern = {
  // FY 2022-23, FY2022/23, fiscal year 2022–2023: the year that ends in 2023
  gate: /fy|fiscal/i,
  re: new RegExp(`${START}(?:FY\\s?|fiscal\\s+(?:year\\s+)?)(${YEAR4})\\s*[-–/]\\s*(${YEAR4}|\\d{2})(?![0-9])`, 'giud'),
  build(m) {
    const from = Number(m[1]);
    const raw = m[2] as string;
    const to = raw.length === 2 ? Math.floor(from / 100) * 100 + Number(raw) : Number(raw);
    return to === from + 1 ? whole(m, { kind: 'fiscal-year', fiscal_year: to, year_label: 'end' }) : [];
  },
};

const calendarYear: PeriodPattern = {
  gate: /calendar|cy/i,
  re: new RegExp(`${START}(?:calendar\\s+year\\s+|CY\\s?['’]?)(${YEAR4}|\\d{2})${STOP}`, 'giud'),
  build(m) {
    const y = fullYear(m[1] as string);
    return whole(m, { kind: 'calendar-year', fiscal_year: y, year_label: 'end', months: 12, end: formatEnd(y, 12, 31) });
  },
};

const dateAlone: PeriodPattern = {
  gate: /\d{4}/,
  re: new RegExp(`${START}(${DATE})(?![0-9])`, 'giud'),
  build(m) {
    const d = parseEnglishDate(m[1] as string);
    return d ? whole(m, { kind: 'date', end: formatEnd(d.year, d.month, d.day) }) : [];
  },
};

const bareYear: PeriodPattern = {
  // 2022 alone (also in file names: 3M_2018_10K.pdf) — weak: it may be any number.
  gate: /(?:19|20)\d\d/,
  // Not the year of a law ("Securities Exchange Act of 1934").
  re: new RegExp(`(?<![A-Za-z0-9.,$€£¥#-])(?<!\\bact\\s+of\\s+)(${YEAR4})(?![0-9%]|[.,][0-9]|[A-Za-z])`, 'giud'),
  build(m) {
    const y = Number(m[1]);
    return whole(m, { kind: 'calendar-year', fiscal_year: y, year_label: 'end', weak: true });
  },
};

export const ENGLISH_PERIOD_PATTERNS: readonly PeriodPattern[] = [
  endedPhrase,
  endedNoDate,
  quarterFirst,
  yearFirstQuarter,
  ordinalQuarter,
  yearOrdinalQuarter,
  halves,
  fiscalSpan,
  fiscalYear,
  calendarYear,
  dateAlone,
  bareYear,
];
