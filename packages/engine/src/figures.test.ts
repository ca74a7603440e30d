import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Engine } from './engine.js';
import { openTestEngine, uploadSettled } from './test-engine.js';

/** Real report tables of TAT-QA (../shared/eval/tatqa-arith-dev), read in place: HTML, XLSX, CSV and DOCX. */
const DOCS = '../shared/eval/tatqa-arith-dev/docs';
const FILES = [
  '054_Summary_of_Cash_Flows.html',
  '125_Note_8_Property_Plant_and_Equipment_net.xlsx',
  '120_In_2019_2018_and_2017_we_adopted.csv',
  '015_Cost_of_Revenue.docx',
  '095_Note_4_Expenses.docx',
];

let engine: Engine;
let close: () => Promise<void>;

beforeAll(async () => {
  const opened = openTestEngine('pp-figures-', { isolate: false });
  ({ engine, close } = opened);
  const collection = (await engine.ensureCollection('default')).collection_id;
  const files = FILES.map((name) => ({ name, bytes: new Uint8Array(readFileSync(`${DOCS}/${name}`)) }));
  await uploadSettled(engine, collection, files, 60_000);
}, 90_000);

afterAll(async () => close());

describe('figures computed from cited report cells', () => {
  it('a change: the later period less the earlier, each operand a cited cell, the arithmetic shown (HTML)', async () => {
    const a = await engine.ask(
      'What was the change in the Net cash provided by (used in) investing activities from 2017 to 2018?',
    );
    expect(a.refused).toBe(false);
    // the table's amounts are in dollars ("$992" on its first row): so is the change
    expect(a.value).toEqual({ number: -43, scale: 'million', unit: 'USD' });
    expect(a.calculation?.expression).toBe('(114) − (71)');
    expect(a.calculation?.operands.map((o) => [o.n, o.value, o.period])).toEqual([
      [1, '(71)', 'December 29, 2017'],
      [2, '(114)', 'December 28, 2018'],
    ]);
    expect(a.answer).toMatch(
      /^−\$43 million = \(114\) − \(71\) — change in Net cash provided by \(used in\) investing activities, 2017 to 2018 \[1\]\[2\]$/,
    );
    expect(a.citations.map((c) => [c.file, c.quote])).toEqual([
      ['054_Summary_of_Cash_Flows.html', '(71)'],
      ['054_Summary_of_Cash_Flows.html', '(114)'],
    ]);
  });
  it('an average of two periods (XLSX), cited to the cell', async () => {
    const a = await engine.ask('What is the average value of computer equipment and software in both 2018 and 2019?');
    expect(a.value?.number).toBe(14373.5);
    expect(a.citations.map((c) => (c.anchor.kind === 'record' ? c.anchor.cell_range : undefined)).sort()).toEqual(['C3', 'D3']);
  });
  it('a percentage change (CSV) and an average of a DOCX table', async () => {
    const pct = await engine.ask('What is the percentage change in interest cost in 2019 from 2018?');
    expect(pct.value).toEqual({ number: 11.22, scale: 'percent', unit: '%' });
    expect(pct.answer).toMatch(/^11\.22% = \(436 − 392\) ÷ 392 × 100/);
    const avg = await engine.ask('What was the average Services for 2018 and 2019?');
    expect(avg.value?.number).toBe(244800.5);
    expect(avg.citations).toHaveLength(2);
    expect(avg.citations.every((c) => c.file === '015_Cost_of_Revenue.docx')).toBe(true);
  });
  it('refuses a computation whose line item no table holds, naming it', async () => {
    const a = await engine.ask('What was the percentage change in the interest cost of the submarine fleet from 2018 to 2019?');
    expect(a.refused).toBe(true);
    expect(a.citations).toEqual([]);
    expect(a.value).toBeUndefined();
  });
});
