import { describe, expect, it } from 'vitest';
import { itemText, planFigure, yearsNamed } from './plan.js';

const read = (q: string) => {
  const p = planFigure(q);
  return p && { op: p.op, years: p.years, percent: p.percent, item: itemText(p), lang: p.words.lang };
};

describe('planFigure', () => {
  it('keeps a hyphenated name whole: "share-based" names no share', () => {
    expect(read('What was the average Adjustment for share-based payments for 2018 and 2019?')).toMatchObject({
      op: 'average',
      item: 'Adjustment for share-based payments',
    });
  });
  it('reads a ratio of one line item over two periods, in the order the question names them', () => {
    const p = planFigure('What is the ratio of the gross cost of land, property, and equipment in fiscal 2019 to fiscal 2018?');
    expect(p && { op: p.op, items: p.items.length, years: p.years }).toEqual({ op: 'ratio', items: 1, years: [2019, 2018] });
  });
  it('asks the average of "Selling, general and administrative", not an average selling price', () => {
    expect(read('What is the average Selling, general and administrative?')?.op).toBe('average');
    expect(read('What was the average selling price in 2019?')).toBeUndefined();
  });
  it('reads English operations, their line item and years', () => {
    expect(read('What was the change in the Net cash provided by (used in) investing activities from 2017 to 2018?')).toEqual({
      op: 'change',
      years: [2017, 2018],
      percent: false,
      item: 'Net cash provided by (used in) investing activities',
      lang: 'en',
    });
    expect(read('What was the percentage change in Other long-term liabilities between 2018 and 2019?')).toMatchObject({
      op: 'pctChange',
      percent: true,
      item: 'Other long-term liabilities',
    });
    expect(read('What was the average cost of revenue for 2017-2019?')).toMatchObject({
      op: 'average',
      years: [2017, 2018, 2019],
    });
    expect(read('What is the total number of nonvested shares as of December 31, 2019 and 2018?')).toMatchObject({ op: 'sum' });
    expect(planFigure('What is the ratio of the gross cost of land to the total cost in fiscal 2019?')?.op).toBe('ratio');
    expect(
      read('What percentage of the total unrealized gain is generated from U.S. government obligations in 2018?'),
    ).toMatchObject({
      op: 'share',
      percent: true,
    });
    expect(read('What was the employee termination costs as a proportion of total costs in 2018?')).toMatchObject({
      op: 'share',
      percent: false,
    });
    expect(
      planFigure('In 2019, what is the percentage constitution of prepaid expenses among the total prepaid expenses?'),
    ).toMatchObject({
      op: 'share',
      items: ['prepaid expenses', 'the total prepaid expenses?'],
    });
  });
  it('reads "average shares" over periods as an average, "weighted average shares" as a line item', () => {
    expect(planFigure('What is the average shares vested between 2018 and 2019?')).toMatchObject({
      op: 'average',
      years: [2018, 2019],
    });
    expect(planFigure('What were the weighted average shares outstanding in 2019 and 2018?')?.op).not.toBe('average');
  });
  it('reads the quarters a question names, or each quarter of the year', () => {
    expect(planFigure('In 2019, what is the change in high price between the third quarter and fourth quarter?')).toMatchObject({
      op: 'change',
      years: [2019],
      quarters: [3, 4],
    });
    expect(planFigure('What is the average quarterly low price for 2019?')).toMatchObject({ op: 'average', quarters: [] });
    expect(planFigure('2018年の第3四半期から第4四半期への安値の増減は？')).toMatchObject({
      op: 'change',
      years: [2018],
      quarters: [3, 4],
    });
    expect(planFigure('2019年第三季度和第四季度的营业收入的平均值是多少？')).toMatchObject({
      op: 'average',
      years: [2019],
      quarters: [3, 4],
    });
    expect(planFigure('What is the average revenue for 2018 and 2019?')).not.toHaveProperty('quarters');
  });
  it('reads Japanese, Simplified and Traditional Chinese operations', () => {
    expect(read('のれんの2018年から2019年の増減率はいくらですか？')).toMatchObject({
      op: 'pctChange',
      item: 'のれん',
      lang: 'ja',
    });
    expect(read('売上高の2018年と2019年の平均はいくらですか？')).toMatchObject({
      op: 'average',
      years: [2018, 2019],
      lang: 'ja',
    });
    expect(read('営業利益の2019年の増減はいくらですか？')).toMatchObject({ op: 'change', lang: 'ja' });
    expect(planFigure('総資産に占める現金の割合は2019年にいくらですか？')).toMatchObject({
      op: 'share',
      items: ['現金', '総資産'],
    });
    expect(read('2019年营业收入同比增长是多少？')).toMatchObject({ op: 'pctChange', item: '营业收入', lang: 'zh-Hans' });
    expect(read('2018年和2019年净利润的平均值是多少？')).toMatchObject({ op: 'average', lang: 'zh-Hans' });
    expect(read('2019年營業收入的變動是多少？')).toMatchObject({ op: 'change', lang: 'zh-Hant' });
    expect(planFigure('2019年现金占总资产的比例是多少？')).toMatchObject({ op: 'share' });
  });
  it('reads no operation in a lookup, or in a quoted name', () => {
    expect(planFigure('What was 3M’s capital expenditure in 2018?')).toBeUndefined();
    expect(planFigure('三井物産株式会社の2020年時点における「平均年齢（年）、提出会社の状況」は？')).toBeUndefined();
  });
  it('reads runs of years and fiscal years', () => {
    expect(yearsNamed('between fiscal years 2017-2019')).toEqual([2017, 2018, 2019]);
    expect(yearsNamed('FY2019 - FY2021 3 year average')).toEqual([2019, 2021]);
    expect(yearsNamed('2017年～2019年')).toEqual([2017, 2018, 2019]);
  });
});
