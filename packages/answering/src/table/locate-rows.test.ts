import { describe, expect, it } from 'vitest';
import { reportTable } from '../figures/test-tables.js';
import { EN } from './lexicon/en.js';
import { balanceRows, excluding, keptCell, leadingRow, matchRows, nearTerms, normal } from './locate-rows.js';
import type { QaTable } from './model.js';
import { excludedTerms, questionTerms } from './plan-op.js';

const GAMES = reportTable('season.csv', 'season', [
  ['Game', 'Date', 'Opponent', 'Venue', 'Attendance'],
  ['1', 'March 3', 'Boston Blazers', 'Prudential Center', '12,000'],
  ['2', 'March 10', 'Chicago Shamrox', 'Sears Centre', '41,250'],
  ['3', 'March 17', 'Boston Blazers', 'TD Garden', '9,800'],
  ['4', 'March 24', 'Toronto Rock', 'Prudential Center', '15,300'],
]);

/** The rows a question's values pick in a table, best first, as the plan matches them (no index weights, no header named). */
function matched(question: string, table: QaTable) {
  const q = question.normalize('NFKC').toLowerCase();
  return matchRows(table, normal(question), questionTerms(q, EN, new Map()), new Set(), new Map(), false);
}

/** The first cell of each row, to name the rows. */
const firsts = (rows: { row: { cells: Map<number, { text: string }> } }[]) => rows.map((m) => [...m.row.cells.values()][0]?.text);

describe('the rows a question picks', () => {
  it('ranks the row whose whole cell the question quotes first, and says the cell it was found by', () => {
    const [best] = matched('What was the attendance when they played the Toronto Rock?', GAMES);
    expect(best).toMatchObject({ quoted: true });
    expect(best?.row.index).toBe(3);
    expect(best?.cells[0]?.text).toBe('Toronto Rock');
  });

  it('finds "march 17th" in a cell written "March 17", and not the 17 of another cell', () => {
    const rows = matched('Which venue hosted the game on march 17th?', GAMES);
    expect(rows[0]?.row.index).toBe(2);
    expect(rows[0]?.quoted).toBe(true);
  });

  it('picks every year of a decade alike, not the cells that say its first year', () => {
    const built = reportTable('bridges.csv', 'bridges', [
      ['Bridge', 'Opened'],
      ['Old Bridge', '1989'],
      ['River Bridge', '1990'],
      ['Rail Bridge', '1997'],
      ['New Bridge', '2001'],
    ]);
    const rows = matched("Which bridge opened in the 1990's?", built);
    expect(rows.filter((m) => m.quoted).map((m) => m.row.index)).toEqual([1, 2]);
  });

  it('leaves out the rows that hold the value "other than" names', () => {
    const q = 'other than the boston blazers, which opponent played at the prudential center?';
    const rows = matched(q, GAMES);
    expect(firsts(rows)).toContain('1');
    const kept = excluding(GAMES, excludedTerms(q, EN), rows);
    expect(firsts(kept)).toEqual(['4']);
    expect(excluding(GAMES, undefined, rows)).toBe(rows);
  });

  it("reads a word no document holds that is one letter off one of the table's as that word", () => {
    const schools = reportTable('schools.csv', 'schools', [
      ['School', 'City'],
      ['University of Viterbo', 'Viterbo'],
      ['University of Pisa', 'Pisa'],
    ]);
    const qTerms = questionTerms('which city is vigerbo university in?', EN, new Map([['univers', 1]]));
    const rowTerms = nearTerms(qTerms, schools, new Map([['univers', 1]]));
    expect(rowTerms.has('viterbo')).toBe(true);
    expect(rowTerms.has('vigerbo')).toBe(false);
    // without index statistics every word may be one the documents hold
    expect(nearTerms(qTerms, schools, new Map()).has('viterbo')).toBe(false);
  });
});

describe('rows the question names otherwise', () => {
  const RESERVE = reportTable('valuation-allowance.csv', 'valuation allowance', [
    ['', 'Deferred tax assets', 'Valuation allowance'],
    ['Balance at December 31, 2017', '1,204', '(310)'],
    ['Additions', '96', '(40)'],
    ['Balance at December 31, 2018', '1,300', '(350)'],
    ['Additions', '120', '(12)'],
    ['Balance at December 31, 2018 (restated)', '1,310', '(352)'],
  ]);

  it('reads a balance on a date from the rows dated in that year, the last first, each by its label', () => {
    const rows = balanceRows(RESERVE, 2018);
    expect(rows.map((m) => m.row.index)).toEqual([4, 2]);
    expect(rows[0]).toMatchObject({ score: 1, own: 1, quoted: true });
    expect(rows[0]?.cells.map((c) => c.text)).toEqual(['Balance at December 31, 2018 (restated)']);
    expect(balanceRows(RESERVE, 2020)).toEqual([]);
  });

  it('leads with the row a quoted name says whole, labelled by its first cell of words', () => {
    const rows = matched('What were the additions to the valuation allowance?', RESERVE);
    const additions = RESERVE.rows[3];
    const led = leadingRow(additions, rows);
    expect(led[0]?.row).toBe(additions);
    expect(led[0]?.cells.map((c) => c.text)).toEqual(['Additions']);
    expect(led.filter((m) => m.row === additions)).toHaveLength(1);
    expect(leadingRow(undefined, rows)).toBe(rows);
  });

  it('keeps a quoted cell of the named row that other rows share, for the row after or before to share too', () => {
    const q = normal('Which venue hosted the previous Boston Blazers game?');
    const [anchor] = matched('Which venue hosted the previous Boston Blazers game?', GAMES);
    expect(keptCell(q, GAMES, anchor, GAMES.columns[3])?.text).toBe('Boston Blazers');
    // the answer's own column is not kept
    expect(keptCell(q, GAMES, anchor, GAMES.columns[2])).toBeUndefined();
  });
});
