import { describe, expect, it } from 'vitest';
import { dayMonths } from './days.js';

describe('dayMonths', () => {
  it('reads the days of months a text names, either way round, once each', () => {
    expect(dayMonths('from 1 January 2018 to 1 January 2019')).toEqual(['1-1']);
    expect(dayMonths('between December 31, 2018 and 30th June 2019')).toEqual(['12-31', '6-30']);
    expect(dayMonths('At 31 December')).toEqual(['12-31']);
  });
  it('reads no day where a text names a month or a year alone, or no day a month has', () => {
    expect(dayMonths('in January 2019')).toEqual([]);
    expect(dayMonths('the year 2019')).toEqual([]);
    expect(dayMonths('45 March')).toEqual([]);
  });
});
