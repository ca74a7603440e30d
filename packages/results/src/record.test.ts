import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, expect, test } from 'vitest';
import { metric, renderPage, type Section } from './page.js';
import { commandLine, readResults, recordResult } from './record.js';

let dir = '';
afterEach(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
});
const fresh = (): string => {
  dir = mkdtempSync(join(tmpdir(), 'pinpoint-results-'));
  return dir;
};

test('a result file carries the command, commit, date, machine and metrics, and reads back', () => {
  const d = fresh();
  const path = recordResult({
    dir: d,
    area: 'eval',
    name: 'wtq-dev',
    command: 'pnpm pinpoint eval x --record',
    metrics: { 'mrr@10': 0.75, latency_ms: { p95: 12 } },
  });
  expect(path).toBe(join(d, 'eval/wtq-dev.json'));
  const file = JSON.parse(readFileSync(path, 'utf8'));
  expect(file).toMatchObject({ schema: 1, area: 'eval', name: 'wtq-dev', metrics: { 'mrr@10': 0.75 } });
  expect(file.machine.cores).toBeGreaterThan(0);
  expect(file.commit).toMatch(/^[0-9a-f]{12}$/);
  const [read] = readResults(d);
  expect(read?.path).toBe(join('eval', 'wtq-dev.json'));
});

test('names must be kebab-case and metrics finite JSON', () => {
  const d = fresh();
  expect(() => recordResult({ dir: d, area: 'Eval', name: 'x', command: 'pnpm x', metrics: {} })).toThrow(/kebab-case/);
  expect(() => recordResult({ dir: d, area: 'eval', name: 'x', command: 'pnpm x', metrics: { a: Number.NaN } })).toThrow(
    /finite/,
  );
});

test('the page prints each row with its result link, a dash for a missing figure, and a generic table for an unknown area', () => {
  const d = fresh();
  recordResult({ dir: d, area: 'eval', name: 'a-set', command: 'pnpm pinpoint eval a', metrics: { 'mrr@10': 0.5 } });
  recordResult({ dir: d, area: 'eval', name: 'b-set', command: 'pnpm pinpoint eval b', metrics: { 'mrr@10': 0.25, 'hit@5': 1 } });
  recordResult({ dir: d, area: 'new-area', name: 'one', command: 'pnpm bench --new', metrics: { speed: 3, unit: 'x' } });
  const section: Section = {
    area: 'eval',
    title: 'Retrieval',
    intro: 'intro',
    columns: [
      { label: 'MRR@10', value: metric('mrr@10'), format: 'ratio' },
      { label: 'Hit@5', value: metric('hit@5'), format: 'ratio' },
    ],
  };
  const page = renderPage([section], readResults(d), '# B');
  expect(page).toContain('| [a-set](../results/eval/a-set.json) | 0.500 | — |');
  expect(page).toContain('| [b-set](../results/eval/b-set.json) | 0.250 | 1.000 |');
  expect(page).toContain('## New Area');
  expect(page).toMatch(/\| \[one\]\(\.\.\/results\/new-area\/one\.json\) \| 3 \| x \|/);
  expect(page).toContain('## Machines');
});

test('the command line is quoted as a shell would need it', () => {
  expect(commandLine('pinpoint', ['eval', '../shared/eval/wtq-dev', '--record'])).toBe(
    'pnpm pinpoint eval ../shared/eval/wtq-dev --record',
  );
  expect(commandLine('bench', ['--sets', 'a b'])).toBe("pnpm bench --sets 'a b'");
});
