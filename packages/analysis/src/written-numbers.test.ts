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
    ['3.2万亿', { value: 3.2e12, scale: 1e12, negative: false }],
    ['1,234千円', { value: 1234000, scale: 1e3, unit: 'JPY', negative: false }],
    ['RMB 1.2 billion', { value: 1.2e9, scale: 1e9, unit: 'CNY', negative: false }],
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
    ['百分之五十', { value: 50, unit: '%', negative: false }],
    ['3割', { value: 30, unit: '%', negative: false }],
    ['三成', { value: 30, unit: '%', negative: false }],
    ['約1,200', { value: 1200, negative: false, approximate: true }],
    ['约100人', { value: 100, unit: '人', negative: false, approximate: true }],
    ['100人左右', { value: 100, unit: '人', negative: false, approximate: true }],
    ['about $5 million', { value: 5e6, scale: 1e6, unit: 'USD', negative: false, approximate: true }],
    ['(12.5%)', { value: -12.5, unit: '%', negative: true }],
    ['▲1.2%', { value: -1.2, unit: '%', negative: true }],
  ])('%s', (text, expected) => {
    expect(parseNumberAsWritten(text)).toEqual(expected);
  });

  it('takes a long cell for text', () => {
    expect(parseNumberAsWritten('1'.repeat(65))).toBeNull();
    expect(parseNumberAsWritten(`${'1,000,'.repeat(20)}000`)).toBeNull();
  });

  it.each(['', '-', '—', 'n/a', '成', '割', '約', '2022年', '第3', '人口', '12,34', '1.2.3', 'FY2022', 'abc', '3Q23'])(
    '%s is not a number',
    (text) => {
      expect(parseNumberAsWritten(text)).toBeNull();
    },
  );
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
    ['变动比例%', { scale: 1, unit: '%', label: '变动比例' }],
    ['Appropriation of earnings (in thousand NT dollars)', { scale: 1e3, unit: 'TWD', label: 'Appropriation of earnings' }],
    ['Cash dividend per share (NT dollars)', { scale: 1, unit: 'TWD', label: 'Cash dividend per share' }],
    ['(in thousands of U.S. dollars)', { scale: 1e3, unit: 'USD', label: '' }],
    ['(dollars in thousands)', { scale: 1e3, unit: 'USD', label: '' }],
    ['€m', { scale: 1e6, unit: 'EUR', label: '' }],
    ['USD', { scale: 1, unit: 'USD', label: '' }],
    ['Percent', { scale: 1, unit: '%', label: '' }],
    ['52 weeks ended 30 Mar 2019 £m', { scale: 1e6, unit: 'GBP', label: '52 weeks ended 30 Mar 2019' }],
    ['US$’000', { scale: 1e3, unit: 'USD', label: '' }],
    ['2019 RMB’Million', { scale: 1e6, unit: 'CNY', label: '2019' }],
    [
      'All figures in USD ‘000, except TCE rate per day',
      { scale: 1e3, unit: 'USD', label: 'All figures in, except TCE rate per day' },
    ],
  ])('%s', (header, expected) => {
    expect(headerScale(header)).toEqual(expected);
  });

  it.each(['従業員数', 'Sales', 'Shares', 'Employees', 'Sales (2022)', '1株当たり配当金', '単元株式数 100株 (単元の株式)'])(
    '%s declares no scale',
    (header) => {
      expect(headerScale(header)).toEqual({ scale: 1, label: header });
    },
  );

  it('reads m and mm alone as lengths, not millions', () => {
    expect(headerScale('长度（m）')).toEqual({ scale: 1, label: '长度（m）'.normalize('NFKC') });
    expect(headerScale('最大行程S（mm）').scale).toBe(1);
  });
});
