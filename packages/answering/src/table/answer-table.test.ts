import type { Chunk, Element } from '@pinpoint/core';
import { describe, expect, it } from 'vitest';
import type { TableSource } from './answer-table.js';
import { answerFromTables, cellAnchor, tableFor } from './answer-table.js';
import { listedValues } from './cell-measure.js';
import { buildTable, cellNumber } from './model.js';

const Z = '0'.repeat(64);
const HEADERS = ['Segment', 'Country', 'Product', 'Gross Sales'];
const DATA = [
  ['Government', 'Canada', 'Carretera', '$32,370.00'],
  ['Government', 'Germany', 'Carretera', '$26,420.00'],
  ['Midmarket', 'France', 'Paseo', '$32,670.00'],
  ['Midmarket', 'Germany', 'Velo', '$13,320.00'],
];

/** A sheet's rows the way the spreadsheet parser shapes them: one record per row, cells with refs and header names. */
function sheetRow(values: string[], row: number, header: boolean): Element {
  let at = 0;
  const cells = values.map((value, col) => {
    const start = at === 0 ? 0 : at + 3;
    at = start + Array.from(value).length;
    const ref = `${String.fromCharCode(65 + col)}${row}`;
    return { ref, col, start, end: at, ...(header ? {} : { header: HEADERS[col] as string }) };
  });
  return {
    element_id: `e${row}`,
    type: 'record',
    section_path: ['Sales'],
    text: values.join(' | '),
    anchor: { kind: 'record', artifact: 'records.jsonl', record_id: `s0r${row}`, records_sha256: Z, sheet: 'Sales', row },
    cells,
    table: { index: 0, row: row - 1, header },
  };
}

const elements = [sheetRow(HEADERS, 1, true), ...DATA.map((d, i) => sheetRow(d, i + 2, false))];
const chunkOf = (id: string): Chunk => ({
  chunk_id: `c-${id}`,
  chunk_set_id: 'c1:700/70',
  version_id: 'v1',
  document_id: 'd1',
  collection_id: 'k1',
  ordinal: 0,
  elements: [{ element_id: id, start: 0, end: 1 }],
  text: '',
  retrieval_text: '',
  section_path: ['Sales'],
});
const source: TableSource = { versionId: 'v1', file: 'sales.xlsx', title: 'sales', elements, chunkOf, rank: 1 };
const ask = (q: string) => answerFromTables(q, [source], new Map());

/** A second table: a season's games, the game number running down the rows. */
const GAME_HEADERS = ['Game', 'Date', 'Opponent', 'Venue', 'Attendance', 'Opening act'];
const GAMES = [
  ['1', 'March 3', 'Boston Blazers', 'Prudential Center', '12,000', 'Cadillac Tramps'],
  ['2', 'March 10', 'Chicago Shamrox', 'Sears Centre', '41,250', 'Doughboys'],
  ['3', 'March 17', 'Boston Blazers', 'TD Garden', '9,800', 'Mudhoney'],
  ['4', 'March 24', 'Toronto Rock', 'Prudential Center', '15,300', 'Urge Overkill'],
];
function gameRow(values: string[], row: number, header: boolean): Element {
  const e = sheetRow(values, row, header);
  return {
    ...e,
    element_id: `g${row}`,
    cells: (e.cells ?? []).map((c) => (header ? c : { ...c, header: GAME_HEADERS[c.col] as string })),
    anchor: { ...e.anchor, sheet: 'Games' } as Element['anchor'],
    section_path: ['Games'],
  };
}
const games: TableSource = {
  versionId: 'v2',
  file: 'season.xlsx',
  title: 'season',
  elements: [gameRow(GAME_HEADERS, 1, true), ...GAMES.map((d, i) => gameRow(d, i + 2, false))],
  chunkOf,
  rank: 1,
};
const askGames = (q: string, weights = new Map<string, number>()) => answerFromTables(q, [games], weights);

/** A table from its header names and rows, shaped like a sheet's records. */
function tableSource(file: string, headers: string[], data: string[][]): TableSource {
  const rowOf = (values: string[], row: number, header: boolean): Element => {
    const e = sheetRow(values, row, header);
    return {
      ...e,
      element_id: `${file}${row}`,
      cells: (e.cells ?? []).map((c) => (header ? c : { ...c, header: headers[c.col] as string })),
    };
  };
  const rows = [rowOf(headers, 1, true), ...data.map((d, i) => rowOf(d, i + 2, false))];
  return { versionId: file, file, title: file.replace(/\..*$/, ''), elements: rows, chunkOf, rank: 1 };
}

describe('reading a question against a table', () => {
  it('reads "the number of games …" as a count', () => {
    expect(askGames('What is the number of games with an attendance above 13,000?')?.answer).toMatch(/^2 — count of 2 rows/);
  });

  it('finds "march 10th" in a cell written "March 10"', () => {
    const a = askGames('Which opponent came after the game on march 10th?');
    expect(a?.citations[0]).toMatchObject({ quote: 'Boston Blazers', anchor: { cell_range: 'C4' } });
  });

  it('finds "march 17" with no ordinal in a cell written "March 17"', () => {
    const a = askGames('Which venue hosted the game on march 17?');
    expect(a?.citations[0]).toMatchObject({ quote: 'TD Garden', anchor: { cell_range: 'D4' } });
  });

  it('answers "the same … as" with the other row that shares the named cell', () => {
    const a = askGames('Which opponent played at the same venue as the Toronto Rock?');
    expect(a?.how).toBe('the row with the same Venue (Prudential Center) as the one the question names');
    expect(a?.citations.map((c) => [c.quote, c.anchor.kind === 'record' ? c.anchor.cell_range : ''])).toEqual([
      ['Boston Blazers', 'C2'],
      ['Prudential Center', 'D2'],
      ['Prudential Center', 'D5'],
    ]);
    // no other row shares it: no answer from this reading
    expect(askGames('Which opponent played at the same venue as the Chicago Shamrox?')?.citations[0]?.quote).not.toBe(
      'Chicago Shamrox',
    );
  });

  it('reads "his first season" by the Season column when another number is asked', () => {
    const career = tableSource(
      'career.csv',
      ['Season', 'Team', 'Matches', 'Goals'],
      [
        ['2003', 'Denizlispor', '3', '0'],
        ['1999', 'Djurgårdens IF', '15', '1'],
        ['2000', 'Djurgårdens IF', '21', '3'],
      ],
    );
    const a = answerFromTables('How many matches did he play in his first season?', [career], new Map());
    expect(a?.citations[0]).toMatchObject({ quote: '15', anchor: { cell_range: 'C3' } });
  });

  it("counts in the unit the cells carry, or reads the row's Total", () => {
    const ships = tableSource(
      'ships.csv',
      ['Class', 'Displacement', 'Built'],
      [
        ['TE class', '1,400 tons', '102'],
        ['Fletcher class', '2,050 tons', '175'],
      ],
    );
    expect(answerFromTables('How many tons does the Fletcher class displace?', [ships], new Map())?.citations[0]?.quote).toBe(
      '2,050 tons',
    );
    const medals = tableSource(
      'medals.csv',
      ['Rank', 'Nation', 'Gold', 'Silver', 'Bronze', 'Total'],
      [
        ['1', 'Venezuela', '6', '4', '4', '14'],
        ['2', 'Colombia', '3', '5', '2', '10'],
      ],
    );
    expect(answerFromTables('How many medals did Colombia win?', [medals], new Map())?.citations[0]?.quote).toBe('10');
  });

  it('answers "name a constituency" from the column of names, not the numbers', () => {
    const seats = tableSource(
      'seats.csv',
      ['Constituency number', 'Constituency', 'Electorates'],
      [
        ['44', 'Jatara', '145,555'],
        ['45', 'Prithvipur', '139,110'],
      ],
    );
    const a = answerFromTables('Name a constituency that has 139,110 electorates.', [seats], new Map());
    expect(a?.citations[0]?.quote).toBe('Prithvipur');
  });

  it('passes over a header row repeated inside the data', () => {
    const platforms = tableSource(
      'platforms.csv',
      ['Platform', 'Setting'],
      [
        ['PC', 'Fantasy'],
        ['Platform', 'Setting'],
        ['WIN', 'Space'],
        ['Platform', 'Setting'],
      ],
    );
    const a = answerFromTables('What is the last platform listed?', [platforms], new Map());
    expect(a?.citations[0]?.quote).toBe('WIN');
  });

  it('names a column by a word its header extends ("weighs" → Weight)', () => {
    const engines = tableSource(
      'locomotives.xlsx',
      ['Name', 'Built', 'Weight'],
      [
        ['Class 66', '1998', '126 t'],
        ['Re 4/4', '1946', '80 t'],
        ['Big Boy', '1941', '548 t'],
      ],
    );
    const a = answerFromTables('Which locomotive weighs the least?', [engines], new Map());
    expect(a?.citations[0]?.quote).toBe('Re 4/4');
  });

  it('steps to the previous row that shares a value the question quotes ("the previous Boston Blazers game")', () => {
    const a = askGames('On march 17 they played the Boston Blazers. At which venue was the previous Boston Blazers game?');
    expect(a?.citations[0]).toMatchObject({ quote: 'Prudential Center', anchor: { cell_range: 'D2' } });
    // a value no other row holds does not hold the step back
    expect(askGames('Which venue came before the Toronto Rock game?')?.citations[0]?.quote).toBe('TD Garden');
  });

  it('reads a column of numbers with dashes for "none" as numbers', () => {
    const acts = tableSource(
      'acts.csv',
      ['Act', 'Year signed', '# Albums released under Bad Boy'],
      [
        ['French Montana', '2012', '1'],
        ['Diddy', '1993', '6'],
        ['Harve Pierre', '1993', '–'],
        ['The Hitmen', '1993', '–'],
        ['Mario Winans', '1995', 'N/A'],
      ],
    );
    expect(tableFor(acts).columns.map((c) => c.numeric)).toEqual([0, 1, 1]);
    const a = answerFromTables('Who has the most albums released under Bad Boy?', [acts], new Map());
    expect(a?.citations[0]).toMatchObject({ quote: 'Diddy', anchor: { cell_range: 'A3' } });
  });

  it('weighs a value by how well the question names its column ("0.6% in GDP growth", not total GDP 0.6)', () => {
    const economies = tableSource(
      'economies.csv',
      ['Country', 'Total GDP (billion US$)', 'GDP growth (in %)', 'HDI'],
      [
        ['Comoros', '0.6', '1.5', '0.561'],
        ['Zimbabwe', '9.9', '0.6', '0.513'],
        ['Zambia', '19.2', '6.4', '0.448'],
      ],
    );
    const a = answerFromTables('Which country is the only country to have 0.6% in GDP growth?', [economies], new Map());
    expect(a?.citations[0]).toMatchObject({ quote: 'Zimbabwe', anchor: { cell_range: 'A3' } });
  });

  it('does not look for the number a bound names ("at least 13,000") among the cells', () => {
    const a = askGames('How many games had an attendance of at least 13,000?');
    expect(a?.answer).toMatch(/^2 — count of 2 rows with Attendance ≥ 13000/);
    expect(a?.features.table_coverage).toBe(1);
  });

  it('takes a superlative over the rows of the decade the question names ("in the 1990\'s")', () => {
    const alumni = tableSource(
      'alumni.csv',
      ['Name', 'Position', 'Years', 'International caps'],
      [
        ['Robbie Hooker', 'DF', '1984-85', '2'],
        ['Kevin Muscat', 'DF', '1990–91', '51'],
        ['Ante Milicic', 'FW', '1990–91', '6'],
        ['Clint Bolton', 'GK', '1992–93', '4'],
        ['Mitchell Langerak', 'GK', '2005–06', '0'],
      ],
    );
    const a = answerFromTables("Which alumni in the 1990's has the least number of international caps?", [alumni], new Map());
    expect(a?.citations[0]).toMatchObject({ quote: 'Clint Bolton', anchor: { cell_range: 'A5' } });
  });

  it('counts "how many top selling brands …" when no number is there to compare', () => {
    const brands = tableSource(
      'brands.csv',
      ['Brand', 'Active ingredient', 'Therapeutic area'],
      [
        ['Solaraze', 'Diclofenac', 'Dermatology'],
        ['Almax', 'Almagate', 'Gastrointestinal'],
        ['Balneum', 'Soya oil', 'Dermatology'],
        ['Decoderm', 'Flupredniden', 'Dermatology'],
      ],
    );
    const a = answerFromTables('How many top selling brands target dermatology?', [brands], new Map());
    expect(a?.answer).toMatch(/^3 — count of 3 rows that match the question/);
  });

  it('reads "the last yacht" as the last row when only a cell repeats the header word', () => {
    const yachts = tableSource(
      'yachts.csv',
      ['Yacht', 'Owner', 'Skipper'],
      [
        ['Global Yacht Racing - Kioni', 'Kioni Sailing Services P/L', 'Richard Falk'],
        ['Wild Oats XI', 'Bob Oatley', 'Mark Richards'],
        ['Zephyr', 'James Connell', 'James Connell'],
      ],
    );
    const weights = new Map([
      ['yacht', 4],
      ['skipper', 3],
    ]);
    const a = answerFromTables('Who is the last yachts skipper?', [yachts], weights);
    expect(a?.citations[0]).toMatchObject({ quote: 'James Connell', anchor: { cell_range: 'C4' } });
  });

  it('answers "the next … after X" from the column X is in', () => {
    const a = askGames('Who was the next opening act after the Cadillac Tramps?');
    expect(a?.citations[0]).toMatchObject({ quote: 'Doughboys', anchor: { cell_range: 'F3' } });
  });

  it('bounds rows by a number ("more than 40,000") instead of reading a superlative', () => {
    const a = askGames('In which venue was the only game with more than 40,000 people in attendance?');
    expect(a?.citations[0]).toMatchObject({ quote: 'Sears Centre', anchor: { cell_range: 'D3' } });
    const n = askGames('How many games had an attendance below 13,000?');
    expect(n?.answer).toMatch(/^2 — count of 2 rows with Attendance < 13000/);
  });

  it('reads "the most …" with no number named as the value the most rows hold', () => {
    const accolades = tableSource(
      'accolades.csv',
      ['Publication', 'Country', 'Accolade', 'Year'],
      [
        ['Q', 'UK', '100 Greatest Singles', '2003'],
        ['Rolling Stone', 'US', '500 Greatest Songs', '2004'],
        ['Pitchfork', 'US', 'Top Songs of the 1970s', '2006'],
        ['Rolling Stone', 'US', '100 Greatest Dance Songs', '2011'],
      ],
    );
    const a = answerFromTables('Which publication listed the song the most?', [accolades], new Map());
    expect(a?.citations.map((c) => c.quote)).toEqual(['Rolling Stone', 'Rolling Stone']);
    expect(a?.how).toMatch(/most rows hold \(2 of 4\)/);
    // a number the question names is still compared
    expect(answerFromTables('Which publication had the most recent year?', [accolades], new Map())?.how).toMatch(/largest Year/);
  });

  it('leaves out the rows "in addition to X" and "not in X" name, accents aside', () => {
    const churches = tableSource(
      'churches.csv',
      ['Parish', 'Church', 'Location', 'Year built'],
      [
        ['Gildeskål', 'Gildeskål Church', 'Inndyr', '1881'],
        ['Gildeskål', 'Saura Church', 'Saura', '1884'],
        ['Gildeskål', 'Old Gildeskål Church', 'Inndyr', '1100s'],
      ],
    );
    const a = answerFromTables(
      'Which church, in addition to Gildeskal Church, was also built in the 1800s?',
      [churches],
      new Map(),
    );
    expect(a?.rows[0]?.text).toMatch(/Saura Church/);
    const seats = tableSource(
      'seats.csv',
      ['Constituency', 'District'],
      [
        ['Tikamgarh', 'Tikamgarh'],
        ['Jatara', 'Tikamgarh'],
        ['Maharajpur', 'Chhatarpur'],
      ],
    );
    const b = answerFromTables('Name a constituency that is not in the Tikamgarh district.', [seats], new Map());
    expect(b?.rows[0]?.text).toMatch(/^Maharajpur/);
  });

  it('counts "the total number of …" when no number column is named to add up', () => {
    const a = askGames('What is the total number of games played at the Prudential Center?');
    expect(a?.answer).toMatch(/^2 — count of 2 rows that match the question/);
    // a named number column is still added up
    expect(askGames('How many people in total attended at the Prudential Center, by Attendance?')?.answer).toMatch(
      /^27300 — sum of Attendance/,
    );
  });

  it("reads the total of one row as that row's cell, never as a sum", () => {
    const a = askGames('What was the total attendance of the game on March 17?');
    expect(a?.answer).toMatch(/9,800/);
    expect(a?.answer).not.toMatch(/sum of/);
    expect(a?.citations).toHaveLength(1);
  });

  it('refuses a mean, a share or a rate it would answer with a lookup or a count, unless the table states it', () => {
    // the reader has no mean: the one cell it would read is some other figure
    expect(askGames('What is the average attendance of the games against Boston Blazers?')?.refused).toBe(true);
    expect(askGames('What percentage of the total attendance was at the Sears Centre?')?.refused).toBe(true);
    // a column that states the mean is read
    const batting = tableSource(
      'batting.csv',
      ['Player', 'Matches', 'Average'],
      [
        ['Anthony McGrath', '12', '48.2'],
        ['Darren Lehmann', '14', '41.9'],
      ],
    );
    expect(answerFromTables('Who has the highest average?', [batting], new Map())?.answer).toMatch(/McGrath/);
  });

  it('finds the row of a word one letter off ("vigerbo" for Viterbo) when no document holds the word', () => {
    const schools = tableSource(
      'schools.csv',
      ['Institution', 'Location', 'Enrollment'],
      [
        ['Saint Ambrose University', 'Davenport', '3,623'],
        ['Viterbo University', 'La Crosse', '2,991'],
        ['William Penn University', 'Oskaloosa', '1,550'],
      ],
    );
    const q = 'Does vigerbo or william penn have a higher enrollment?';
    // the index's weights: "vigerbo" is in no document
    const weights = new Map([
      ['william', 2],
      ['penn', 2],
      ['enrol', 4],
      ['higher', 1],
    ]);
    const a = answerFromTables(q, [schools], weights);
    expect(a?.citations[0]?.quote).toBe('Viterbo University');
    // it still counts as missing when the table's fit is read
    expect(a?.features.table_coverage).toBeLessThan(1);
  });

  it('counts rows, not the running game number, and leaves out what "other than" names', () => {
    expect(askGames('How many games were played at the Prudential Center?')?.answer).toMatch(/^2 — count of 2 rows/);
    const a = askGames('Other than Chicago Shamrox, which opponent played at Sears Centre or TD Garden?');
    expect(a?.citations[0]?.quote).toBe('Boston Blazers');
  });

  it('takes the last of the rows a quoted value picks when only the running number is named', () => {
    const a = askGames('What was the date of the last game against the Boston Blazers?');
    expect(a?.citations[0]).toMatchObject({ quote: 'March 17', anchor: { cell_range: 'B4' } });
  });

  it('answers "who …" with a name even when a number column is named', () => {
    const a = askGames('Who was the opening act at game 4 with attendance 15,300?');
    expect(a?.citations[0]?.quote).toBe('Urge Overkill');
  });

  it('names the row each other table would answer with, best fit first', () => {
    const a = answerFromTables('Who was the next opening act after the Cadillac Tramps?', [source, games], new Map());
    expect(a?.citations[0]?.quote).toBe('Doughboys');
    expect(a?.alternatives.map((x) => x.source.file)).toEqual(['sales.xlsx']);
  });

  it('reports how far the chosen table and row are ahead of the next ones (for calibrating the refusal)', () => {
    // one row and one table hold the value named: both well ahead
    const one = answerFromTables('What was the attendance of the game against Toronto Rock?', [source, games], new Map());
    expect(one?.features.row_margin).toBe(1);
    expect(one?.features.table_margin).toBeGreaterThan(0.5);
    // two rows hold the value named equally: no margin between them
    const two = answerFromTables('What was the attendance at Prudential Center?', [source, games], new Map());
    expect(two?.features.row_margin).toBe(0);
  });

  it('weighs a question about named rows down when the table holds none of them', () => {
    const named = askGames('What was the attendance of the game against Toronto Rock?');
    expect(named?.features.unanchored).toBe(0);
    expect(named?.citations[0]?.quote).toBe('15,300');
    const unnamed = askGames('What was the attendance of the Boston game in April?');
    expect(unnamed?.features.unanchored).toBe(1);
    expect(unnamed?.score).toBeLessThan((named?.score ?? 0) - 0.2);
    // a numeric bound picks rows too
    expect(askGames('How many games had an attendance below 13,000?')?.features.unanchored).toBe(0);
    // a superlative is about the whole table
    expect(askGames('Which game had the highest attendance?')?.features.unanchored).toBe(0);
  });

  it('reads "march 4, 2013" as the date alone, and a score "0–9" as the same as "0-9"', () => {
    const results = tableSource(
      'results.xlsx',
      ['Date', 'Opponents', 'Score'],
      [
        ['6 March 2013', 'Bangladesh', '0-4'],
        ['4 March 2013', 'Palestine', '0-9'],
        ['2 March 2013', 'Nepal', '0-6'],
        ['1 April 2007', 'Guam', '0–9'],
      ],
    );
    // the day's number is a rare term: in the score "0-4" it still does not name the game of 6 March
    const weights = new Map([
      ['4', 4],
      ['march', 1],
      ['2013', 1],
      ['score', 1],
      ['game', 1],
    ]);
    const a = answerFromTables('Name a game where the score was the same as march 4, 2013.', [results], weights);
    expect(a?.how).toBe('the row with the same Score (0-9) as the one the question names');
    expect(a?.citations[0]).toMatchObject({ quote: '1 April 2007', anchor: { cell_range: 'A5' } });
  });

  it('counts the values a cell lists ("1996, 2001" is two premierships) when a superlative asks how many', () => {
    expect([listedValues('1996, 2001'), listedValues('602–608, 946–948'), listedValues('Nil'), listedValues('1,332')]).toEqual([
      2,
      10,
      0,
      null,
    ]);
    const cup = tableSource(
      'cup.csv',
      ['Team', 'First year', 'Premierships'],
      [
        ['Young Guns', '2002', '2005'],
        ['Broncos', '2007', 'Nil'],
        ['Clydesdales', '1996', '1996, 2001'],
      ],
    );
    const a = answerFromTables('Which team had more premierships, Young Guns or Clydesdales?', [cup], new Map());
    expect(a?.how).toBe('largest number of values listed in Premierships of 2 rows');
    expect(a?.citations[0]).toMatchObject({ quote: 'Clydesdales', anchor: { cell_range: 'A4' } });
    // the column asked for is not counted: a season "2002–2003" is one season
    const seasons = tableSource(
      'seasons.csv',
      ['Season', 'Team', 'Goals'],
      [
        ['2001', 'Djurgårdens IF', '7'],
        ['2002–2003', 'Grazer AK', '6'],
        ['2005', 'Djurgårdens IF', '12'],
      ],
    );
    expect(answerFromTables('What season has the most goals?', [seasons], new Map())?.citations[0]?.quote).toBe('2005');
  });

  it('adds up the rows of each value a comparative names ("more GER numbers, 1898 or 1893")', () => {
    const orders = tableSource(
      'orders.csv',
      ['Year', 'Order', 'Quantity'],
      [
        ['1893', 'N31', '1'],
        ['1893', 'H33', '10'],
        ['1894', 'L33', '10'],
        ['1898', 'G42', '10'],
        ['1898', 'K43', '10'],
      ],
    );
    const a = answerFromTables('Which had more quantity, 1898 or 1893?', [orders], new Map());
    expect(a?.how).toBe('largest total Quantity (20 over 2 rows)');
    expect(a?.citations.map((c) => c.quote)).toEqual(['1898', '10', '10']);
    // a superlative asks for one row: "the most" is the largest single quantity of the rows named
    const b = answerFromTables('Which had the most quantity, 1898 or 1893?', [orders], new Map());
    expect(b?.how).toBe('largest Quantity of 4 rows');
  });

  it('measures a term "1927–1938" by how long it lasted, over the rows under the heading named', () => {
    const members = tableSource(
      'members.csv',
      ['Member', 'Party', 'Term'],
      [
        ['Second incarnation (1894–1920)'],
        ['James Carroll', 'Protectionist', '1894–1901'],
        ['Andrew Kelly', 'Labor', '1904–1913'],
        ['Third incarnation (1927–1950)'],
        ['Ernest Buttenshaw', 'Country', '1927–1938'],
        ['Griffith Evans', 'Country', '1938–1943'],
        ['Robert Medcalf', 'Country', '1947–1950'],
        ['Fourth incarnation (1981–2007)'],
        ['Ian Armstrong', 'National', '1981–2007'],
      ],
    );
    const third = answerFromTables('Of the members of the third incarnation, who served the longest?', [members], new Map());
    expect(third?.how).toBe('largest years lasted in Term of 3 rows');
    expect(third?.citations.map((c) => c.quote)).toEqual(['Ernest Buttenshaw', '1927–1938']);
    // no heading named: the shortest term of the whole table (not the earliest start)
    expect(answerFromTables('Who served the shortest term?', [members], new Map())?.citations[0]?.quote).toBe('Robert Medcalf');
  });

  it('answers "what has the least …" with the row\'s name, "what is the least …" with the number', () => {
    const religions = tableSource(
      'religions.csv',
      ['Religious group', 'Percentage'],
      [
        ['Hindu', '80.46%'],
        ['Jain', '0.41%'],
        ['Sikh', '1.87%'],
      ],
    );
    const has = answerFromTables('What has the least percentage?', [religions], new Map());
    expect(has?.citations[0]).toMatchObject({ quote: 'Jain', anchor: { cell_range: 'A3' } });
    const is = answerFromTables('What is the least percentage?', [religions], new Map());
    expect(is?.citations[0]).toMatchObject({ quote: '0.41%', anchor: { cell_range: 'B3' } });
  });

  it('reads "the highest position" on a column of places as the smallest number, "the lowest" as the largest', () => {
    const chart = tableSource(
      'singles.csv',
      ['Song', 'Year', 'Peak position'],
      [
        ['Wild World', '1988', '5'],
        ['Close to You', '1990', '1'],
        ['Groovin in the Midnight', '1992', '38'],
      ],
    );
    const high = answerFromTables('Which song had the highest peak position?', [chart], new Map());
    expect(high?.citations[0]).toMatchObject({ quote: 'Close to You' });
    const low = answerFromTables('Which song had the lowest peak position?', [chart], new Map());
    expect(low?.citations[0]).toMatchObject({ quote: 'Groovin in the Midnight' });
    // places written "1st", "12th" under a header that does not say so
    const seasons = tableSource(
      'seasons.csv',
      ['Season', 'Division', 'Finals'],
      [
        ['2001', 'Second', '12th'],
        ['2002', 'Second', '3rd'],
        ['2003', 'First', '7th'],
      ],
    );
    expect(answerFromTables('Which season had the best finals?', [seasons], new Map())?.citations[0]).toMatchObject({
      quote: '2002',
    });
  });

  it('compares the column the words after a superlative say word for word ("fewest participating nations")', () => {
    const games = tableSource(
      'olympics.csv',
      ['Games', 'Nations', 'Participants'],
      [
        ['1904 Summer Olympics', '12', '651'],
        ['1932 Winter Olympics', '17', '252'],
        ['1984 Summer Olympics', '140', '6,829'],
      ],
    );
    const a = answerFromTables('What games featured the fewest participating nations?', [games], new Map());
    expect(a?.citations[0]).toMatchObject({ quote: '1904 Summer Olympics' });
    expect(answerFromTables('What games had the fewest participants?', [games], new Map())?.citations[0]).toMatchObject({
      quote: '1932 Winter Olympics',
    });
  });

  it('steps back in time down a table that lists the newest first, unless the question speaks of the list', () => {
    const awards = tableSource(
      'awards.csv',
      ['Year', 'Men', 'Paralympic'],
      [
        ['2013', 'Frederik Van Lierde', 'Joachim Gérard'],
        ['2012', 'Tom Boonen', 'Marieke Vervoort'],
        ['2011', 'Philippe Gilbert', 'Wim Decleir'],
      ],
    );
    // "gerard" as typed finds Gérard
    const before = answerFromTables('Who was the paralympic winner before Joachim Gerard?', [awards], new Map());
    expect(before?.citations[0]).toMatchObject({ quote: 'Marieke Vervoort' });
    const listed = answerFromTables('Which paralympic winner is listed after Marieke Vervoort?', [awards], new Map());
    expect(listed?.citations[0]).toMatchObject({ quote: 'Wim Decleir' });
  });

  it('finds a country by the word a question says it with ("the French venue", "outside the U.S.")', () => {
    const results = tableSource(
      'results.csv',
      ['Year', 'Competition', 'Venue'],
      [
        ['2002', 'European Championships', 'Munich, Germany'],
        ['2003', 'World Championships', 'Paris, France'],
        ['2005', 'World Championships', 'Helsinki, Finland'],
      ],
    );
    // the next row holds the same competition: with no other value further down, it is still the answer
    const after = answerFromTables('Which competition comes after the French venue?', [results], new Map());
    expect(after?.citations[0]).toMatchObject({ quote: 'World Championships', anchor: { cell_range: 'B4' } });
    const players = tableSource(
      'players.csv',
      ['Player', 'Country'],
      [
        ['Louise Suggs', 'United States'],
        ['Fay Crocker', 'Uruguay'],
        ['Patty Berg', 'United States'],
      ],
    );
    const outside = answerFromTables('Who was the only player listed from outside the U.S.?', [players], new Map());
    expect(outside?.citations[0]).toMatchObject({ quote: 'Fay Crocker' });
  });

  it('reads "woman" for a Women column, and passes over years no one won', () => {
    const awards = tableSource(
      'awards.csv',
      ['Year', 'Men', 'Women'],
      [
        ['1977', 'Eddy Merckx', 'Kim Clijsters'],
        ['1975', 'Roger De Vlaeminck', 'Carine Verbauwen'],
        ['1967', 'Eddy Merckx', '–'],
      ],
    );
    const a = answerFromTables('Who was the first woman to win sportswoman of the year?', [awards], new Map());
    expect(a?.citations[0]).toMatchObject({ quote: 'Carine Verbauwen' });
  });

  it('answers "name one not in X district" from another column than the one the negated words name', () => {
    const seats = tableSource(
      'seats.csv',
      ['Number', 'Name', 'District'],
      [
        ['43', 'Tikamgarh', 'Tikamgarh'],
        ['44', 'Jatara', 'Tikamgarh'],
        ['48', 'Maharajpur', 'Chhatarpur'],
      ],
    );
    const a = answerFromTables('Name one that is not in the Tikamgarh district.', [seats], new Map());
    expect(a?.citations[0]).toMatchObject({ quote: 'Maharajpur', anchor: { cell_range: 'B4' } });
  });

  it('reads "the kilometers that separate A and B" as a difference', () => {
    const road = tableSource(
      'highway.csv',
      ['Kilometers', 'Name', 'Location'],
      [
        ['0', 'Mahanayim Junction', 'Mahanayim'],
        ['9', 'Gadot Junction', 'Gadot'],
        ['23', 'Shipon Junction', 'Golan Heights'],
      ],
    );
    const a = answerFromTables('How many kilometers separate the Mahanayim Junction and the Shipon Junction?', [road], new Map());
    expect(a?.answer).toMatch(/^23 — difference of Kilometers: 0 and 23/);
  });

  it('names a column headed "%" by "percentage"', () => {
    const record = tableSource(
      'record.csv',
      ['Opponent', 'Played', 'Won', '% Won Overall'],
      [
        ['Australia', '4', '4', '100%'],
        ['Canada', '21', '19', '90.48%'],
        ['France', '34', '24', '70.59%'],
        ['Ireland', '20', '17', '85%'],
      ],
    );
    const a = answerFromTables('For how many teams was the win percentage below 90%?', [record], new Map());
    expect(a?.answer).toMatch(/^2 — count of 2 rows with % Won Overall < 90/);
  });

  it('answers "what time …" from the Time column the question names', () => {
    const kickoffs = tableSource(
      'kickoffs.csv',
      ['Date', 'Time', 'Opponent'],
      [
        ['August 30', '7:30 PM', 'Appalachian State'],
        ['September 6', '1:00 PM', 'Clemson'],
      ],
    );
    expect(answerFromTables('What time was the game against Clemson?', [kickoffs], new Map())?.citations[0]?.quote).toBe(
      '1:00 PM',
    );
  });

  it('answers "which party …" from the Party column though its cells hold the word "party"', () => {
    const election = tableSource(
      'election.csv',
      ['Party', 'Votes', 'Seats'],
      [
        ['Australian Labor Party', '324,135', '26'],
        ['Liberal and Country League', '250,312', '20'],
        ['Country Party', '20,543', '1'],
      ],
    );
    const a = answerFromTables('Which party won the top place in the election?', [election], new Map());
    expect(a?.citations[0]).toMatchObject({ quote: 'Australian Labor Party', anchor: { cell_range: 'A2' } });
  });

  it('answers "what is the only team …" from the Team column, and finds no column by cells that say "team"', () => {
    const cup = tableSource(
      'cup.csv',
      ['Team', 'Location', 'Home Ground', 'First year in Qld Cup', 'Last year in Qld Cup', 'Qld Cup Premierships'],
      [
        ['Aspley Broncos', 'Brisbane', 'Bishop Park', '2007', '2007', 'Nil'],
        ['Brothers-Valleys', 'Brisbane', "O'Callaghan Park", '2004', '2004', 'Nil'],
        ['Bundaberg Grizzlies', 'Bundaberg', 'Salter Oval', '1996', '1998', 'Nil'],
        ['Cairns Cyclones', 'Cairns', 'Barlow Park', '1996', '2000', 'Nil'],
        ['Central Capras', 'Rockhampton', 'Browne Park', '1996', '1997', 'Nil'],
        ['Gold Coast Vikings', 'Gold Coast', 'Owen Park and Carrara Stadium', '1998', '1998', 'Nil'],
        ['Logan Scorpions', 'Logan City', 'Meakin Park', '1996', '2002', 'Nil'],
        ['Mackay Sea Eagles', 'Mackay', 'Mackay Junior Rugby League Ground', '1996', '1996', 'Nil'],
        ['North Queensland Young Guns', 'Townsville', 'Dairy Farmers Stadium', '2002', '2007', '2005'],
        ['Past Brothers', 'Brisbane', 'Corbett Park, Crosby Park, Lang Park, ANZ Stadium', '1996', '1998', 'Nil'],
        ['Port Moresby Vipers', 'Port Moresby', 'Lloyd Robson Oval', '1996', '1997', 'Nil'],
        ['Souths Magpies', 'Brisbane', 'Davies Park', '1996', '2002', 'Nil'],
        ['Sunshine Coast Falcons', 'Sunshine Coast', 'Quad Park', '1996', '1996', 'Nil'],
        ['Townsville Stingers', 'Townsville', 'Dairy Farmers Stadium, Townsville Sports Reserve', '1998', '1998', 'Nil'],
        ['Toowoomba Clydesdales', 'Toowoomba', 'Athletic Oval (Clive Berghofer Stadium)', '1996', '2006', '1996, 2001'],
        ['Wests Panthers', 'Brisbane', 'Purtell Park', '1996', '2003', 'Nil'],
      ],
    );
    // the index's weights: every team's row says Qld Cup, few say 2005
    const weights = new Map([
      ['team', 1.2],
      ['2005', 3.1],
      ['qld', 2.4],
      ['cup', 1.6],
      ['premiership', 2.9],
    ]);
    const a = answerFromTables('what is the only team to have 2005 in qld cup premierships?', [cup], weights);
    expect(a?.citations[0]).toMatchObject({ quote: 'North Queensland Young Guns', anchor: { cell_range: 'A10' } });
    const drivers = tableSource(
      'drivers.csv',
      ['Driver', 'Entrant', 'Laps'],
      [
        ['Jim Clark', 'Team Lotus', '80'],
        ['Graham Hill', 'Owen Racing', '82'],
      ],
    );
    // no header says team: the Entrant column is not found by its cell "Team Lotus"
    expect(answerFromTables('Which team completed the most laps?', [drivers], new Map())?.citations[0]?.quote).not.toBe(
      'Team Lotus',
    );
  });

  it('answers "the last junction" from the column whose cells name junctions when no header does', () => {
    const highway = tableSource(
      'highway.csv',
      ['Kilometers', 'Name', 'Location', 'Notes'],
      [
        ['0', 'Mahanayim Junction', 'Mahanayim', 'meets the highway'],
        ['7', 'Gadot Junction', 'Gadot', 'a junction of two roads near the border'],
        ['23', 'Zivan Junction', 'Ein Zivan', 'the end of the highway'],
      ],
    );
    const a = answerFromTables('What is the last junction on the highway?', [highway], new Map());
    expect(a?.citations[0]).toMatchObject({ quote: 'Zivan Junction', anchor: { cell_range: 'B4' } });
  });

  it('answers "name a constituency" from the Name column when only "Constituency number" says constituency', () => {
    const seats = tableSource(
      'seats.csv',
      ['Constituency number', 'Name', 'District', 'Electorates'],
      [
        ['44', 'Jatara', 'Tikamgarh', '145,555'],
        ['45', 'Prithvipur', 'Tikamgarh', '139,110'],
      ],
    );
    const a = answerFromTables('Name a constituency that only has 139,110 electorates.', [seats], new Map());
    expect(a?.citations[0]).toMatchObject({ quote: 'Prithvipur', anchor: { cell_range: 'B3' } });
    // the number asked for is the number
    const n = answerFromTables('What is the constituency number of Jatara?', [seats], new Map());
    expect(n?.citations[0]?.quote).toBe('44');
  });

  it('refuses when the question names what no document holds', () => {
    const weights = new Map([
      ['game', 1],
      ['attend', 1],
    ]);
    const a = askGames('What was the attendance when the Zorgbrackle Wanderers met the Quux Fliegers?', weights);
    expect(a?.refused).toBe(true);
  });
});

describe('a balance on a date: the row of the year asked about', () => {
  const cellOf = (q: string, t: TableSource) => {
    const c = answerFromTables(q, [t], new Map())?.citations[0];
    return [c?.quote, c?.anchor.kind === 'record' ? c.anchor.cell_range : ''];
  };

  it('reads 「2019年時点」 from the row dated in 2019, the last of them, not a movement row', () => {
    const assets = tableSource(
      '有形固定資産.csv',
      ['帳簿価額', '建物及び構築物', '機械装置', '建設仮勘定'],
      [
        ['2019年１月１日残高', '558,331', '513,344', '172,989'],
        ['減価償却費', '△38,038', '△107,586', '－'],
        ['減損損失', '△3,348', '△4,323', '△1,113'],
        ['2019年12月31日残高', '568,314', '519,674', '188,518'],
        ['減価償却費', '△38,469', '△105,371', '－'],
        ['2020年12月31日残高', '530,452', '425,028', '178,552'],
      ],
    );
    expect(cellOf('2019年時点における「機械装置」は？', assets)).toEqual(['519,674', 'C5']);
    expect(cellOf('2020年時点の建設仮勘定はいくらですか？', assets)).toEqual(['178,552', 'D7']);
    // a row named in the table's own words still answers
    expect(cellOf('2019年の減損損失の機械装置はいくらですか？', assets)[0]).toBe('△4,323');
  });

  it('reads "as of December 31, 2019" from the balance row of that date', () => {
    const reserve = tableSource(
      'valuation-allowance.csv',
      ['', 'Deferred tax assets', 'Valuation allowance'],
      [
        ['Balance at December 31, 2017', '1,204', '(310)'],
        ['Additions', '96', '(40)'],
        ['Balance at December 31, 2018', '1,300', '(350)'],
        ['Additions', '120', '(12)'],
        ['Balance at December 31, 2019', '1,420', '(362)'],
      ],
    );
    expect(cellOf('What was the valuation allowance as of December 31, 2018?', reserve)).toEqual(['(350)', 'C4']);
  });

  it('reads 「截至2019年」 from the row dated in 2019', () => {
    const balance = tableSource(
      '固定资产.csv',
      ['项目', '房屋及建筑物（万元）', '机器设备（万元）'],
      [
        ['2018年12月31日余额', '3,210', '1,540'],
        ['本期增加', '420', '310'],
        ['本期减少', '△60', '△95'],
        ['2019年12月31日余额', '3,570', '1,755'],
      ],
    );
    expect(cellOf('截至2019年末，机器设备是多少？', balance)).toEqual(['1,755', 'C5']);
  });

  it('reads 「截至2019年」 in Traditional Chinese from the row dated in 2019', () => {
    const balance = tableSource(
      '不動產廠房及設備.csv',
      ['項目', '房屋及建築（千元）', '機器設備（千元）'],
      [
        ['2018年12月31日餘額', '5,120', '2,480'],
        ['本期增加', '640', '390'],
        ['2019年12月31日餘額', '5,760', '2,870'],
        ['本期增加', '210', '150'],
        ['2020年12月31日餘額', '5,970', '3,020'],
      ],
    );
    expect(cellOf('截至2019年底，機器設備是多少？', balance)).toEqual(['2,870', 'C4']);
  });
});

describe('a quoted name of several items: the row, then where it sits', () => {
  const cellOf = (q: string, t: TableSource) => {
    const c = answerFromTables(q, [t], new Map())?.citations[0];
    return [c?.quote, c?.anchor.kind === 'record' ? c.anchor.cell_range : ''];
  };

  it('reads 「電話番号、本店の所在の場所」 as the 電話番号 under 本店の所在の場所 on a cover page', () => {
    const cover = tableSource(
      '表紙.csv',
      ['【表紙】', ''],
      [
        ['【会社名】', '株式会社サクラ精機'],
        ['【本店の所在の場所】', '東京都港区芝五丁目７番１号'],
        ['【電話番号】', '03（3454）1111（代表）'],
        ['【最寄りの連絡場所】', '大阪市北区梅田三丁目１番３号'],
        ['【電話番号】', '06（6345）2222'],
      ],
    );
    expect(cellOf('「電話番号、本店の所在の場所、表紙」は？', cover)).toEqual(['03（3454）1111（代表）', 'B4']);
    expect(cellOf('「電話番号、最寄りの連絡場所、表紙」は？', cover)).toEqual(['06（6345）2222', 'B6']);
  });

  it('reads 「その他、無形固定資産」 as the その他 under the heading 無形固定資産, and 「流動資産」 as its total', () => {
    const sheet = tableSource(
      '貸借対照表.csv',
      ['', '前事業年度 (2019年３月31日)', '当事業年度 (2020年３月31日)'],
      [
        ['流動資産', '', ''],
        ['現金及び預金', '1,204', '1,530'],
        ['その他', '88', '91'],
        ['流動資産合計', '1,292', '1,621'],
        ['無形固定資産', '', ''],
        ['ソフトウエア', '390', '411'],
        ['その他', '57', '742'],
        ['無形固定資産合計', '447', '1,153'],
      ],
    );
    expect(cellOf('2019年の「その他、無形固定資産」は？', sheet)).toEqual(['57', 'B8']);
    expect(cellOf('2020年の「その他、流動資産」は？', sheet)).toEqual(['91', 'C4']);
    expect(cellOf('2020年の「流動資産」は？', sheet)).toEqual(['1,621', 'C5']);
  });

  it('finds a label that starts with a digit (「１株当たり純資産額」) or leaves out a note in brackets (（税引後）)', () => {
    const indicators = tableSource(
      '経営指標等.csv',
      ['回次', '', '第76期', '第77期'],
      [
        ['決算年月', '', '2019年３月', '2020年３月'],
        ['純資産額', '百万円', '2,482,659', '2,587,308'],
        ['１株当たり純資産額', '円', '1,957.61', '2,039.88'],
      ],
    );
    expect(cellOf('2020年の「１株当たり純資産額、経営指標等」は？', indicators)).toEqual(['2,039.88', 'D4']);
    const comprehensive = tableSource(
      '連結包括利益計算書.csv',
      ['', '前連結会計年度 (2019年３月31日)', '当連結会計年度 (2020年３月31日)'],
      [
        ['その他の包括利益', '', ''],
        ['その他有価証券評価差額金', '36,382', '△ 14,550'],
        ['為替換算調整勘定', '△ 8,405', '△ 4,568'],
        ['その他の包括利益合計', '31,401', '△ 17,690'],
      ],
    );
    expect(cellOf('2019年の「為替換算調整勘定（税引後）、その他の包括利益」は？', comprehensive)).toEqual(['△ 8,405', 'B4']);
  });

  it('reads 「其他，无形资产」 as the 其他 under the heading 无形资产', () => {
    const sheet = tableSource(
      '资产负债表.csv',
      ['项目', '2019年12月31日', '2020年12月31日'],
      [
        ['流动资产', '', ''],
        ['货币资金', '5,210', '6,004'],
        ['其他', '120', '133'],
        ['无形资产', '', ''],
        ['软件', '310', '355'],
        ['其他', '45', '61'],
      ],
    );
    expect(cellOf('2020年「其他，无形资产」是多少？', sheet)).toEqual(['61', 'C7']);
  });

  it('reads 「其他，無形資產」 in Traditional Chinese as the 其他 under the heading 無形資產', () => {
    const sheet = tableSource(
      '資產負債表.csv',
      ['項目', '2019年12月31日', '2020年12月31日'],
      [
        ['流動資產', '', ''],
        ['現金及約當現金', '4,020', '4,515'],
        ['其他', '96', '102'],
        ['無形資產', '', ''],
        ['電腦軟體', '280', '301'],
        ['其他', '38', '44'],
      ],
    );
    expect(cellOf('2019年「其他，無形資產」是多少？', sheet)).toEqual(['38', 'B7']);
  });
});

describe('a header row the file did not mark: sub-columns under a group header', () => {
  const cellOf = (q: string, t: TableSource) => {
    const c = answerFromTables(q, [t], new Map())?.citations[0];
    return [c?.quote, c?.anchor.kind === 'record' ? c.anchor.cell_range : ''];
  };

  it('reads "Net Sales" under "Fiscal Year 2019" as one column, not as a row', () => {
    const regions = tableSource(
      'net-sales.docx',
      ['', 'Fiscal Year 2019', '', 'Fiscal Year 2018', ''],
      [
        ['', 'Net Sales', '% of Total', 'Net Sales', '% of Total'],
        ['APAC', '$533,340', '38.6%', '$479,987', '40.0%'],
        ['EMEA', '315,535', '22.8%', '277,898', '23.1%'],
        ['Total', '$1,382,818', '', '$1,200,181', ''],
      ],
    );
    expect(cellOf('What was the net sales in 2019 for EMEA?', regions)).toEqual(['315,535', 'B4']);
    expect(cellOf('What was the net sales of APAC in 2018?', regions)).toEqual(['$479,987', 'D3']);
  });

  it('reads 「2020年3月期 / 非監査業務に基づく報酬」 from a group header and the row under it', () => {
    const fees = tableSource(
      '監査報酬.csv',
      ['区分', '2019年3月期', '2019年3月期', '2020年3月期', '2020年3月期'],
      [
        [
          '',
          '監査証明業務に基づく報酬（百万円）',
          '非監査業務に基づく報酬（百万円）',
          '監査証明業務に基づく報酬（百万円）',
          '非監査業務に基づく報酬（百万円）',
        ],
        ['提出会社', '856', '41', '886', '34'],
        ['連結子会社', '406', '54', '436', '53'],
      ],
    );
    expect(cellOf('2020年の連結子会社の非監査業務に基づく報酬はいくらですか？', fees)).toEqual(['53', 'E4']);
  });

  it('reads 「2019年 / 占比(%)」 from a group header and the row under it', () => {
    const regions = tableSource(
      '地区收入.csv',
      ['地区', '2020年', '2020年', '2019年', '2019年'],
      [
        ['', '金额（万元）', '占比(%)', '金额（万元）', '占比(%)'],
        ['华东', '12,400', '41.3', '11,020', '39.8'],
        ['华北', '8,310', '27.7', '8,150', '29.4'],
      ],
    );
    expect(cellOf('2019年华北的占比是多少？', regions)).toEqual(['29.4', 'E4']);
  });
});

describe('a column whose header the question says word for word, not the cell beside the row label', () => {
  const cellOf = (q: string, t: TableSource) => {
    const c = answerFromTables(q, [t], new Map())?.citations[0];
    return [c?.quote, c?.anchor.kind === 'record' ? c.anchor.cell_range : ''];
  };

  it('reads 「年初…递延所得税资产…余额」 from 年初余额 / 递延所得税资产', () => {
    const deferred = tableSource(
      '递延所得税资产.csv',
      [
        '项目',
        '年末余额 / 可抵扣暂时性差异',
        '年末余额 / 递延所得税资产',
        '年初余额 / 可抵扣暂时性差异',
        '年初余额 / 递延所得税资产',
      ],
      [
        ['资产减值准备', '3,589,116.40', '677,567.91', '2,505,695.52', '487,042.83'],
        ['预计负债', '2,202,370.72', '518,036.80', '2,042,141.98', '482,340.37'],
      ],
    );
    expect(cellOf('年初时，预计负债的递延所得税资产有多少余额？', deferred)).toEqual(['482,340.37', 'E3']);
  });

  it('reads 「期首…繰延税金資産…残高」 from 期首残高 / 繰延税金資産', () => {
    const deferred = tableSource(
      '繰延税金資産.csv',
      ['区分', '期末残高 / 一時差異', '期末残高 / 繰延税金資産', '期首残高 / 一時差異', '期首残高 / 繰延税金資産'],
      [
        ['貸倒引当金', '1,204', '368', '1,150', '352'],
        ['賞与引当金', '2,310', '707', '2,180', '667'],
      ],
    );
    expect(cellOf('賞与引当金の期首の繰延税金資産の残高はいくらですか？', deferred)).toEqual(['667', 'E3']);
  });

  it('reads a column of numbers by a word only its header says (期初, 上年, 貸借対照表計上額)', () => {
    const stocks = tableSource(
      '銘柄数及び貸借対照表計上額.csv',
      ['', '銘柄数 (銘柄)', '貸借対照表計上額の合計額(百万円)'],
      [
        ['非上場株式', '243', '43,666'],
        ['非上場株式以外の株式', '126', '401,975'],
      ],
    );
    expect(cellOf('「貸借対照表計上額、非上場株式」は？', stocks)).toEqual(['43,666', 'C2']);
    const fees = tableSource(
      '其他应付款.csv',
      ['项 目', '期末数', '期初数'],
      [
        ['货款', '30,361,114.09', '47,749,196.41'],
        ['综合服务费', '3,880,532.12', '6,133,535.11'],
      ],
    );
    expect(cellOf('期初时,综合服务费有多少？', fees)).toEqual(['6,133,535.11', 'C3']);
    const costs = tableSource(
      '管理費用.csv',
      ['項 目', '本年發生額', '上年發生額'],
      [
        ['職工薪酬', '3,822,048.58', '3,284,442.64'],
        ['設備折舊', '8,292.72', '8,481.71'],
      ],
    );
    expect(cellOf('上一年的設備折舊的發生額是多少？', costs)).toEqual(['8,481.71', 'C3']);
  });
});

describe("the report's own period and the one before it: 当期 and 前期 under the report's heading", () => {
  /** A table under the headings of the report it is from. */
  const underHeading = (t: TableSource, heading: string): TableSource => ({
    ...t,
    elements: t.elements.map((e) => ({ ...e, section_path: [heading] })),
  });
  const cellOf = (q: string, t: TableSource) => {
    const c = answerFromTables(q, [t], new Map())?.citations[0];
    return [c?.quote, c?.anchor.kind === 'record' ? c.anchor.cell_range : ''];
  };

  it('reads 2019 from 前連結会計年度 and 2020 from 当連結会計年度 of the report for the period ending in 2020', () => {
    const fees = underHeading(
      tableSource(
        '監査公認会計士等に対する報酬.html',
        ['', '', '', '', ''],
        [
          ['区分', '前連結会計年度', '', '当連結会計年度', ''],
          [
            '',
            '監査証明業務に基づく報酬（百万円）',
            '非監査業務に基づく報酬（百万円）',
            '監査証明業務に基づく報酬（百万円）',
            '非監査業務に基づく報酬（百万円）',
          ],
          ['提出会社', '176', '56', '179', '2'],
          ['計', '195', '56', '197', '2'],
        ],
      ),
      '有価証券報告書 第95期（自 2019年４月１日 至 2020年３月31日） 監査報酬の内容等',
    );
    expect(cellOf('2020年の「監査証明業務に基づく報酬－計」は？', fees)).toEqual(['197', 'D5']);
    expect(cellOf('2019年の「非監査業務に基づく報酬－計」は？', fees)).toEqual(['56', 'C5']);
  });

  it('reads 2020 from the current year column and 2019 from the prior year of the annual report for 2020', () => {
    const fees = underHeading(
      tableSource(
        'audit-fees.csv',
        ['', 'Prior year', 'Current year'],
        [
          ['Audit fees', '1,204', '1,310'],
          ['Tax fees', '88', '91'],
        ],
      ),
      'Annual Report for the fiscal year ended December 31, 2020',
    );
    expect(cellOf('What were the audit fees in 2020?', fees)).toEqual(['1,310', 'C2']);
    expect(cellOf('What were the audit fees in 2019?', fees)).toEqual(['1,204', 'B2']);
  });

  it('reads 2020 from 本期 of the 2020 annual report', () => {
    const costs = underHeading(
      tableSource(
        '管理费用.csv',
        ['项目', '本期发生额', '上期发生额'],
        [
          ['职工薪酬', '3,822,048.58', '3,284,442.64'],
          ['折旧费', '8,292.72', '8,481.71'],
        ],
      ),
      '2020年年度报告',
    );
    expect(cellOf('2019年的折旧费是多少？', costs)).toEqual(['8,481.71', 'C3']);
  });
});

describe('table answering without a model', () => {
  it('reads numbers the way cells show them', () => {
    expect(cellNumber('$32,370.00')).toBe(32370);
    expect(cellNumber('1:25:23')).toBe(5123);
    expect(cellNumber('12th')).toBe(12);
    expect(cellNumber('—')).toBeNull();
  });

  it('looks a value up and cites the one cell that holds it', () => {
    const a = ask('What were the gross sales of Carretera in Canada?');
    expect(a?.refused).toBe(false);
    expect(a?.answer).toContain('$32,370.00');
    expect(a?.answer).toContain('Canada');
    expect(a?.citations[0]?.anchor).toMatchObject({ kind: 'record', cell_range: 'D2', sheet: 'Sales' });
    expect(a?.citations[0]?.quote).toBe('$32,370.00');
  });

  it('takes a superlative over a numeric column and answers with the named column', () => {
    const a = ask('Which country had the highest gross sales?');
    expect(a?.citations[0]).toMatchObject({ quote: 'France', anchor: { cell_range: 'B4' } });
    expect(a?.rows[0]?.element_id).toBe('e4');
  });

  it('counts rows that match and cites every cell it counted', () => {
    const a = ask('How many rows are for Germany?');
    expect(a?.answer).toMatch(/^2 — count of 2 rows/);
    expect(a?.citations.map((c) => (c.anchor.kind === 'record' ? c.anchor.cell_range : ''))).toEqual(['B3', 'B5']);
  });

  it('refuses when the table does not hold what the question names', () => {
    const a = ask('What was the attendance of the Lorraine Moller marathon in Osaka?');
    expect(a?.refused).toBe(true);
    expect(a?.citations).toEqual([]);
  });

  it("anchors a slide table's cell to its own box on the page", () => {
    const row: Element = {
      element_id: 'e3',
      type: 'table',
      section_path: [],
      text: 'Red | Green',
      anchor: {
        kind: 'page',
        artifact: 'pdf',
        page_index: 0,
        page_width: 720,
        page_height: 540,
        unit: 'pt',
        rotation: 0,
        boxes: [[100, 200, 400, 230]],
      },
      spans: [
        { start: 0, end: 3, box: [100, 200, 250, 230] },
        { start: 6, end: 11, box: [250, 200, 400, 230] },
      ],
      cells: [
        { ref: 'R2C1', col: 0, start: 0, end: 3 },
        { ref: 'R2C2', col: 1, start: 6, end: 11 },
      ],
      table: { index: 0, row: 1, header: false },
    };
    const cell = buildTable('deck.pptx', 'deck', [row]).rows[0]?.cells.get(1);
    expect(cell && cellAnchor(cell)).toMatchObject({ kind: 'page', page_index: 0, boxes: [[250, 200, 400, 230]] });
  });

  it('anchors an HTML cell to its text range and its <td> in the raw source', () => {
    const row: Element = {
      element_id: 'e9',
      type: 'table',
      section_path: [],
      text: 'Canada | 12',
      anchor: {
        kind: 'text',
        artifact: 'original',
        unit: 'codepoint',
        start: 100,
        end: 111,
        text_sha256: Z,
        raw: { start: 400, end: 460 },
      },
      cells: [
        { ref: 'A2', col: 0, start: 0, end: 6, raw: { start: 404, end: 419 } },
        { ref: 'B2', col: 1, start: 9, end: 11, raw: { start: 419, end: 430 } },
      ],
      table: { index: 0, row: 1, header: false },
    };
    const cell = buildTable('t.html', 't', [row]).rows[0]?.cells.get(1);
    expect(cell && cellAnchor(cell)).toMatchObject({ kind: 'text', start: 109, end: 111, raw: { start: 419, end: 430 } });
  });
});
