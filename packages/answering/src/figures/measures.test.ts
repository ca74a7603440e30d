import { FINANCE_TERM_GROUPS, financeGroupsIn } from '@pinpoint/analysis';
import { describe, expect, it } from 'vitest';
import type { Amount } from './amount.js';
import { amountOf } from './amount.js';
import { evaluateMeasure } from './evaluate.js';
import type { LocatedCell } from './locate.js';
import { MEASURE_FORMULAS, measureItems, parseFormula } from './measures.js';

/** A located cell of a made-up statement: only its amount and label matter to the arithmetic. */
const cell = (label: string, year: number, written: string): LocatedCell =>
  ({ cell: {} as LocatedCell['cell'], amount: amountOf(written) as Amount, label, year, period: String(year) }) as LocatedCell;

const statement: Record<string, Record<number, string>> = {
  revenue: { 2019: '10,000', 2018: '9,000' },
  'cost-of-revenue': { 2019: '6,000', 2018: '5,500' },
  'gross-profit': { 2019: '4,000', 2018: '3,500' },
  'operating-income': { 2019: '1,500', 2018: '1,200' },
  'current-assets': { 2019: '5,000' },
  'current-liabilities': { 2019: '2,500' },
  inventories: { 2019: '800', 2018: '700' },
  'accounts-receivable': { 2019: '900', 2018: '1,100' },
  'accounts-payable': { 2019: '600', 2018: '400' },
  ppe: { 2019: '402', 2018: '439' },
  'operating-cash-flow': { 2019: '2,000' },
  'capital-expenditure': { 2019: '(700)' },
};
const find = (item: string, year: number): LocatedCell | undefined => {
  const w = statement[item]?.[year];
  return w === undefined ? undefined : cell(item, year, w);
};

describe('measure formulas', () => {
  it('every formula parses and reads only lexicon groups or other measures', () => {
    const groups = new Set(FINANCE_TERM_GROUPS.map((g) => g.id));
    for (const [id, { formula }] of Object.entries(MEASURE_FORMULAS)) {
      expect(() => parseFormula(formula), id).not.toThrow();
      expect(groups.has(id), id).toBe(true);
      for (const item of measureItems(id)) expect(groups.has(item.id), `${id} reads ${item.id}`).toBe(true);
    }
  });
  it('computes a ratio with an average, showing each operand as written', () => {
    const r = evaluateMeasure('fixed-asset-turnover', 2019, find);
    expect(r).toMatchObject({ expression: '10,000 ÷ ((402 + 439) ÷ 2)' });
    expect('number' in r && Math.round(r.number * 100) / 100).toBe(23.78);
  });
  it('computes margins, working capital, free cash flow and the cash conversion cycle', () => {
    const n = (id: string): number => {
      const r = evaluateMeasure(id, 2019, find);
      if (!('number' in r)) throw new Error(r.missing);
      return Math.round(r.number * 100) / 100;
    };
    expect(n('gross-margin')).toBe(40);
    expect(n('operating-margin')).toBe(15);
    expect(n('current-ratio')).toBe(2);
    expect(n('working-capital')).toBe(2500);
    expect(n('free-cash-flow')).toBe(1300);
    // DIO 365 × 750 / 6000 = 45.625; DSO 365 × 1000 / 10000 = 36.5; DPO 365 × 500 / 6000 = 30.417
    expect(n('cash-conversion-cycle')).toBe(51.71);
  });
  it('reads gross profit from revenue and cost of revenue where the report states no line of it', () => {
    const unstated = (item: string, year: number) => (item === 'gross-profit' ? undefined : find(item, year));
    const r = evaluateMeasure('gross-margin', 2019, unstated);
    expect(r).toMatchObject({ expression: '(10,000 − 6,000) ÷ 10,000 × 100' });
    expect('number' in r && r.number).toBe(40);
    // what it cannot be read from is named as the line item asked
    const bare = (item: string, year: number) => (item === 'revenue' ? find(item, year) : undefined);
    expect(evaluateMeasure('gross-margin', 2019, bare)).toEqual({ missing: 'gross-profit', year: 2019 });
    expect(measureItems('gross-margin').map((i) => i.id)).toEqual(['gross-profit', 'revenue', 'cost-of-revenue']);
  });
  it('names the line item it cannot find, and refuses a division by zero', () => {
    expect(evaluateMeasure('quick-ratio', 2019, find)).toEqual({ missing: 'cash', year: 2019 });
    const zero = (item: string, year: number) => (item === 'revenue' ? cell(item, year, '0') : find(item, year));
    expect(evaluateMeasure('gross-margin', 2019, zero)).toMatchObject({ divideByZero: true });
  });
  it('reads a measure named in English, Japanese and Chinese', () => {
    const ids = (t: string) => financeGroupsIn(t).map((g) => g.group);
    expect(ids('What is the FY2019 operating margin?')).toContain('operating-margin');
    expect(ids('2019年度の営業利益率はいくらですか')).toContain('operating-margin');
    expect(ids('2019年的营业利润率是多少')).toContain('operating-margin');
    expect(ids('2019年的營業利益率是多少')).toContain('operating-margin');
    expect(ids('流動比率は')).toContain('current-ratio');
    expect(ids('毛利率是多少')).toContain('gross-margin');
    expect(ids('2019年资产负债率')).toContain('debt-ratio');
    expect(ids('自己資本比率')).toContain('equity-ratio');
    expect(ids('FY2020 free cash flow')).toContain('free-cash-flow');
    expect(ids('days payable outstanding (DPO)')).toContain('days-payable-outstanding');
  });
});
