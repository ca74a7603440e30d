import { describe, expect, it } from 'vitest';
import { bestPeriodMatch, PERIOD_SCORES, periodsMatch } from './period-match.js';
import { fiscalYearOf } from './period-types.js';
import { findPeriods } from './periods.js';

function period(text: string) {
  const found = findPeriods(text);
  expect(found, text).toHaveLength(1);
  return found[0]!;
}

function score(question: string, doc: string): number {
  return periodsMatch(period(question), period(doc));
}

describe('fiscalYearOf', () => {
  it('labels a year by its end year or, for 年度, by its start year', () => {
    expect(fiscalYearOf('2023-03-31', 'end')).toBe(2023);
    expect(fiscalYearOf('2023-03', 'start')).toBe(2022);
    expect(fiscalYearOf('2022-12-31', 'start')).toBe(2022);
    expect(fiscalYearOf('2023-06-30', 'end')).toBe(2023);
    expect(fiscalYearOf('2023-06-30', 'start')).toBe(2022);
  });

  it('counts a 52/53-week year ending in the first days of January as the year before', () => {
    expect(fiscalYearOf('2023-01-01', 'end')).toBe(2022);
    expect(fiscalYearOf('2023-01-28', 'end')).toBe(2023);
  });
});

describe('periodsMatch', () => {
  it.each([
    ['FY2022', 'year ended December 31, 2022'],
    ['FY2022', 'fiscal 2022'],
    ['FY2022', 'fiscal year ended January 1, 2023'],
    ['fiscal 2023', 'fiscal year ended June 30, 2023'],
    ['2022年度', '2023年3月期'],
    ['2022年度', '自 2022年4月1日 至 2023年3月31日'],
    ['令和4年度', '2023年3月期'],
    ['令和4年3月期', 'fiscal year ended March 31, 2022'],
    ['2022年度', 'FY2022'],
    ['2022财年', 'FY2022'],
    ['2022年', 'year ended December 31, 2022'],
    ['Q3 FY2023', '2023年3月期第3四半期'],
    ['third quarter of 2022', 'three months ended September 30, 2022'],
    ['2022年第三季度', 'Q3 2022'],
    ['December 31, 2022', 'fiscal year ended December 31, 2022'],
    ['第125期', '第125期'],
  ])('%s is answered by a document for %s', (q, d) => {
    expect(score(q, d)).toBe(PERIOD_SCORES.same);
  });

  it.each([
    ['2022年度', '2022年3月期'],
    ['FY2022', 'FY2021'],
    ['FY2023', 'year ended December 31, 2022'],
    ['Q3 2022', 'Q2 2022'],
    ['Q3 2022', 'first half of 2022'],
    ['第125期', '第124期'],
    ['第125期', 'FY2022'],
    ['December 31, 2022', 'September 30, 2022'],
  ])('%s is not answered by a document for %s', (q, d) => {
    expect(score(q, d)).toBe(0);
  });

  it('scores comparatives in later reports lower than the report of the year', () => {
    expect(score('FY2022', 'FY2023')).toBe(PERIOD_SCORES.comparative);
    expect(score('FY2022', 'FY2024')).toBe(PERIOD_SCORES.twoYearsLater);
    expect(score('FY2022', 'FY2025')).toBe(0);
    expect(score('Q3 2022', 'Q3 2023')).toBe(PERIOD_SCORES.comparative);
    expect(score('December 31, 2022', 'FY2023')).toBe(PERIOD_SCORES.comparative);
    expect(score('FY2022', 'FY2023')).toBeLessThan(score('FY2022', 'fiscal 2022'));
  });

  it('scores parts of the year in between', () => {
    expect(score('FY2023', 'AMCOR_2023Q4_EARNINGS.pdf')).toBe(PERIOD_SCORES.closingPart);
    expect(score('FY2023', 'Q2 2023')).toBe(PERIOD_SCORES.part);
    expect(score('Q3 2022', 'FY2022')).toBe(PERIOD_SCORES.part);
    expect(score('Q3 2022', 'nine months ended September 30, 2022')).toBe(PERIOD_SCORES.yearToDate);
    expect(score('Q2 2022', 'first half of 2022')).toBe(PERIOD_SCORES.closingPart);
    expect(score('December 31, 2022', 'FY2022')).toBe(PERIOD_SCORES.same);
    expect(score('June 30, 2022', 'FY2022')).toBe(PERIOD_SCORES.part);
  });

  it('lets a period without a year match only the same part, at a lower score', () => {
    expect(score('第3四半期', 'Q3 2022')).toBe(PERIOD_SCORES.noYear);
    expect(score('第3四半期', 'Q2 2022')).toBe(0);
    expect(score('通期', 'FY2022')).toBe(PERIOD_SCORES.noYear);
  });

  it('prefers an explicit label to a bare year', () => {
    expect(score('FY2018', '3M_2018_10K.pdf')).toBeCloseTo(PERIOD_SCORES.same * PERIOD_SCORES.weak);
    expect(score('FY2018', '3M_2018_10K.pdf')).toBeLessThan(score('FY2018', 'fiscal 2018'));
  });

  it('takes the best pair when a question or a document holds several periods', () => {
    const doc = findPeriods('for the years ended December 31, 2022, 2021 and 2020');
    expect(bestPeriodMatch(findPeriods('FY2021 and FY2022'), doc)).toBe(PERIOD_SCORES.same);
    expect(bestPeriodMatch(findPeriods('FY2019'), doc)).toBe(PERIOD_SCORES.comparative);
    expect(bestPeriodMatch(findPeriods('FY2017'), doc)).toBe(0);
    expect(bestPeriodMatch([], doc)).toBe(0);
  });
});
