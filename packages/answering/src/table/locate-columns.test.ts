import { describe, expect, it } from 'vitest';
import { reportTable } from '../figures/test-tables.js';
import { EN } from './lexicon/en.js';
import {
  askedColumn,
  conditionColumns,
  headerHits,
  money,
  ordinal,
  ranked,
  superlativeColumn,
  totalColumn,
  typedColumn,
  unitColumn,
  whoColumn,
  yearUnder,
} from './locate-columns.js';
import { matchRows, normal } from './locate-rows.js';
import type { QaTable } from './model.js';
import { questionTerms } from './plan-op.js';

const GAMES = reportTable('season.csv', 'season', [
  ['Game', 'Date', 'Opponent', 'Venue', 'Attendance', 'Gross'],
  ['1', 'March 3, 2009', 'Boston Blazers', 'Prudential Center', '12,000', '$120,000'],
  ['2', 'March 10, 2009', 'Chicago Shamrox', 'Sears Centre', '41,250', '$380,000'],
  ['3', 'March 17, 2009', 'Boston Blazers', 'TD Garden', '9,800', '$95,000'],
]);

const lower = (q: string): string => q.normalize('NFKC').toLowerCase();
const hitsOf = (q: string, table: QaTable) => headerHits(lower(q), questionTerms(lower(q), EN, new Map()), table.columns);
const nameOf = (c: { name: string } | undefined): string | undefined => c?.name;

describe('the columns a question names', () => {
  it('finds the headers the question says, by a word the header extends ("weighs" → Weight), best first', () => {
    const players = reportTable('players.csv', 'players', [
      ['Player', 'Height', 'Weight'],
      ['Ann', '180', '70'],
    ]);
    expect(hitsOf('how much does ann weigh?', players).map((h) => h.col.name)).toEqual(['Weight']);
    const hits = hitsOf('what was the attendance at the venue?', GAMES);
    expect(hits.map((h) => h.col.name).sort()).toEqual(['Attendance', 'Venue']);
    expect(hits.find((h) => h.col.name === 'Attendance')?.pos).toBe(13);
  });

  it('reads the column a wh-word asks for, a date column for "when", none when it names none', () => {
    expect(nameOf(askedColumn('which venue hosted game 2?', GAMES, new Set(), EN))).toBe('Venue');
    expect(nameOf(askedColumn('when did they play the chicago shamrox?', GAMES, new Set(), EN))).toBe('Date');
    expect(askedColumn('how many people came to game 2?', GAMES, new Set(), EN)).toBeUndefined();
    // a column left out is no answer
    expect(askedColumn('which venue hosted game 2?', GAMES, new Set([3]), EN)).toBeUndefined();
  });

  it('answers "name a constituency" from the Name column when only "Constituency number" says constituency', () => {
    const seats = reportTable('seats.csv', 'seats', [
      ['Constituency number', 'Name', 'District'],
      ['1', 'Gohad', 'Bhind'],
      ['2', 'Mehgaon', 'Bhind'],
    ]);
    expect(nameOf(askedColumn('name a constituency in bhind', seats, new Set(), EN))).toBe('Name');
  });

  it('reads the column of cells that name what is asked when no header does ("the last junction")', () => {
    const line = reportTable('line.csv', 'line', [
      ['Km', 'Stop'],
      ['0', 'Zivan Junction'],
      ['12', 'Shipon Junction'],
    ]);
    expect(nameOf(askedColumn('what is the last junction?', line, new Set(), EN))).toBe('Stop');
  });

  it('falls back on the type of what is asked: a date for "when", a number for "how many", else a name', () => {
    expect(nameOf(typedColumn('when was it?', GAMES, new Set(), EN))).toBe('Date');
    // "March 3, 2009" reads as a number (its year): the Date column is numeric too
    expect(nameOf(typedColumn('how many were there?', GAMES, new Set([0, 1]), EN))).toBe('Attendance');
    expect(nameOf(typedColumn('what was it?', GAMES, new Set(), EN))).toBe('Opponent');
    expect(nameOf(whoColumn('who did they play in game 2?', GAMES, new Set([1])))).toBe('Opponent');
    expect(whoColumn('what did they play in game 2?', GAMES, new Set())).toBeUndefined();
  });

  it('compares the column the words right after a superlative say ("the fewest participating nations")', () => {
    const games = reportTable('games.csv', 'games', [
      ['Year', 'Participants', 'Nations'],
      ['1990', '400', '12'],
      ['1994', '520', '9'],
    ]);
    const q = 'which year had the fewest participating nations?';
    const hits = hitsOf(q, games);
    expect(nameOf(superlativeColumn(q, 'min', hits, EN))).toBe('Nations');
    expect(superlativeColumn(q, 'max', hits, EN)).toBeUndefined();
  });

  it("counts in the unit the cells carry, or reads the row's Total", () => {
    const ships = reportTable('ships.csv', 'ships', [
      ['Class', 'Displacement', 'Total'],
      ['TE', '1,400 tons', '12'],
      ['TF', '1,600 tons', '8'],
    ]);
    expect(nameOf(unitColumn('how many tons does the te class displace?', ships))).toBe('Displacement');
    expect(unitColumn('how many ships are in the te class?', ships)).toBeUndefined();
    expect(nameOf(totalColumn(ships))).toBe('Total');
  });
});

describe('what a column holds', () => {
  it('tells a running number, places in an order and amounts of money from a measure', () => {
    const chart = reportTable('chart.csv', 'chart', [
      ['No.', 'Song', 'Peak', 'Sales'],
      ['1', 'A', '3rd', '$10'],
      ['2', 'B', '1st', '$12'],
      ['3', 'C', '12th', '$9'],
    ]);
    const [no, , peak, sales] = chart.columns;
    expect(no && ordinal(chart, no)).toBe(true);
    expect(sales && ordinal(chart, sales)).toBe(false);
    expect(peak && ranked(chart, peak)).toBe(true);
    expect(sales && money(chart, sales)).toBe(true);
    expect(no && money(chart, no)).toBe(false);
  });

  it('reads the columns the matched values were found in as conditions, not the answer', () => {
    const q = 'which venue hosted the chicago shamrox?';
    const qTerms = questionTerms(lower(q), EN, new Map());
    const rows = matchRows(GAMES, normal(q), qTerms, new Set(), new Map(), false);
    expect([...conditionColumns(lower(q), GAMES, rows, qTerms)]).toEqual([2]);
  });

  it("reads the year's column under the header the question names", () => {
    const dividends = reportTable('dividends.csv', 'dividends', [
      ['', 'Cash dividend per share', '', 'Shares'],
      ['', '2018', '2019', '2019'],
      ['Q1', '0.10', '0.12', '100'],
    ]);
    const years = dividends.columns.filter((c) => c.col >= 2);
    const named = dividends.columns.filter((c) => c.name.startsWith('Cash'));
    expect(
      yearUnder(
        dividends,
        years,
        named.map((col) => ({ col })),
      )?.col,
    ).toBe(2);
    expect(yearUnder(dividends, years, [])).toBeUndefined();
  });
});
