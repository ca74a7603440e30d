import { describe, expect, it } from 'vitest';
import { headerScale } from './header-scale.js';
import { parseNumberAsWritten } from './written-numbers.js';

describe('parseNumberAsWritten', () => {
  it.each([
    ['1,234', { value: 1234, negative: false }],
    ['１，２３４', { value: 1234, negative: false }],
    ['12.5', { value: 12.5, negative: false }],
    ['.5', { value: 0.5, negative: false }],
    ['(1,234)', { value: -1234, negative: true }],
    ['△123', { value: -123, negative: true }],
    ['▲123', { value: -123, negative: true }],
    ['-123', { value: -123, negative: true }],
    ['−123', { value: -123, negative: true }],
    ['+5.2%', { value: 5.2, unit: '%', negative: false }],
    ['12.5%', { value: 12.5, unit: '%', negative: false }],
    ['12 ％', { value: 12, unit: '%', negative: false }],
    ['$1,577', { value: 1577, unit: 'USD', negative: false }],
    ['$(1,234)', { value: -1234, unit: 'USD', negative: true }],
    ['($1,234)', { value: -1234, unit: 'USD', negative: true }],
    ['US$ 12', { value: 12, unit: 'USD', negative: false }],
    ['¥300', { value: 300, unit: '¥', negative: false }],
    ['￥300', { value: 300, unit: '¥', negative: false }],
    ['€2.5', { value: 2.5, unit: 'EUR', negative: false }],
    ['1.2万', { value: 12000, scale: 1e4, negative: false }],
    ['3億', { value: 3e8, scale: 1e8, negative: false }],
    ['3亿', { value: 3e8, scale: 1e8, negative: false }],
    ['1兆', { value: 1e12, scale: 1e12, negative: false }],
    ['1,234百万円', { value: 1.234e9, scale: 1e6, unit: 'JPY', negative: false }],
    ['△1,234百万円', { value: -1.234e9, scale: 1e6, unit: 'JPY', negative: true }],
    ['300万人', { value: 3e6, scale: 1e4, unit: '人', negative: false }],
    ['12.5亿元', { value: 1.25e9, scale: 1e8, unit: 'CNY', negative: false }],
    ['3.5平方公里', { value: 3.5, unit: 'km²', negative: false }],
    ['12億3,456万円', { value: 1234560000, unit: 'JPY', negative: false }],
    ['$1.5 billion', { value: 1.5e9, scale: 1e9, unit: 'USD', negative: false }],
    ['1.5 million', { value: 1.5e6, scale: 1e6, negative: false }],
    ['2.3bn', { value: 2.3e9, scale: 1e9, negative: false }],
    ['$5M', { value: 5e6, scale: 1e6, unit: 'USD', negative: false }],
    ['HK$1.2bn', { value: 1.2e9, scale: 1e9, unit: 'HKD', negative: false }],
    ['三百二十', { value: 320, negative: false }],
    ['二千二十二', { value: 2022, negative: false }],
    ['一万二千', { value: 12000, negative: false }],
    ['两百', { value: 200, negative: false }],
    ['五十%', { value: 50, unit: '%', negative: false }],
    ['三百人', { value: 300, unit: '人', negative: false }],
    ['百万円', { value: 1e6, unit: 'JPY', negative: false }],
  ])('%s', (text, expected) => {
    expect(parseNumberAsWritten(text)).toEqual(expected);
  });

  it.each(['', '-', '—', 'n/a', '人口', '12,34', '1.2.3', 'FY2022', 'abc', '3Q23'])('%s is not a number', (text) => {
    expect(parseNumberAsWritten(text)).toBeNull();
  });
});

describe('headerScale', () => {
  it.each([
    ['売上高（百万円）', { scale: 1e6, unit: 'JPY', label: '売上高' }],
    ['営業利益(千円)', { scale: 1e3, unit: 'JPY', label: '営業利益' }],
    ['従業員数（人）', { scale: 1, unit: '人', label: '従業員数' }],
    ['人口（万人）', { scale: 1e4, unit: '人', label: '人口' }],
    ['面积（平方公里）', { scale: 1, unit: 'km²', label: '面积' }],
    ['营业收入（亿元）', { scale: 1e8, unit: 'CNY', label: '营业收入' }],
    ['金额（千元）', { scale: 1e3, unit: 'CNY', label: '金额' }],
    ['營業收入（萬元）', { scale: 1e4, unit: 'CNY', label: '營業收入' }],
    ['(単位：百万円)', { scale: 1e6, unit: 'JPY', label: '' }],
    ['单位：人民币万元', { scale: 1e4, unit: 'CNY', label: '' }],
    ['百万円', { scale: 1e6, unit: 'JPY', label: '' }],
    ['%', { scale: 1, unit: '%', label: '' }],
    ['Revenue (in millions)', { scale: 1e6, label: 'Revenue' }],
    ['Revenue in millions', { scale: 1e6, label: 'Revenue' }],
    ['$ in thousands', { scale: 1e3, unit: 'USD', label: '' }],
    ['(in millions, except per share data)', { scale: 1e6, label: '' }],
    ['(in millions of dollars)', { scale: 1e6, unit: 'USD', label: '' }],
    ['Net income (USD millions)', { scale: 1e6, unit: 'USD', label: 'Net income' }],
    ['Revenue ($M)', { scale: 1e6, unit: 'USD', label: 'Revenue' }],
    ['Amount (¥ billion)', { scale: 1e9, unit: '¥', label: 'Amount' }],
    ['Margin (%)', { scale: 1, unit: '%', label: 'Margin' }],
  ])('%s', (header, expected) => {
    expect(headerScale(header)).toEqual(expected);
  });

  it.each(['従業員数', 'Sales', 'Shares', 'Employees', 'Sales (2022)', '1株当たり配当金'])('%s declares no scale', (header) => {
    expect(headerScale(header)).toEqual({ scale: 1, label: header });
  });
});
