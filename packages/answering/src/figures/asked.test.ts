import { describe, expect, it } from 'vitest';
import { askedForm, otherCurrency, stateFigure } from './asked.js';
import { FIGURE_WORDS } from './words.js';

describe('askedForm', () => {
  it('reads the scale a question asks, in each language', () => {
    expect(askedForm("What is Netflix's FY2017 total current liabilities (in USD millions)?")).toEqual({
      scale: 1e6,
      currency: 'USD',
    });
    expect(askedForm('Answer in USD billions.')).toEqual({ scale: 1e9, currency: 'USD' });
    expect(askedForm('What was the capex in $ thousands?')).toEqual({ scale: 1e3 });
    expect(askedForm('営業利益は億円でいくらですか？')).toEqual({ scale: 1e8, currency: 'JPY' });
    expect(askedForm('营业收入以亿元计是多少？')).toEqual({ scale: 1e8 });
    expect(askedForm('营业收入以人民币亿元计是多少？')).toEqual({ scale: 1e8, currency: 'CNY' });
    expect(askedForm('營業收入以萬元計是多少？')).toEqual({ scale: 1e4 });
  });
  it('tells a figure stated in another currency than the one asked', () => {
    expect(otherCurrency({ currency: 'USD' }, 'JPY')).toBe('JPY');
    expect(otherCurrency({ currency: 'USD' }, 'USD')).toBeUndefined();
    // a unit of count, or no currency asked, is nothing to convert
    expect(otherCurrency({ currency: 'USD' }, '人')).toBeUndefined();
    expect(otherCurrency({}, 'JPY')).toBeUndefined();
  });
  it('reads the rounding a question asks', () => {
    expect(askedForm('What is the FY2022 retention ratio? Round answer to two decimal places.')).toEqual({ decimals: 2 });
    expect(askedForm('Answer in units of percents and round to one decimal place.')).toEqual({ decimals: 1 });
    expect(askedForm('to the nearest whole number')).toEqual({ decimals: 0 });
    expect(askedForm('小数第1位まで答えてください')).toEqual({ decimals: 1 });
    expect(askedForm('保留两位小数')).toEqual({ decimals: 2 });
  });
  it('asks nothing of a plain question, nor of "in millions of" phrases naming no answer form', () => {
    expect(askedForm('What was the change in revenue from 2018 to 2019?')).toEqual({});
  });
});

describe('stateFigure', () => {
  const en = FIGURE_WORDS.en;
  it('converts to the scale asked, the conversion shown and the value in the asked scale', () => {
    expect(stateFigure(5466312, { scale: 1e3, unit: 'USD', percent: false }, { scale: 1e6 }, en)).toEqual({
      text: '$5,466,312 thousand = $5,466.31 million',
      value: { number: 5466.31, scale: 'million', unit: 'USD' },
    });
    expect(stateFigure(8738, { scale: 1e6, unit: 'USD', percent: false }, { scale: 1e9 }, en).text).toBe(
      '$8,738 million = $8.74 billion',
    );
  });
  it('rounds as asked, and leaves a percentage in percent', () => {
    expect(stateFigure(0.54042, { scale: 1, percent: false }, { decimals: 2 }, en).value.number).toBe(0.54);
    expect(stateFigure(16.5234, { scale: 1, percent: true }, { scale: 1e6, decimals: 1 }, en)).toEqual({
      text: '16.5%',
      value: { number: 16.5, scale: 'percent', unit: '%' },
    });
  });
  it('states the figure in the asked scale in Japanese and Chinese', () => {
    expect(stateFigure(168000, { scale: 1e6, unit: 'JPY', percent: false }, { scale: 1e8 }, FIGURE_WORDS.ja).text).toBe(
      '168,000百万円 = 1,680億円',
    );
    expect(stateFigure(32000, { scale: 1e4, unit: 'CNY', percent: false }, { scale: 1e8 }, FIGURE_WORDS['zh-Hans']).text).toBe(
      '32,000万元 = 3.2亿元',
    );
  });
});
