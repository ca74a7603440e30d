import { describe, expect, it } from 'vitest';
import { reportTable } from '../figures/test-tables.js';
import { EN } from './lexicon/en.js';
import { JA } from './lexicon/ja.js';
import { ZH_HANS } from './lexicon/zh-hans.js';
import { termsOf } from './model.js';
import { askedTerms, daysOf, excludedTerms, numericFilter, operation, questionTerms, yearSpan } from './plan-op.js';
import { boundOf } from './question-words.js';

const GAMES = reportTable('season.csv', 'season', [
  ['Game', 'Date', 'Opponent', 'Attendance', 'Points'],
  ['1', 'March 3', 'Boston Blazers', '12,000', '9'],
  ['2', 'March 10', 'Chicago Shamrox', '41,250', '14'],
  ['3', 'March 17', 'Toronto Rock', '9,800', '11'],
]);

describe('the operation a question asks, from its words', () => {
  it('reads each operation from the words of the question alone', () => {
    expect(operation('what is the difference in attendance between game 1 and game 2?', true, EN)).toBe('difference');
    expect(operation('which opponent came after the boston blazers?', false, EN)).toBe('next');
    expect(operation('which opponent came before the toronto rock?', false, EN)).toBe('previous');
    expect(operation('which game had the largest attendance?', true, EN)).toBe('max');
    expect(operation('which game had the lowest attendance?', true, EN)).toBe('min');
    expect(operation('who was the first opponent?', false, EN)).toBe('first');
    expect(operation('who was the last opponent?', false, EN)).toBe('last');
    expect(operation('what was the total attendance?', true, EN)).toBe('sum');
    expect(operation('how many games were played?', false, EN)).toBe('count');
    expect(operation('what was the attendance of game 2?', true, EN)).toBe('lookup');
  });

  it('reads the row after one over a superlative, and a superlative over first and last only when a number is named', () => {
    expect(operation('what is the next game after the one with the most points?', true, EN)).toBe('next');
    // "the first … most": with a number named the superlative compares it
    expect(operation('the first opponent with the most points', true, EN)).toBe('max');
    expect(operation('the first opponent with the most points', false, EN)).toBe('first');
  });

  it('counts "how many top …" when no number is there to compare, and adds them up when a total is asked', () => {
    expect(operation('how many top selling brands are listed?', false, EN)).toBe('count');
    expect(operation('how many top selling brands in total?', false, EN)).toBe('sum');
    expect(operation('how many top selling brands are listed?', true, EN)).toBe('max');
  });

  it("reads a Japanese or Chinese question's operation from its language's words", () => {
    expect(operation('売上高の合計はいくらですか', true, JA)).toBe('sum');
    expect(operation('2019年と2020年の売上高の差はいくらですか', true, JA)).toBe('difference');
    expect(operation('2021年の次の年度の従業員数', true, JA)).toBe('next');
    expect(operation('营业收入是多少', true, ZH_HANS)).toBe('lookup');
  });
});

describe('the value a question leaves out', () => {
  it('reads "other than X" up to the clause\'s end, with the words X is also said as', () => {
    const e = excludedTerms('other than the u.s., which country won the most medals?', EN);
    expect(e?.negated).toBe(false);
    expect(e?.terms.has('unit')).toBe(true);
    expect(excludedTerms('which country won the most medals?', EN)).toBeUndefined();
  });

  it('reads "not in X" as a condition on another column, up to a full stop', () => {
    const e = excludedTerms('name one that is not in the tikamgarh district.', EN);
    expect(e).toMatchObject({ negated: true, words: 2 });
    expect([...(e?.terms ?? [])]).toEqual(expect.arrayContaining(['tikamgarh', 'district']));
  });

  it("reads the value before 「以外」 back to the clause's start or a particle", () => {
    const e = excludedTerms('東京以外の支店はいくつありますか', JA);
    expect(e?.negated).toBe(false);
    expect([...termsOf('東京')].every((t) => e?.terms.has(t))).toBe(true);
    expect([...termsOf('支店')].some((t) => e?.terms.has(t))).toBe(false);
  });
});

describe('a numeric bound on rows', () => {
  it('bounds the numeric column the question names, else the one whose values span the bound', () => {
    const q = 'how many games had more than 10,000 people?';
    const bound = boundOf(q, EN);
    const attendance = GAMES.columns[3];
    const points = GAMES.columns[4];
    expect(numericFilter(bound, GAMES, [])).toMatchObject({ col: attendance, above: true, inclusive: false, value: 10000 });
    expect(numericFilter(bound, GAMES, points ? [points] : [])).toMatchObject({ col: points, value: 10000 });
    expect(numericFilter(undefined, GAMES, [])).toBeUndefined();
  });

  it("lets the bound itself pass when the question says so ('at least')", () => {
    expect(numericFilter(boundOf('games with at least 11 points', EN), GAMES, [])).toMatchObject({
      col: GAMES.columns[4],
      above: true,
      inclusive: true,
      value: 11,
    });
  });
});

describe('what else the question names', () => {
  it('weighs a term the index never saw as its rarest term, and leaves particles out of terms', () => {
    const weights = new Map([
      ['attend', 0.5],
      ['game', 2],
    ]);
    const terms = questionTerms('what was the attendance of the vigerbo game?', EN, weights);
    expect(terms.get('game')).toBe(2);
    expect(terms.get('vigerbo')).toBe(2);
    expect([...questionTerms('递延所得税的余额', ZH_HANS, new Map()).keys()].some((t) => t.includes('的'))).toBe(false);
  });

  it('reads the noun a wh-word asks for, not "what year" or "which one"', () => {
    expect([...askedTerms('which party won the seat?').terms]).toEqual(['parti']);
    expect(askedTerms('what year was it?').terms.size).toBe(0);
    expect([...askedTerms('name a constituency in the list').terms]).toEqual(['constitu']);
  });

  it('reads the months and days a question names, and the years of a decade or century', () => {
    expect(daysOf('who played on march 4, 2013 and the 20th of july?')).toEqual([
      { month: 'mar', day: '4' },
      { month: 'jul', day: '20' },
    ]);
    expect(yearSpan("the least caps in the 1990's")).toEqual([1990, 2000]);
    expect(yearSpan('built in the 1800s')).toEqual([1800, 1900]);
    expect(yearSpan('built in 1990')).toBeUndefined();
  });
});
