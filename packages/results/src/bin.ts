/**
 * `pnpm bench:report [--check]`: writes docs/benchmarks.md from the result files under results/;
 * with --check, exits 1 when the committed page differs from what the results make.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { benchmarksPage } from './benchmarks-page.js';
import { repoRoot } from './record.js';

const target = join(repoRoot, 'docs/benchmarks.md');
const page = benchmarksPage();
if (process.argv.includes('--check')) {
  let current = '';
  try {
    current = readFileSync(target, 'utf8');
  } catch {}
  if (current !== page) {
    process.stderr.write('docs/benchmarks.md is not what the result files make: run `pnpm bench:report`\n');
    process.exitCode = 1;
  }
} else {
  writeFileSync(target, page);
  process.stdout.write(`wrote docs/benchmarks.md (${page.split('\n').length} lines)\n`);
}
