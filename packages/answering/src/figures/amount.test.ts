import { describe, expect, it } from 'vitest';
import { amountOf, nilOf } from './amount.js';

describe('amountOf', () => {
  it('reads a report cell as the signed figure it writes', () => {
    expect(amountOf('1,577')?.number).toBe(1577);
    expect(amountOf('$ (1,577)')?.number).toBe(-1577);
    expect(amountOf('(71)')?.number).toBe(-71);
    expect(amountOf('△ 300,299')?.number).toBe(-300299);
    expect(amountOf('▲1.2')?.number).toBe(-1.2);
    expect(amountOf('−5')?.number).toBe(-5);
    expect(amountOf('$120.7')?.number).toBe(120.7);
    expect(amountOf('￥3,000')?.number).toBe(3000);
  });
  it('keeps what the document wrote, and whether it is a percentage', () => {
    const a = amountOf(' 34% ');
    expect(a).toMatchObject({ number: 34, written: '34%', percent: true, decimals: 0 });
    expect(amountOf('(2.5)%')).toMatchObject({ number: -2.5, percent: true, decimals: 1 });
  });
  it('is no amount for words, ranges or half brackets', () => {
    expect(amountOf('3-5')).toBeNull();
    expect(amountOf('Note 4')).toBeNull();
    expect(amountOf('—')).toBeNull();
    expect(amountOf('(1,577')).toBeNull();
    expect(amountOf('')).toBeNull();
  });
  it('reads a dash as nil, and nothing else', () => {
    expect(nilOf('—')).toMatchObject({ number: 0, written: '0' });
    expect(nilOf('$ -')).toMatchObject({ number: 0 });
    expect(nilOf('–%')).toMatchObject({ number: 0, percent: true });
    expect(nilOf('n/a')).toBeNull();
    expect(nilOf('3-5')).toBeNull();
    expect(nilOf('')).toBeNull();
  });
});
