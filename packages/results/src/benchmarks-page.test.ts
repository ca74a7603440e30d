import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from 'vitest';
import { benchmarksPage } from './benchmarks-page.js';
import { readResults, repoRoot } from './record.js';

test('docs/benchmarks.md is what `pnpm bench:report` makes from the committed result files', () => {
  expect(readFileSync(join(repoRoot, 'docs/benchmarks.md'), 'utf8')).toBe(benchmarksPage());
});

test('every committed result file names its command, commit, date and machine', () => {
  for (const r of readResults()) {
    expect(r.command, r.path).toMatch(/^pnpm /);
    expect(r.commit, r.path).toMatch(/^[0-9a-f]{7,40}$/);
    expect(Number.isNaN(Date.parse(r.date)), r.path).toBe(false);
    expect(r.machine.cores, r.path).toBeGreaterThan(0);
  }
});
