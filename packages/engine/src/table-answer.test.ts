import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Engine } from './engine.js';
import { openTestEngineWith } from './test-engine.js';

const season = [
  'Game,Date,Opponent,Venue,Attendance,Opening act',
  '1,March 3,Boston Blazers,Prudential Center,"12,000",Cadillac Tramps',
  '2,March 10,Chicago Shamrox,Sears Centre,"41,250",Doughboys',
  '3,March 17,Boston Blazers,TD Garden,"9,800",Mudhoney',
  '4,March 24,Toronto Rock,Prudential Center,"15,300",Urge Overkill',
].join('\n');
const tour = [
  'Date,City,Venue,Opening act',
  'August 12,Calgary,Max Bell Arena,Urge Overkill',
  'August 14,Edmonton,Convention Centre,Cadillac Tramps',
  'August 17,Vancouver,PNE Forum,Mudhoney',
].join('\n');

let engine: Engine;
let close: () => Promise<void>;

beforeAll(async () => {
  ({ engine, close } = await openTestEngineWith('pp-table-answer-', { 'season.csv': season, 'tour.csv': tour }));
});

afterAll(async () => close());

describe('table questions through the engine', () => {
  it('cites the answer cell, leads with its row, and lists the row the other table would answer with', async () => {
    const res = await engine.ask('In which venue was the game with an attendance of more than 40,000?');
    expect(res.refused).toBe(false);
    expect(res.citations[0]).toMatchObject({
      file: 'season.csv',
      quote: 'Sears Centre',
      anchor: { kind: 'record', cell_range: 'D3' },
    });
    expect(res.retrieved[0]?.text).toContain('Sears Centre');
    // the answer view's line says which table answered and how
    expect(res.gate?.reason).toMatch(/^Read from the table in season\.csv \(first row with Attendance > 40000\)\.$/);
    expect(res.gate).toMatchObject({ reason_code: 'table', reason_params: { file: 'season.csv' } });
    const next = await engine.ask('Who was the next opening act after the Cadillac Tramps?');
    expect(next.citations[0]?.quote).toMatch(/^(Doughboys|Mudhoney)$/);
    // both tables fit the question: the one not chosen still has its answer row in the list's head
    expect(new Set(next.retrieved.slice(0, 6).map((r) => r.file))).toEqual(new Set(['season.csv', 'tour.csv']));
  });
});
