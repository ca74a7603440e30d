import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Engine } from './engine.js';
import { openTestEngine } from './test-engine.js';

/** Two seasons' tables with the same columns: "which week had the highest attendance?" fits both alike. */
const season = (weeks: [string, string][]): string =>
  ['Week,Opponent,Attendance', ...weeks.map(([o, a], i) => `${i + 1},${o},"${a}"`)].join('\n');
const first = season([
  ['Rovers', '41,200'],
  ['United', '52,900'],
  ['Athletic', '38,100'],
]);
const second = season([
  ['Harriers', '12,400'],
  ['Wanderers', '9,800'],
  ['Rangers', '15,300'],
]);
/** A table the question fits less: its rows name weeks, not attendance. */
const other = ['Week,Notes', '1,"opening week, record crowd"', '2,"bye week"'].join('\n');

let engine: Engine;
let close: () => Promise<void>;

beforeAll(async () => {
  ({ engine, close } = openTestEngine('pp-table-runner-up-', { isolate: false }));
  const collection = await engine.ensureCollection('default');
  const uploaded = await engine.upload(collection.collection_id, [
    { name: 'season_1959.csv', bytes: new TextEncoder().encode(first) },
    { name: 'season_1981.csv', bytes: new TextEncoder().encode(second) },
    { name: 'schedule_notes.csv', bytes: new TextEncoder().encode(other) },
  ]);
  await engine.waitForVersions(
    uploaded.map((u) => u.version.version_id),
    { timeoutMs: 30_000 },
  );
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
  });
});
