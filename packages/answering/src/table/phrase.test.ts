import { describe, expect, it } from 'vitest';
import { reportTable } from '../figures/test-tables.js';
import { execute } from './compute.js';
import { answerLine, tableReason } from './phrase.js';
import { planQuestion } from './question.js';

const MEDALS = reportTable('medals.csv', 'medals', [
  ['Nation', 'Gold', 'Silver'],
  ['Kenya', '6', '4'],
  ['Ethiopia', '3', '5'],
]);

/** A question's answer line on the table, with the marks given. */
function line(q: string): string | undefined {
  const plan = planQuestion(q, MEDALS, new Map());
  const result = execute(MEDALS, plan);
  return result && answerLine(result, plan, '[1]');
}

describe('phrasing a table answer', () => {
  it('tells a cell found with the row cells that matched, a computed value with how it was computed', () => {
    expect(line('how many silver medals did ethiopia win?')).toBe('Ethiopia — 5 [1]');
    expect(line('how many gold medals did kenya and ethiopia win combined?')).toBe('9 — sum of Gold over 2 rows [1]');
  });

  it("says which table answered and how in the question's language, and a table that fits almost as well", () => {
    expect(tableReason('Which nation won the most gold?', 'medals.csv', 'largest Gold of 2 rows')).toBe(
      'Read from the table in medals.csv (largest Gold of 2 rows).',
    );
    expect(tableReason('金メダルが最も多い国は？', 'medals.csv', '2行のうちGoldが最大', 'other.csv')).toBe(
      'medals.csv の表から読み取りました（2行のうちGoldが最大）。 ほぼ同じくらい当てはまる表がもう一つあります: other.csv。',
    );
  });
});
