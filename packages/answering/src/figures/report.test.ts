import { describe, expect, it } from 'vitest';
import type { LocatedCell } from './locate.js';
import { answerReportFigure, planReportFigure, reportItems } from './report.js';

/** A located cell of a statement for the tests: its item, year and figure as written. */
const cell = (label: string, year: number, written: string, number: number, percent = false): LocatedCell =>
  ({
    cell: { col: 1, text: written, terms: new Set(), num: number, cell: { ref: 'B2', col: 1, start: 0, end: 1 } },
    amount: { number, written, percent, decimals: 1 },
    label,
    year,
    period: String(year),
  }) as unknown as LocatedCell;

describe('planReportFigure', () => {
  it('reads "changed" as a change of the measure named', () => {
    expect(
      planReportFigure('How much has the effective tax rate of American Express changed between FY2021 and FY2022?'),
    ).toMatchObject({
      measure: 'effective-tax-rate',
      op: 'change',
      years: [2021, 2022],
      stated: true,
    });
  });
  it('reads a comparison of named years as the measure in each, and a judgment on a named measure as its figure', () => {
    expect(planReportFigure("How does Boeing's effective tax rate in FY2022 compare to FY2021?")).toMatchObject({
      measure: 'effective-tax-rate',
      op: 'trend',
      years: [2021, 2022],
    });
    expect(
      planReportFigure('Does Verizon have a reasonably healthy liquidity profile based on its quick ratio for FY 2022?'),
    ).toMatchObject({ measure: 'quick-ratio', op: 'value', years: [2022] });
    // a judgment that names no measure, or asks why, is no figure
    expect(planReportFigure('Is Verizon a capital intensive business based on FY 2022 data?')).toBeUndefined();
    expect(planReportFigure("Why did Walmart's gross margin fall in FY2019?")).toBeUndefined();
    expect(planReportFigure('Roughly how many times has JnJ sold its inventory in FY2022?')).toBeUndefined();
  });
  it("reads the report's own row of a measure the question does not define, and the formula of one it does", () => {
    const own = planReportFigure("What is General Mills's FY2020 working capital ratio?");
    expect(own?.stated).toBe(true);
    expect(reportItems(own as NonNullable<typeof own>)[0]).toEqual({ item: 'current-ratio', year: 2020 });
    const defined = planReportFigure(
      "What is General Mills's FY2020 working capital ratio? Define working capital ratio as total current assets divided by total current liabilities.",
    );
    expect(defined?.stated).toBe(false);
  });
  it('lets a question name the line items its measure is computed from', () => {
    expect(
      planReportFigure(
        'What is the FY2022 retention ratio (using total cash dividends paid and net income attributable to shareholders) for General Mills?',
      )?.measure,
    ).toBe('retention-ratio');
  });
});

describe('answerReportFigure', () => {
  it('states the change of a stated rate in percentage points, each operand cited', () => {
    const plan = planReportFigure('How much has the effective tax rate changed between FY2021 and FY2022?');
    if (!plan) throw new Error('no plan');
    const rows: Record<number, LocatedCell> = {
      2021: cell('Effective tax rate', 2021, '24.6 %', 24.6, true),
      2022: cell('Effective tax rate', 2022, '21.6 %', 21.6, true),
    };
    const r = answerReportFigure(
      plan,
      (item, year) => (item === 'effective-tax-rate' ? rows[year] : undefined),
      () => ({ scale: 1 }),
    );
    if ('missing' in r) throw new Error(r.missing);
    expect(r.text).toBe('−3 percentage points = (21.6 %) − (24.6 %) — change in effective tax rate, 2021 to 2022 [1][2]');
    expect(r.value).toEqual({ number: -3, scale: 'percent', unit: '%' });
  });
});

describe('trends', () => {
  const cells: Record<string, Record<number, LocatedCell>> = {
    'operating-income': {
      2020: cell('Operating income', 2020, '1,000', 1000),
      2021: cell('Operating income', 2021, '1,500', 1500),
    },
    revenue: { 2020: cell('Revenue', 2020, '10,000', 10000), 2021: cell('Revenue', 2021, '10,000', 10000) },
    'days-sales-outstanding': { 2021: cell('DSO', 2021, '40', 40), 2022: cell('DSO', 2022, '45', 45) },
  };
  const find = (item: string, year: number) => cells[item]?.[year];
  it('reads a question about a direction as the measure for each year shown, judged where it asks so', () => {
    const plan = planReportFigure('Does AMEX have an improving operating margin profile as of FY2021?');
    expect(plan).toMatchObject({ op: 'trend', years: [2019, 2020, 2021], judges: true });
    const r = answerReportFigure(plan as NonNullable<typeof plan>, find, () => ({ scale: 1 }));
    if ('missing' in r) throw new Error(r.missing);
    // 2019 is not in the report: the years it shows are read
    expect(r.text).toBe('improving: operating margin 10% (2020) → 15% (2021) [1][2][3][4]');
    expect(r.calculation.expression).toBe('1,000 ÷ 10,000 × 100 → 1,500 ÷ 10,000 × 100');
  });
  it('says a rise in days to collect is no improvement, and a trend not judged by its direction', () => {
    const dso = planReportFigure('Has the days sales outstanding improved between FY2021 and FY2022?');
    const r = answerReportFigure(dso as NonNullable<typeof dso>, find, () => ({ scale: 1 }));
    if ('missing' in r) throw new Error(r.missing);
    expect(r.text.startsWith('not improving: days sales outstanding 40 (2021) → 45 (2022)')).toBe(true);
    expect(planReportFigure('What is the trend in operating margin between FY2020 and FY2021?')).toMatchObject({ op: 'trend' });
    expect(planReportFigure('Why did the operating margin improve in FY2021?')).toBeUndefined();
  });
  it('reads the trend questions of each language', () => {
    expect(planReportFigure('2021年度の営業利益率は改善していますか？')).toMatchObject({
      op: 'trend',
      judges: true,
      measure: 'operating-margin',
    });
    expect(planReportFigure('2021年营业利润率的趋势如何？')?.op).toBe('trend');
  });
});
