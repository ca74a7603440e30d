import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { answerContains } from './answer-contains.js';
import { loadDataset } from './dataset.js';
import { writeOfftopicDataset } from './offtopic.js';

const shared = (set: string) => new URL(`../../../../shared/eval/${set}`, import.meta.url).pathname;
const dir = mkdtempSync(join(tmpdir(), 'pp-offtopic-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('writeOfftopicDataset', () => {
  it("asks the other set's questions of the base set's documents, as questions to refuse", () => {
    const out = writeOfftopicDataset(shared('jsquad-dev'), shared('jaquad-dev'), join(dir, 'ja'));
    const base = loadDataset(shared('jsquad-dev'));
    const other = loadDataset(shared('jaquad-dev'));
    expect(out.files.map((f) => f.name)).toEqual(base.files.map((f) => f.name));
    const answerable = out.questions.filter((q) => q.answerable);
    const offtopic = out.questions.filter((q) => !q.answerable);
    expect(answerable).toEqual(base.questions.filter((q) => q.answerable));
    expect(offtopic).toHaveLength(100);
    const asked = new Set(other.questions.map((q) => q.question));
    expect(offtopic.every((q) => asked.has(q.question) && q.gold.length === 0 && q.id.startsWith('off-'))).toBe(true);
    // Deterministic: the same sets give the same questions.
    const again = writeOfftopicDataset(shared('jsquad-dev'), shared('jaquad-dev'), join(dir, 'ja2'));
    expect(again.sha256).not.toBe('');
    expect(again.questions).toEqual(out.questions);
  });
});

describe('answerContains', () => {
  it('counts answered answerable questions whose answer holds an expected string', () => {
    expect(
      answerContains([
        { answerable: true, refused: false, answer: 'Founded in １６３６ by vote. [1]', answers: ['1636'] },
        { answerable: true, refused: false, answer: 'The college grew. [1]', answers: ['1636'] },
        { answerable: true, refused: true, answer: 'The documents do not answer this question.', answers: ['1636'] },
        { answerable: false, refused: false, answer: 'Something. [1]', answers: [] },
      ]),
    ).toBe(0.5);
  });
});
