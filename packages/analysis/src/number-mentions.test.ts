import { describe, expect, it } from 'vitest';
import { findNumbersAsWritten } from './number-mentions.js';

function read(text: string) {
  return findNumbersAsWritten(text).map((n) => {
    expect(Array.from(text).slice(n.span[0], n.span[1]).join('')).toBe(n.text);
    return { text: n.text, value: n.value, unit: n.unit };
  });
}

describe('findNumbersAsWritten', () => {
  it.each([
    [
      'Revenue exceeded $1.5 billion in 2022, up 12.5% from FY2021.',
      [
        ['$1.5 billion', 1.5e9, 'USD'],
        ['12.5%', 12.5, '%'],
      ],
    ],
    ['How many years had more than 10,000 shares?', [['10,000 shares', 10000, 'shares']]],
    ['price of 12 dollars', [['12 dollars', 12, 'USD']]],
    ['営業利益が1,000百万円以上の年は？', [['1,000百万円', 1e9, 'JPY']]],
    ['営業利益が１，０００百万円以上', [['１，０００百万円', 1e9, 'JPY']]],
    ['増減率は△5.2%', [['△5.2%', -5.2, '%']]],
    ['3割以上の会社', [['3割', 30, '%']]],
    ['一万二千人', [['一万二千人', 12000, '人']]],
    ['人口超过1000万的城市有哪些？', [['1000万', 1e7, undefined]]],
    ['面积大于三百平方公里', [['三百平方公里', 300, 'km²']]],
    ['约3亿元', [['约3亿元', 3e8, 'CNY']]],
    ['重量为380kg的气缸', [['380', 380, undefined]]],
    ['110kV电流互感器', [['110', 110, undefined]]],
  ])('%s', (text, expected) => {
    expect(read(text)).toEqual(expected.map(([t, value, unit]) => ({ text: t, value, unit })));
  });

  it.each([
    '三井物産の2020年の従業員数',
    '第一三共株式会社の一般管理費',
    '2022年の営業利益はいくらですか？',
    '2023年3月期第3四半期',
    '十二月の売上',
    'What was revenue in 2019?',
    'FY2022 and Q3 2023',
    '上海的人口是多少？',
    '隐身攻击机F-117A的航程',
    '苏-25攻击机',
    '使用10A-5和10A-5R的气缸',
    '2S3-2S5接线端子',
    '１株当たり当期純利益',
    '测绘服务总值是多少万元？',
  ])('finds no amount in %s', (text) => {
    expect(read(text)).toEqual([]);
  });
});
