import { describe, expect, it } from 'vitest';
import { reportTable } from '../figures/test-tables.js';
import { lexiconFor } from './lexicon/index.js';
import { conditionColumns, headerHits } from './locate-columns.js';
import type { Located, Operands } from './locate-operands.js';
import { filteredOperands, operands, yearOperands } from './locate-operands.js';
import { matchRows, normal } from './locate-rows.js';
import type { QaTable } from './model.js';
import { periodColumns } from './period-columns.js';
import type { TableOp } from './plan-op.js';
import { questionTerms } from './plan-op.js';
import { boundOf } from './question-words.js';

/** The rows and columns a question locates in a table, as the plan reads them with no index weights. */
function locate(question: string, table: QaTable): Located {
  const words = lexiconFor(question);
  const q = question.normalize('NFKC').toLowerCase();
  const qTerms = questionTerms(q, words, new Map());
  const hits = headerHits(q, qTerms, table.columns);
  const headerTerms = new Set(hits.flatMap((h) => [...h.col.terms]));
  const named = new Map(hits.map((h) => [h.col.col, h.score / (hits[0]?.score ?? 1)]));
  const matched = matchRows(table, normal(question), qTerms, headerTerms, named, words.lang !== 'en');
  const conditionCols = conditionColumns(q, table, matched, qTerms);
  const comparing = /\bor\b/.test(q) && conditionCols.size > 0;
  return { question, q, table, words, qTerms, hits, matched, best: matched[0]?.score ?? 0, conditionCols, comparing };
}

const plain = { byTime: false, shared: undefined, exclusion: undefined, saidRow: undefined };
const read = (question: string, table: QaTable, op: TableOp): Operands => operands(locate(question, table), op, plain);
const names = (o: Operands) => ({ op: o.op, answer: o.answer?.name, measure: o.measure?.name, reading: o.reading });

const GAMES = reportTable('season.csv', 'season', [
  ['Game', 'Opponent', 'Venue', 'Attendance'],
  ['1', 'Boston Blazers', 'Prudential Center', '12,000'],
  ['2', 'Chicago Shamrox', 'Sears Centre', '41,250'],
  ['3', 'Boston Blazers', 'TD Garden', '9,800'],
  ['4', 'Toronto Rock', 'Prudential Center', '15,300'],
]);

describe('the columns of a superlative, a total or a difference', () => {
  it('compares the numeric column named and answers with the column asked', () => {
    expect(names(read('which opponent had the largest attendance?', GAMES, 'max'))).toEqual({
      op: 'max',
      answer: 'Opponent',
      measure: 'Attendance',
      reading: 'value',
    });
  });

  it('reads "the highest" on a column of places as the smallest number', () => {
    const chart = reportTable('chart.csv', 'chart', [
      ['Song', 'Peak'],
      ['A', '3'],
      ['B', '1'],
      ['C', '12'],
    ]);
    expect(names(read('which song had the highest peak?', chart, 'max'))).toMatchObject({ op: 'min', measure: 'Peak' });
  });

  it('counts the values a cell lists when "more" asks how many, and measures a term by how long it lasted', () => {
    const teams = reportTable('teams.csv', 'teams', [
      ['Team', 'Premierships'],
      ['Souths', '1996, 2001'],
      ['Wests', '1999'],
    ]);
    expect(names(read('which team had more premierships?', teams, 'max'))).toMatchObject({
      measure: 'Premierships',
      reading: 'items',
    });
    const coaches = reportTable('coaches.csv', 'coaches', [
      ['Coach', 'Term'],
      ['Ann', '1927–1938'],
      ['Bo', '1938–1941'],
    ]);
    expect(names(read('who served the longest term?', coaches, 'max'))).toMatchObject({
      answer: 'Coach',
      measure: 'Term',
      reading: 'length',
    });
  });

  it('reads "the most …" with no number named as the value the most rows hold', () => {
    const o = read('which venue hosted the most games?', GAMES, 'max');
    expect(o).toMatchObject({ frequency: true, measure: undefined });
    expect(o.answer?.name).toBe('Venue');
  });
});

describe('the columns of the other operations', () => {
  it('answers "the same … as" from the column asked, the shared column its measure', () => {
    const venue = GAMES.columns[2];
    const o = operands(locate('which opponent played at the same venue as the toronto rock?', GAMES), 'same', {
      ...plain,
      shared: venue,
    });
    expect(names(o)).toMatchObject({ op: 'same', answer: 'Opponent', measure: 'Venue' });
  });

  it('answers the row after one from the column its anchor value is in', () => {
    expect(read('which opponent came after the chicago shamrox?', GAMES, 'next').answer?.name).toBe('Opponent');
    expect(read('what came after the chicago shamrox?', GAMES, 'next').answer?.name).toBe('Opponent');
  });

  it("counts in the unit the named row's cells carry", () => {
    const ships = reportTable('ships.csv', 'ships', [
      ['Class', 'Displacement', 'Builder'],
      ['TE', '1,400 tons', 'Yarrow'],
      ['TF', '1,600 tons', 'Thornycroft'],
    ]);
    expect(names(read('how many tons does the te class displace?', ships, 'count'))).toMatchObject({
      op: 'count',
      measure: 'Displacement',
    });
  });

  it('answers a lookup from the cell beside the label the question names (「木星的公转周期」), its row first', () => {
    const profile = reportTable('jupiter.csv', 'planets', [
      ['项目', '内容', '项目', '内容'],
      ['名称', '木星', '别名', '岁星'],
      ['质量', '1.9e27', '公转周期', '11.862年'],
    ]);
    const at = locate('木星的公转周期是多少？', profile);
    const o = operands(at, 'lookup', plain);
    expect(at.matched[0]?.row.index).toBe(1);
    expect(o.answer?.col).toBe(3);
  });
});

describe('a year named, a bound on rows', () => {
  const SALES = reportTable('sales.csv', 'sales', [
    ['Segment', '2019', '2020'],
    ['Retail', '120', '140'],
    ['Wholesale', '80', '95'],
  ]);

  it("reads a lookup from the year's column of a table whose columns are periods", () => {
    const at = locate('what were retail sales in 2020?', SALES);
    const periods = periodColumns(SALES);
    const years = SALES.columns.filter((c) => periods.years.get(c.col) === 2020);
    const o = yearOperands(at, operands(at, 'lookup', plain), years, periods, undefined);
    expect(o.answer?.name).toBe('2020');
    // a question that asks when is not moved to a year
    const when = locate('when were retail sales 120?', SALES);
    const asked = operands(when, 'lookup', plain);
    expect(yearOperands(when, asked, years, periods, undefined)).toBe(asked);
  });

  it('counts the rows a bound passes, and answers from another column than the bounded one', () => {
    const q = 'how many games had an attendance of more than 12,500?';
    const at = locate(q, GAMES);
    const bound = boundOf(at.q, at.words);
    const { operands: o, filter } = filteredOperands(at, { ...operands(at, 'count', plain) }, bound);
    expect(filter).toMatchObject({ col: GAMES.columns[3], above: true, value: 12500 });
    expect(o.measure).toBeUndefined();
    const which = locate('which opponent drew an attendance of more than 40,000?', GAMES);
    const picked = filteredOperands(which, operands(which, 'lookup', plain), boundOf(which.q, which.words));
    expect(picked.operands.answer?.name).toBe('Opponent');
    // a superlative is not bounded
    expect(filteredOperands(at, { ...operands(at, 'max', plain) }, bound).filter).toBeUndefined();
  });
});
