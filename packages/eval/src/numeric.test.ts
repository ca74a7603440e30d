import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { NumericAnswer, NumericQuestion } from './numeric.js';
import { numericMetrics } from './numeric.js';

const SETS = ['../shared/eval/tatqa-arith-dev', '../shared/eval/financebench-dev'];
const SCORER = '../shared/tools/score_numeric.py';

/**
 * Answers of every form the reference scorer reads, made from each question's gold: the figure as
 * printed, in brackets, with a scale word, as a value object, off by 3 %, refused, a percentage.
 */
function answerFor(q: NumericQuestion, i: number): NumericAnswer {
  const printed = q.answers?.[0] ?? q.reference_answer ?? '';
  const n = typeof q.value === 'number' ? q.value : Number((/-?\d[\d,]*(?:\.\d+)?/.exec(printed)?.[0] ?? '0').replace(/,/g, ''));
  switch (i % 8) {
    case 0:
      return { refused: false, answer: `${printed} — as stated [1]` };
    case 1:
      return { refused: false, answer: `(${Math.abs(n).toLocaleString('en-US')}) [1]` };
    case 2:
      return { refused: false, answer: `$${n} million [1][2]` };
    case 3:
      return { refused: false, answer: 'see [1]', value: { number: n, scale: q.scale ?? '' } };
    case 4:
      return { refused: false, answer: `${(n * 1.03).toFixed(2)} [1]` };
    case 5:
      return { refused: true, answer: 'The documents do not answer this question.' };
    case 6:
      return { refused: false, answer: `${n}% of the total in 2019 [1]` };
    default:
      return { refused: false, answer: `In 2019 the figure was −${Math.abs(n)} [1]` };
  }
}

describe('numeric metrics', () => {
  for (const set of SETS) {
    it(`agree with score_numeric.py on ${set.split('/').at(-1)}`, () => {
      const questions = readFileSync(`${set}/questions.jsonl`, 'utf8')
        .split('\n')
        .filter((l) => l.trim() !== '')
        .map((l) => JSON.parse(l) as NumericQuestion);
      const answers = new Map(questions.map((q, i) => [q.id, answerFor(q, i)]));
      const dir = mkdtempSync(join(tmpdir(), 'pp-numeric-'));
      try {
        const run = join(dir, 'run.json');
        const records = questions.map((q) => ({ id: q.id, ...answers.get(q.id) }));
        writeFileSync(run, JSON.stringify({ questions: records }));
        const reference = JSON.parse(
          execFileSync('python3', [SCORER, set, run], { encoding: 'utf8' }).trim().split('\n').at(-1) as string,
        );
        const ours = numericMetrics(questions, (id) => answers.get(id));
        expect(ours).toBeDefined();
        const pick = (m: { numeric_questions: number; answered: number; correct: number }) => [
          m.numeric_questions,
          m.answered,
          m.correct,
        ];
        expect(pick(ours as NonNullable<typeof ours>)).toEqual(pick(reference));
        for (const [kind, m] of Object.entries(
          reference.by_kind as Record<string, { numeric_questions: number; answered: number; correct: number }>,
        ))
          expect(pick(ours?.by_kind[kind] as NonNullable<typeof ours>)).toEqual(pick(m));
        expect(ours?.correct).toBeGreaterThan(0);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    });
  }
  it('is undefined for a set whose gold is no number', () => {
    expect(
      numericMetrics([{ id: 'a', question: 'Who?', answerable: true, answers: ['Ada Lovelace'] }], () => undefined),
    ).toBeUndefined();
  });
});
