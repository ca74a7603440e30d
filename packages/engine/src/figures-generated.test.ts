import { readFileSync } from 'node:fs';
import { figuresChecked } from '@pinpoint/answering';
import { createGenerator } from '@pinpoint/providers';
import { type FakeServer, startFakeGemini } from '@pinpoint/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Engine } from './engine.js';
import { openTestEngine, uploadSettled } from './test-engine.js';

/** A TAT-QA report table (../shared/eval/tatqa-arith-dev), read in place. */
const FILE = '054_Summary_of_Cash_Flows.html';
const PATH = `../shared/eval/tatqa-arith-dev/docs/${FILE}`;

let gemini: FakeServer;
let engine: Engine;
let close: () => Promise<void>;

/** The model's answers, by the question in its prompt: one states the figures it was given, one another figure. */
function answer(prompt: string): string {
  if (prompt.includes('investing activities from 2017 to 2018'))
    return 'Net cash used in investing activities grew by 43 million, from (71) [1] to (114) [2] [3].';
  if (prompt.includes('operating activities from 2017 to 2018')) return 'It rose by 250 million [1][2].';
  return 'NO_ANSWER: The documents do not answer this question.';
}

beforeAll(async () => {
  gemini = await startFakeGemini(answer);
  const generator = createGenerator({ kind: 'gemini', apiKey: 'test', baseUrl: gemini.url });
  ({ engine, close } = openTestEngine('pp-figures-gen-', { isolate: false, ...(generator ? { ports: { generator } } : {}) }));
  const collection = (await engine.ensureCollection('default')).collection_id;
  await uploadSettled(engine, collection, [{ name: FILE, bytes: new Uint8Array(readFileSync(PATH)) }], 60_000);
}, 90_000);

afterAll(async () => {
  await close();
  await gemini.close();
});

describe('a computed figure in the model’s words', () => {
  it('gives the model the operands and the computed figure, and keeps its answer when its figures are those', async () => {
    const a = await engine.ask(
      'What was the change in the Net cash provided by (used in) investing activities from 2017 to 2018?',
    );
    const prompt = JSON.stringify(gemini.requests.at(-1)?.body);
    // each operand as its line item, period and cell; the computed figure with its arithmetic last
    expect(prompt).toContain('(114)');
    expect(prompt).toContain('(71)');
    expect(prompt).toContain('(114) − (71)');
    expect(a.generator).toMatch(/gemini/);
    expect(a.answer).toBe('Net cash used in investing activities grew by 43 million, from (71) [1] to (114) [2].');
    expect(a.value).toEqual({ number: -43, scale: 'million', unit: 'USD' });
    expect(a.citations.map((c) => c.quote)).toEqual(['(71)', '(114)']);
  });
  it('keeps the computed answer when the model states a figure it was not given', async () => {
    const a = await engine.ask('What was the change in the Net cash provided by operating activities from 2017 to 2018?');
    expect(a.generator).toBeUndefined();
    expect(a.answer).toMatch(
      /^\$242 million = \$768 − \$526 — change in Net cash provided by operating activities, 2017 to 2018 \[1\]\[2\]$/,
    );
  });
});

describe('figuresChecked', () => {
  it('accepts an operand’s or the computed figure to the rounding written, and nothing else', () => {
    expect(figuresChecked('It was 3.72 [1], from 5,218 and 420.5 in 2018.', [3.7246, 5218, 420.5])).toBe(true);
    expect(figuresChecked('It was 3.7 [1].', [3.7246])).toBe(true);
    expect(figuresChecked('It was 3.9 [1].', [3.7246])).toBe(false);
    expect(figuresChecked('A change of −43 million [1][2].', [43])).toBe(true);
  });
});
