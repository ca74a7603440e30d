import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Engine } from './engine.js';
import { openTestEngineWith } from './test-engine.js';

/** Two seasons' tables with the same columns: "which week had the highest attendance?" fits both alike. */
const season = (weeks: [string, string][]): string =>
  ['Week,Opponent,Attendance', ...weeks.map(([o, a], i) => `${i + 1},${o},"${a}"`)].join('\n');
const first = season([
  ['Rovers', '41,200'],
  ['United', '52,900'],
  ['Athletic', '38,100'],
  ['Albion', '35,000'],
  ['City', '30,500'],
]);
const second = season([
  ['Harriers', '12,400'],
  ['Wanderers', '9,800'],
  ['Rangers', '15,300'],
  ['Town', '8,700'],
  ['County', '7,900'],
]);
/** A long table the question fits less (its words are in its cells, not its headers): its rows fill the lexical list. */
const other = [
  'Entry,Notes',
  ...Array.from({ length: 60 }, (_, i) => `${i + 1},"week attendance week attendance note ${i + 1}"`),
].join('\n');

let engine: Engine;
let close: () => Promise<void>;

beforeAll(async () => {
  ({ engine, close } = await openTestEngineWith('pp-table-runner-up-', {
    'season_1959.csv': first,
    'season_1981.csv': second,
    'schedule_notes.csv': other,
  }));
});

afterAll(async () => close());

describe('the retrieved list of a table question', () => {
  it("puts the answer row of a table the question fits as well second, before the chosen table's further rows", async () => {
    const res = await engine.ask('Which week had the highest attendance?');
    const [a, b, c] = res.retrieved;
    expect(a?.file).not.toBe(b?.file);
    expect(new Set([a?.file, b?.file])).toEqual(new Set(['season_1959.csv', 'season_1981.csv']));
    // each table's own answer row: the week of its largest attendance
    expect([a, b].map((h) => h?.text).sort()).toEqual(['2 | United | 52,900', '3 | Rangers | 15,300']);
    expect(c?.file).toBe(a?.file);
    // the answer says another table fits the question almost as well
    expect(res.gate?.reason).toMatch(new RegExp(`Another table fits the question almost as well: ${b?.file}\\.$`));
    // after the runners-up, the chosen table's further rows: all five of its rows are in the first ten
    const own = res.retrieved.slice(0, 10).filter((h) => h.file === a?.file);
    expect(own).toHaveLength(5);
    expect(res.retrieved.indexOf(own[3] as (typeof res.retrieved)[number])).toBeGreaterThan(
      res.retrieved.indexOf(b as (typeof res.retrieved)[number]),
    );
  });
});
