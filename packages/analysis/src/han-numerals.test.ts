import { describe, expect, it } from 'vitest';
import { parseHanNumeral } from './han-numerals.js';

describe('parseHanNumeral', () => {
  it.each([
    ['三百二十', 320],
    ['二千二十二', 2022],
    ['一万二千', 12000],
    ['两百', 200],
    ['兩百', 200],
    ['十', 10],
    ['十二', 12],
    ['二十', 20],
    ['三百零五', 305],
    ['二〇二二', 2022],
    ['一一一', 111],
    ['一百一十一', 111],
    ['万', 10000],
    ['十萬', 100000],
    ['三億', 300000000],
    ['1.2万', 12000],
    ['3億5000万', 350000000],
    ['1兆2000億', 1.2e12],
    ['五十', 50],
    ['仟', 1000],
  ])('%s = %d', (text, value) => {
    expect(parseHanNumeral(text)).toBe(value);
  });

  it.each(['', '年', '三a', '万億', '12三'])('%s is not a numeral', (text) => {
    expect(parseHanNumeral(text)).toBeNull();
  });
});
