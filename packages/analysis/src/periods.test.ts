import { describe, expect, it } from 'vitest';
import { findPeriods, principalPeriod } from './periods.js';

/** The only period found in `text`, whose span slices back to its text. */
function only(text: string) {
  const found = findPeriods(text);
  expect(found, text).toHaveLength(1);
  const p = found[0]!;
  expect(Array.from(text).slice(p.span[0], p.span[1]).join('')).toBe(p.text);
  return p;
}

const fy = (fiscal_year: number, more: object = {}) => ({ kind: 'fiscal-year', fiscal_year, year_label: 'end', ...more });
const quarter = (q: number, fiscal_year?: number, more: object = {}) => ({
  kind: 'quarter',
  quarter: q,
  ...(fiscal_year === undefined ? {} : { fiscal_year }),
  ...more,
});

describe('findPeriods — English', () => {
  it.each([
    ['What is the FY2018 capital expenditure amount for 3M?', 'FY2018', fy(2018)],
    ['FY22 results', 'FY22', fy(2022)],
    ["FY'99 results", "FY'99", fy(1999)],
    ['in fiscal 2022 we', 'fiscal 2022', fy(2022)],
    ['for fiscal year 2022', 'fiscal year 2022', fy(2022)],
    ['full-year 2023 guidance', 'full-year 2023', fy(2023)],
    ['Is the dividend covered as of FY2022?', 'FY2022', fy(2022)],
    ['for the fiscal year ended June 30, 2023.', 'fiscal year ended June 30, 2023', fy(2023, { end: '2023-06-30', months: 12 })],
    ['for the year ended December 31, 2022', 'year ended December 31, 2022', fy(2022, { end: '2022-12-31' })],
    ['for the year ended 31 December 2022', 'year ended 31 December 2022', fy(2022, { end: '2022-12-31' })],
    ['fiscal year ending in March 2023', 'fiscal year ending in March 2023', fy(2023, { end: '2023-03' })],
    [
      'for the 52 weeks ended January 28, 2023',
      '52 weeks ended January 28, 2023',
      { kind: 'months-ended', months: 12, end: '2023-01-28' },
    ],
    ['fiscal year ended January 1, 2023', 'fiscal year ended January 1, 2023', fy(2022, { end: '2023-01-01' })],
    ['Q3 FY2023 results', 'Q3 FY2023', quarter(3, 2023)],
    ['in the third quarter of fiscal 2023', 'third quarter of fiscal 2023', quarter(3, 2023)],
    ['fourth-quarter 2022 sales', 'fourth-quarter 2022', quarter(4, 2022)],
    ['fiscal 2023 third quarter', 'fiscal 2023 third quarter', quarter(3, 2023)],
    ['3Q23 earnings', '3Q23', quarter(3, 2023)],
    ['Q2 2023 call', 'Q2 2023', quarter(2, 2023)],
    ["Q4'22 call", "Q4'22", quarter(4, 2022)],
    ['FY23 Q1 deck', 'FY23 Q1', quarter(1, 2023)],
    ['FY2023 3Q', 'FY2023 3Q', quarter(3, 2023)],
    ['the quarter ended March 31, 2023', 'quarter ended March 31, 2023', { kind: 'quarter', months: 3, end: '2023-03-31' }],
    [
      'the three months ended March 31, 2023',
      'three months ended March 31, 2023',
      { kind: 'months-ended', months: 3, end: '2023-03-31' },
    ],
    [
      'nine months ended September 30, 2022',
      'nine months ended September 30, 2022',
      { kind: 'months-ended', months: 9, end: '2022-09-30' },
    ],
    ['for the six months ended', 'six months ended', { kind: 'months-ended', months: 6 }],
    ['H1 2023 revenue', 'H1 2023', { kind: 'half', half: 1, fiscal_year: 2023 }],
    ['2H22 outlook', '2H22', { kind: 'half', half: 2, fiscal_year: 2022 }],
    ['first half of fiscal 2022', 'first half of fiscal 2022', { kind: 'half', half: 1, fiscal_year: 2022 }],
    ['FY 2022-23 results', 'FY 2022-23', fy(2023)],
    ['FY2022/23', 'FY2022/23', fy(2023)],
    [
      'For the quarterly period ended March 31, 2023',
      'quarterly period ended March 31, 2023',
      { kind: 'quarter', months: 3, end: '2023-03-31' },
    ],
    ['calendar year 2021', 'calendar year 2021', { kind: 'calendar-year', fiscal_year: 2021, end: '2021-12-31' }],
    ['as of December 31, 2022', 'December 31, 2022', { kind: 'date', end: '2022-12-31' }],
    ['dated 2023-08-30', '2023-08-30', { kind: 'date', end: '2023-08-30' }],
    ['dated 8/30/2023', '8/30/2023', { kind: 'date', end: '2023-08-30' }],
    ['on 2023/8/30', '2023/8/30', { kind: 'date', end: '2023-08-30' }],
    ['revenue in 2022 rose', '2022', { kind: 'calendar-year', fiscal_year: 2022, weak: true }],
  ])('%s', (input, text, expected) => {
    const p = only(input);
    expect(p.text).toBe(text);
    expect(p).toMatchObject(expected);
  });

  it('reads file names', () => {
    expect(only('3M_2018_10K.pdf')).toMatchObject({ kind: 'calendar-year', fiscal_year: 2018, weak: true, text: '2018' });
    expect(only('AMCOR_2023Q4_EARNINGS.pdf')).toMatchObject(quarter(4, 2023, { text: '2023Q4' }));
    expect(only('JOHNSON_JOHNSON_2023_8K_dated-2023-08-30.pdf'.replace('_2023_', '_'))).toMatchObject({ end: '2023-08-30' });
    expect(only('PEPSICO_FY22_10K.pdf')).toMatchObject(fy(2022));
  });

  it('gives each year of "years ended December 31, 2022, 2021 and 2020" its own period', () => {
    const found = findPeriods('for the years ended December 31, 2022, 2021 and 2020');
    expect(found.map((p) => [p.fiscal_year, p.end, p.text])).toEqual([
      [2022, '2022-12-31', 'years ended December 31, 2022'],
      [2021, '2021-12-31', '2021'],
      [2020, '2020-12-31', '2020'],
    ]);
    expect(findPeriods('fiscal years 2022 and 2021').map((p) => p.fiscal_year)).toEqual([2022, 2021]);
  });

  it('does not take amounts, percentages, company names or form names for periods', () => {
    expect(findPeriods('3M paid $2,022 million, 2022.5 units, 2022% and 10-K')).toEqual([]);
    expect(findPeriods('Q3 23 million units')).toMatchObject([{ kind: 'quarter', quarter: 3, text: 'Q3' }]);
  });
});

describe('findPeriods — Japanese', () => {
  it.each([
    ['2022年度の売上高', '2022年度', { kind: 'fiscal-year', fiscal_year: 2022, year_label: 'start' }],
    ['トヨタの2023年3月期の営業利益は？', '2023年3月期', fy(2023, { end: '2023-03', months: 12 })],
    ['2023/3期', '2023/3期', fy(2023, { end: '2023-03' })],
    ['24年3月期の見通し', '24年3月期', fy(2024, { end: '2024-03', months: 12 })],
    ['24/3期', '24/3期', fy(2024, { end: '2024-03' })],
    ['24年3月期第2四半期', '24年3月期第2四半期', quarter(2, 2024, { end: '2023-09' })],
    ['24年3月期2Q', '24年3月期2Q', quarter(2, 2024, { end: '2023-09' })],
    ['2023年3月期第3四半期決算短信', '2023年3月期第3四半期', quarter(3, 2023, { year_label: 'end', end: '2022-12' })],
    ['2024年3月期 第2四半期', '2024年3月期 第2四半期', quarter(2, 2024, { end: '2023-09' })],
    ['2023年3月期1Q決算', '2023年3月期1Q', quarter(1, 2023, { end: '2022-06' })],
    ['令和4年度', '令和4年度', { kind: 'fiscal-year', fiscal_year: 2022, year_label: 'start' }],
    ['令和4年3月期', '令和4年3月期', fy(2022, { end: '2022-03' })],
    ['令和元年度', '令和元年度', { kind: 'fiscal-year', fiscal_year: 2019, year_label: 'start' }],
    ['平成30年度', '平成30年度', { kind: 'fiscal-year', fiscal_year: 2018, year_label: 'start' }],
    ['平成元年', '平成元年', { kind: 'calendar-year', fiscal_year: 1989 }],
    ['昭和64年', '昭和64年', { kind: 'calendar-year', fiscal_year: 1989 }],
    ['H30年3月期', 'H30年3月期', fy(2018, { end: '2018-03' })],
    ['令和四年度', '令和四年度', { kind: 'fiscal-year', fiscal_year: 2022 }],
    ['当社の第3四半期の業績', '第3四半期', quarter(3)],
    ['第三四半期', '第三四半期', quarter(3)],
    ['上期の売上', '上期', { kind: 'half', half: 1 }],
    ['下期の見通し', '下期', { kind: 'half', half: 2 }],
    ['上半期', '上半期', { kind: 'half', half: 1 }],
    ['中間期', '中間期', { kind: 'half', half: 1 }],
    ['通期の業績予想', '通期', { kind: 'fiscal-year', months: 12 }],
    ['第125期有価証券報告書', '第125期', { kind: 'term', term: 125 }],
    ['2023年3月31日現在', '2023年3月31日', { kind: 'date', end: '2023-03-31' }],
    ['2023年3月', '2023年3月', { kind: 'date', end: '2023-03' }],
    ['自 2022年4月1日 至 2023年3月31日', '自 2022年4月1日 至 2023年3月31日', fy(2023, { end: '2023-03-31', months: 12 })],
    ['2022年4月1日から2022年9月30日まで', '2022年4月1日から2022年9月30日', { kind: 'half', months: 6, end: '2022-09-30' }],
    ['２０２３年３月期', '２０２３年３月期', fy(2023, { end: '2023-03' })],
    ['㍻30年度', '㍻30年度', { kind: 'fiscal-year', fiscal_year: 2018, year_label: 'start' }],
  ])('%s', (input, text, expected) => {
    const p = only(input);
    expect(p.text).toBe(text);
    expect(p).toMatchObject(expected);
  });

  it('keeps the term and the dates of a cover page apart', () => {
    const found = findPeriods('事業年度 第125期（自 2022年4月1日 至 2023年3月31日）');
    expect(found.map((p) => p.kind)).toEqual(['term', 'fiscal-year']);
  });
});

describe('findPeriods — Chinese', () => {
  it.each([
    ['2022财年营收', '2022财年', fy(2022)],
    ['2022財年', '2022財年', fy(2022)],
    ['2022财年第三季度', '2022财年第三季度', quarter(3, 2022)],
    ['2022年第三季度', '2022年第三季度', quarter(3, 2022, { end: '2022-09' })],
    ['2022年第3季', '2022年第3季', quarter(3, 2022)],
    ['2022年Q3', '2022年Q3', quarter(3, 2022)],
    ['2022年一季度', '2022年一季度', quarter(1, 2022, { end: '2022-03' })],
    ['2022年度报告', '2022年度', { kind: 'fiscal-year', fiscal_year: 2022, year_label: 'start' }],
    ['2022年的收入', '2022年', { kind: 'calendar-year', fiscal_year: 2022, end: '2022-12' }],
    ['二〇二二年', '二〇二二年', { kind: 'calendar-year', fiscal_year: 2022 }],
    ['民國111年', '民國111年', { kind: 'calendar-year', fiscal_year: 2022 }],
    ['民国一百一十一年度', '民国一百一十一年度', { kind: 'fiscal-year', fiscal_year: 2022, year_label: 'start' }],
    ['中華民國111年', '中華民國111年', { kind: 'calendar-year', fiscal_year: 2022 }],
    ['2022年上半年', '2022年上半年', { kind: 'half', half: 1, fiscal_year: 2022, end: '2022-06' }],
    ['2022年下半年', '2022年下半年', { kind: 'half', half: 2, fiscal_year: 2022, end: '2022-12' }],
    ['2022年半年度报告', '2022年半年度', { kind: 'half', half: 1, fiscal_year: 2022 }],
    ['2022年前三季度', '2022年前三季度', { kind: 'months-ended', months: 9, end: '2022-09' }],
    ['第三季度', '第三季度', quarter(3)],
    ['2022年末的总资产', '2022年末', { kind: 'date', end: '2022-12' }],
    ['2022年年底', '2022年年底', { kind: 'date', end: '2022-12' }],
    ['截至2022年12月31日止年度', '截至2022年12月31日止年度', fy(2022, { end: '2022-12-31' })],
    ['截至2022年6月30日止六個月', '截至2022年6月30日止六個月', { kind: 'months-ended', months: 6, end: '2022-06-30' }],
    ['2022年1月1日至2022年12月31日', '2022年1月1日至2022年12月31日', fy(2022, { end: '2022-12-31' })],
  ])('%s', (input, text, expected) => {
    const p = only(input);
    expect(p.text).toBe(text);
    expect(p).toMatchObject(expected);
  });

  it('does not read the prior-period column, 上期 or 上年度 as a half year', () => {
    expect(findPeriods('本期金额 上期金额 上期末 上年度')).toEqual([]);
    expect(findPeriods('上期的利息支出有多少？')).toEqual([]);
    expect(findPeriods('2028年上年年末的余额').map((p) => p.text)).toEqual(['2028年']);
  });
});

describe('findPeriods — spans', () => {
  it('counts codepoints of the input as given (astral characters count 1, NFKC folds are mapped back)', () => {
    const text = '𠮷野家の２０２３年３月期と㍻30年度';
    const found = findPeriods(text);
    expect(found.map((p) => p.span)).toEqual([
      [4, 12],
      [13, 18],
    ]);
    expect(found.map((p) => p.text)).toEqual(['２０２３年３月期', '㍻30年度']);
  });

  it('finds every period of a long text holding thousands of them', () => {
    const text = Array.from({ length: 5000 }, (_, i) => `FY${2000 + (i % 30)} and 2023年3月期第${(i % 4) + 1}四半期`).join('; ');
    const found = findPeriods(text);
    expect(found).toHaveLength(10000);
    expect(found[9999]).toMatchObject({ kind: 'quarter', quarter: 4, fiscal_year: 2023 });
  });

  it('prefers the longest form where forms overlap', () => {
    expect(findPeriods('nine months ended September 30, 2022').map((p) => p.kind)).toEqual(['months-ended']);
    expect(findPeriods('2023年3月期第3四半期').map((p) => p.kind)).toEqual(['quarter']);
  });
});

describe('principalPeriod', () => {
  it('picks the period a cover page is about over law years, dates and comparatives', () => {
    const cover =
      'ANNUAL REPORT PURSUANT TO SECTION 13 OR 15(d) OF THE SECURITIES EXCHANGE ACT OF 1934 For the fiscal year ended June 30, 2023 ' +
      'The aggregate market value as of December 31, 2022 was $1.8 trillion. 7.5% notes due 2028';
    expect(findPeriods(cover).map((p) => p.text)).not.toContain('1934');
    expect(principalPeriod(findPeriods(cover))).toMatchObject({ kind: 'fiscal-year', fiscal_year: 2023, end: '2023-06-30' });
    expect(principalPeriod(findPeriods('第125期（自 2022年4月1日 至 2023年3月31日）'))).toMatchObject({
      fiscal_year: 2023,
      months: 12,
    });
    expect(principalPeriod(findPeriods('AMCOR_2023Q4_EARNINGS.pdf'))).toMatchObject({
      kind: 'quarter',
      quarter: 4,
      fiscal_year: 2023,
    });
    expect(principalPeriod(findPeriods('3M_2018_10K.pdf'))).toMatchObject({ fiscal_year: 2018, weak: true });
    expect(principalPeriod(findPeriods('dated 2023-08-30, term 第125期'))).toBeUndefined();
  });
});
