import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { defaultEngineConfig } from '@pinpoint/engine';
import { runEval } from '@pinpoint/eval';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createEvalEngine, recordEvalRun, withDataset } from './eval.js';

let dir: string;
const engineConfig = { ...defaultEngineConfig, parse: { ...defaultEngineConfig.parse, isolate: false } };

function writeSet(name: string, docs: Record<string, string>, questions: object[]): string {
  const set = join(dir, name);
  mkdirSync(join(set, 'docs'), { recursive: true });
  for (const [file, text] of Object.entries(docs)) writeFileSync(join(set, 'docs', file), text);
  writeFileSync(join(set, 'questions.jsonl'), `${questions.map((q) => JSON.stringify(q)).join('\n')}\n`);
  return set;
}

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'pp-eval-record-'));
  writeSet('refunds-set', { 'refunds.md': '# Refunds\n\nTaxi fares are refunded up to fifty dollars per trip.\n' }, [
    {
      id: 'q1',
      question: 'Are taxi fares refunded?',
      lang: 'en',
      answerable: true,
      answers: ['fifty dollars'],
      gold: [{ file: 'refunds.md' }],
    },
  ]);
  writeSet('parking-set', { 'parking.md': '# Parking\n\n駐車許可は施設課が毎月発行します。\n' }, [
    {
      id: 'p1',
      question: '駐車許可は誰が発行しますか？',
      lang: 'ja',
      answerable: true,
      answers: ['施設課'],
      gold: [{ file: 'parking.md' }],
    },
  ]);
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

it('records a run as results/eval/<set>.json with its figures and the command, not its questions', async () => {
  const run = await runEval(join(dir, 'refunds-set'), { engineFactory: () => createEvalEngine(engineConfig, 1) });
  const path = recordEvalRun(run, ['eval', 'refunds-set', '--record'], join(dir, 'results'));
  expect(path).toBe(join(dir, 'results/eval/refunds-set.json'));
  const file = JSON.parse(readFileSync(path, 'utf8'));
  expect(file.command).toBe('pnpm pinpoint eval refunds-set --record');
  expect(file.metrics).toMatchObject({
    questions: 1,
    answerable: 1,
    language: 'en',
    mode: 'lexical',
    'mrr@10': run.metrics['mrr@10'],
  });
  expect(JSON.stringify(file)).not.toContain('Are taxi fares refunded');
  expect(file.note).toBeUndefined();
  const noted = recordEvalRun(
    run,
    ['eval', 'refunds-set', '--record', '--note', 'p95 varies'],
    join(dir, 'results'),
    'p95 varies',
  );
  expect(JSON.parse(readFileSync(noted, 'utf8')).note).toBe('p95 varies');
});

it('records an off-topic run under its pair name while its temporary folder still exists', async () => {
  const path = await withDataset(join(dir, 'refunds-set'), join(dir, 'parking-set'), async (set) => {
    const run = await runEval(set, { engineFactory: () => createEvalEngine(engineConfig, 1) });
    return recordEvalRun(run, ['eval', 'refunds-set', '--offtopic-from', 'parking-set', '--record'], join(dir, 'results'));
  });
  expect(path).toBe(join(dir, 'results/eval/refunds-set-offtopic-parking-set.json'));
});
