import { describe, expect, it } from 'vitest';
import { balanceRow, maturityCells, maturityColumns, quarterCells } from './locate-periods.js';
import { reportTable } from './test-tables.js';

const none = new Map<string, number>();

describe('periods a table writes outside its year columns', () => {
  it('finds the dated row of a movements table for the day asked, labelled by the title', () => {
    const t = reportTable('associates.csv', '18 Investment in associates', [
      ['£m', '2019', '2018'],
      ['At 1 January', '65.6', '64.8'],
      ['Impairment', '(7.4)', '–'],
      ['At 31 December', '53.7', '65.6'],
    ]);
    expect(balanceRow(t, 'investment in associates', '12-31', none)).toMatchObject({
      label: 'Investment in associates',
      day: 'At 31 December',
    });
    expect(balanceRow(t, 'investment in associates', '6-30', none)).toBeUndefined();
    expect(balanceRow(t, 'goodwill', '1-1', none)).toBeUndefined();
  });

  it('reads quarter rows under their year, or of the one year the lines above name', () => {
    const t = reportTable('prices.csv', 'Common Stock Price Range 2018', [
      ['', 'Low', 'High'],
      ['First Quarter', '$ 5.99', '$ 8.40'],
      ['Second Quarter', '$ 4.79', '$ 6.48'],
      ['Third Quarter', '$ 2.66', '$ 4.63'],
      ['Fourth Quarter', '$ 1.88', '$ 3.39'],
    ]);
    const all = quarterCells(t, 'low price', undefined, [], none);
    expect(all?.cells.map((c) => c.cell.text)).toEqual(['$ 5.99', '$ 4.79', '$ 2.66', '$ 1.88']);
    expect(all?.cells[0]?.period).toBe('First Quarter 2018');
    expect(quarterCells(t, 'high price', 2018, [4, 3], none)?.cells.map((c) => c.cell.text)).toEqual(['$ 4.63', '$ 3.39']);
    // another year, or a column the question does not tell apart, is not read
    expect(quarterCells(t, 'low price', 2019, [], none)).toBeUndefined();
    expect(quarterCells(t, 'low and high price', 2018, [], none)).toBeUndefined();
  });

  it('reads maturity columns from a header of two rows, with what comes after them', () => {
    const t = reportTable('obligations.csv', 'Contractual obligations', [
      ['', 'Payments due by period', '', '', ''],
      ['', 'Less than 1 year', '1-3 years', '3-5 years', 'Thereafter'],
      ['Purchase obligations', '55,755', '16,220', '7,595', '17,649'],
    ]);
    expect(maturityColumns(t).map((c) => [c.from, c.to])).toEqual([
      [0, 1],
      [1, 3],
      [3, 5],
      [5, Number.POSITIVE_INFINITY],
    ]);
    expect(maturityCells(t, 'purchase obligations', { from: 0, to: 3 }, none)?.cells.map((c) => c.cell.text)).toEqual([
      '55,755',
      '16,220',
    ]);
    expect(maturityCells(t, 'purchase obligations', { from: 0, to: 4 }, none)).toBeUndefined();
  });
});
