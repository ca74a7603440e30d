import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Engine } from './engine.js';
import { openTestEngine, uploadSettled } from './test-engine.js';

/** 3M's 2018 10-K (FinanceBench), read in place: its statements are tables on PDF pages. */
const FILE = '3M_2018_10K.pdf';
const PATH = `../shared/eval/financebench-dev/docs/${FILE}`;

let engine: Engine;
let close: () => Promise<void>;

beforeAll(async () => {
  ({ engine, close } = openTestEngine('pp-report-figure-', { isolate: false }));
  const collection = (await engine.ensureCollection('default')).collection_id;
  await uploadSettled(engine, collection, [{ name: FILE, bytes: new Uint8Array(readFileSync(PATH)) }], 240_000);
}, 300_000);

afterAll(async () => close());

describe('figures of a named report', () => {
  it('states a line item as a figure with its unit and period, citing that one cell on its page', async () => {
    const a = await engine.ask("What was 3M's capital expenditure in 2018?");
    expect(a.refused).toBe(false);
    expect(a.answer).toMatch(/^\$1,577 million — Purchases of property, plant and equipment \(PP&E\), 2018 \[1\]$/);
    expect(a.value).toEqual({ number: 1577, scale: 'million', unit: 'USD' });
    expect(a.citations).toHaveLength(1);
    const [c] = a.citations;
    expect(c?.quote).toMatch(/1,577/);
    expect(c?.anchor.kind).toBe('page');
    // the box of the 2018 cell alone, not the row
    if (c?.anchor.kind === 'page') expect(c.anchor.boxes.length).toBeLessThanOrEqual(2);
  });
  it('computes a ratio over two statements, every operand a cited cell', async () => {
    const a = await engine.ask("What is 3M's FY2018 fixed asset turnover ratio?");
    expect(a.refused).toBe(false);
    expect(a.calculation?.operands).toHaveLength(3);
    expect(a.citations).toHaveLength(3);
    // revenue ÷ the average of net PP&E at the year's end and the end before, each as the statement writes it
    expect(a.calculation?.expression).toMatch(/^(?:\$ ?)?[\d,]+ ÷ \(\((?:\$ ?)?[\d,]+ \+ (?:\$ ?)?[\d,]+\) ÷ 2\)$/);
    expect(a.calculation?.operands.map((o) => o.period.replace(/^December 31, /, ''))).toEqual(['2018', '2018', '2017']);
    expect(a.value?.number).toBe(3.72);
    for (const [i, o] of (a.calculation?.operands ?? []).entries()) expect(a.citations[i]?.quote).toContain(o.value);
  });
  it("reads a statement parted by a section heading under the first part's periods", async () => {
    // the balance sheet's equity rows are a table of their own on the page, with no header row
    const a = await engine.ask("What were 3M's retained earnings in 2018?");
    expect(a.answer).toMatch(/^\$40,636 million — Retained earnings, 2018 \[1\]$/);
    expect(a.citations[0]?.quote).toBe('40,636');
  });
  it('reads a measure from the balance sheet, not from a note about it nor an "other" line', async () => {
    const a = await engine.ask("What is 3M's current ratio for FY2018?");
    expect(a.calculation?.expression).toBe('13,709 ÷ 7,244');
    expect(a.value?.number).toBe(1.89);
    // a judgment that names its measure and year rests on that figure, stated
    const judged = await engine.ask('Does 3M have a healthy liquidity profile based on its current ratio for FY2018?');
    expect(judged.value?.number).toBe(1.89);
  });
  it('refuses a measure whose line item the report lacks, naming it', async () => {
    const a = await engine.ask("What is 3M's FY2018 cash conversion cycle?");
    // every operand is in a 10-K: asked of a measure whose item is missing, the refusal names the item
    if (a.refused) expect(a.answer).toMatch(/do not show/);
    else expect(a.calculation?.operands.length).toBeGreaterThanOrEqual(6);
  });
});
