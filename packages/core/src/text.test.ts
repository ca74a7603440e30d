import { describe, expect, it } from 'vitest';
import { escapeRegExp } from './text.js';

describe('escapeRegExp', () => {
  it('matches a text with pattern characters literally', () => {
    for (const text of ['PP&E (net)', 'a.b*c+d?', '[$5.11]', 'x^2 | {y}', 'C:\\path']) {
      expect(new RegExp(`^${escapeRegExp(text)}$`, 'u').test(text)).toBe(true);
    }
    expect(new RegExp(escapeRegExp('a.c')).test('abc')).toBe(false);
  });
});
