import { describe, expect, it } from 'vitest';
import { linesFromTsv } from './tsv.js';

const HEAD = 'level\tpage_num\tblock_num\tpar_num\tline_num\tword_num\tleft\ttop\twidth\theight\tconf\ttext';

/** Tesseract TSV of one line of the given words, each 40 px wide. */
function tsvOf(words: string[]): string {
  const rows = words.map((w, i) => `5\t1\t1\t1\t1\t${i + 1}\t${i * 40}\t0\t40\t20\t90\t${w}`);
  return [HEAD, '1\t1\t0\t0\t0\t0\t0\t0\t400\t100\t-1\t', ...rows].join('\n');
}

describe('linesFromTsv', () => {
  it('reads an angle bracket that a parenthesis closes as the parenthesis, one character for one', () => {
    const [line] = linesFromTsv(tsvOf(['西医院〈四川大学', '华西临床医学院', ')', '，成都'])).lines;
    expect(line?.words.map((w) => w.text)).toEqual(['西医院(四川大学', '华西临床医学院', ')', '，成都']);
    expect(line?.text).toBe('西医院(四川大学华西临床医学院 ) ，成都');
    const [fullWidth] = linesFromTsv(tsvOf(['有〈中华人民共和国）国家'])).lines;
    expect(fullWidth?.text).toBe('有（中华人民共和国）国家');
  });

  it('keeps angle brackets that close as angle brackets, and one left open', () => {
    expect(linesFromTsv(tsvOf(['〈书名〉', '(上)'])).lines[0]?.text).toBe('〈书名〉 (上)');
    expect(linesFromTsv(tsvOf(['肺循环〈此可能'])).lines[0]?.text).toBe('肺循环〈此可能');
  });
});
