import { describe, expect, it } from 'vitest';
import { reportTable } from '../figures/test-tables.js';
import { bodyRows, execute } from './compute.js';
import type { QaTable } from './model.js';
import { planQuestion } from './question.js';

const run = (q: string, table: QaTable) => execute(table, planQuestion(q, table, new Map()));
const texts = (cells: { text: string }[] | undefined) => cells?.map((c) => c.text);

const MEDALS = reportTable('medals.csv', 'medals', [
  ['Nation', 'Gold', 'Silver'],
  ['Kenya', '6', '4'],
  ['Ethiopia', '3', '5'],
  ['Morocco', '1', '1'],
  ['Total', '10', '10'],
]);

describe('computing a plan on its table', () => {
  it('leaves a totals row out of the rows superlatives and counts read', () => {
    expect(bodyRows(MEDALS).map((r) => r.cells.get(0)?.text)).toEqual(['Kenya', 'Ethiopia', 'Morocco']);
    const most = run('which nation won the most silver medals?', MEDALS);
    expect(most).toMatchObject({ value: 'Ethiopia', how: 'largest Silver of 3 rows' });
    expect(texts(most?.cells)).toEqual(['Ethiopia', '5']);
  });

  it('adds up the rows named, citing each cell, and reads the total of one row as its cell', () => {
    const sum = run('how many gold medals did kenya and ethiopia win combined?', MEDALS);
    expect(sum).toMatchObject({ value: '9', how: 'sum of Gold over 2 rows' });
    expect(sum?.answerCell).toBeUndefined();
    expect(texts(sum?.cells)?.sort()).toEqual(['3', '6']);
    const one = run('how many gold medals did kenya win combined?', MEDALS);
    expect(one).toMatchObject({ value: '6', how: 'lookup: Gold of the row that matches the question' });
  });

  it('subtracts the measure of the two rows named', () => {
    const d = run('what is the difference in gold medals between kenya and morocco?', MEDALS);
    // the rows in the order they matched, the difference without its sign
    expect(d).toMatchObject({ value: '5', how: 'difference of Gold: 1 and 6' });
  });

  it('counts the rows a bound passes, citing the cells compared', () => {
    const n = run('how many nations won more than 2 gold medals?', MEDALS);
    expect(n).toMatchObject({ value: '2', how: 'count of 2 rows with Gold > 2' });
    expect(texts(n?.cells)).toEqual(['6', '3']);
  });

  it('steps back in time down a table that lists the newest rows first', () => {
    const winners = reportTable('winners.csv', 'winners', [
      ['Year', 'Winner'],
      ['2012', 'Ann'],
      ['2011', 'Bo'],
      ['2010', 'Cy'],
      ['2009', 'Di'],
    ]);
    expect(run('who won the year before bo?', winners)?.value).toBe('Cy');
    expect(run('who won the year after bo?', winners)?.value).toBe('Ann');
  });

  it('answers nothing when the rows it needs are not there', () => {
    expect(run('what is the difference in gold medals between kenya and peru?', MEDALS)).toBeUndefined();
  });
});
