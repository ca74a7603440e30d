import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Engine } from './engine.js';
import { openTestEngine, uploadSettled } from './test-engine.js';

const DOCS = join(import.meta.dirname, '../../../../shared/eval/wtq-dev/docs');
/** Three race results alone (XLSX, HTML, CSV): every row says Driver and Laps, so the index weighs those words next to nothing. */
const FILES = ['106_1967_British_Grand_Prix.xlsx', '149_Edmonton_Indy.html', '096_1954_24_Hours_of_Le_Mans.csv'];

let engine: Engine;
let close: () => Promise<void>;

beforeAll(async () => {
  const opened = openTestEngine('pp-table-few-', { isolate: false });
  ({ engine, close } = opened);
  const collection = await engine.ensureCollection('default');
  await uploadSettled(
    engine,
    collection.collection_id,
    FILES.map((name) => ({ name, bytes: new Uint8Array(readFileSync(join(DOCS, name))) })),
    60_000,
  );
}, 90_000);

afterAll(async () => close());

describe('a collection of a few tables with the same headers', () => {
  it('answers from the header words a question names, though every row holds them', async () => {
    // "finished" is in no document: it must not outweigh "driver" and "laps", which every table row holds
    const res = await engine.ask('Which driver finished the most laps?');
    expect(res.refused).toBe(false);
    expect(res.citations[0]?.anchor).toMatchObject({ kind: expect.stringMatching(/^(record|text)$/) });
    expect(res.gate?.reason).toMatch(/^Read from the table in .+ \(largest Laps of \d+ rows\)/);
  });

  it('still refuses what none of the tables holds', async () => {
    for (const q of ['What is the capital of France?', 'How many goals did Lionel Messi score in 2012?']) {
      const res = await engine.ask(q);
      expect(res.refused, q).toBe(true);
      expect(res.citations).toEqual([]);
    }
  });
});
