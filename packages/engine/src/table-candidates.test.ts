import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Engine } from './engine.js';
import { openTestEngineWith } from './test-engine.js';

/** A long table whose every row repeats the question's words: its rows fill the first 50 candidates. */
const notes = [
  'Entry,Notes',
  ...Array.from({ length: 70 }, (_, i) => `Entry ${i + 1},"club attendance club attendance note ${i + 1}"`),
].join('\n');
/** The table the question is about: its words are its headers, its rows rank below the other's. */
const clubs = [
  'Club,Stadium,Attendance',
  'Rovers,North Park,"12,400"',
  'United,Harbour Road,"31,900"',
  'Athletic,Mill Lane,"8,250"',
].join('\n');

let engine: Engine;
let close: () => Promise<void>;

beforeAll(async () => {
  ({ engine, close } = await openTestEngineWith('pp-table-candidates-', { 'notes.csv': notes, 'clubs.csv': clubs }));
});

afterAll(async () => close());

describe('the candidate tables of a table question', () => {
  it('reads a table whose rows rank below the first 50 candidates', async () => {
    const found = await engine.search('Which club had the highest attendance?', { k: 50 });
    // the long table's rows take every one of the first 50 places
    expect(new Set(found.hits.map((h) => h.file))).toEqual(new Set(['notes.csv']));
    const res = await engine.ask('Which club had the highest attendance?');
    expect(res.citations[0]).toMatchObject({ file: 'clubs.csv', quote: 'United', anchor: { cell_range: 'A3' } });
  });
});
