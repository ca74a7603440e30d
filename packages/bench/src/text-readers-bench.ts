import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expandFinanceTerms, findPeriods, headerScale, parseNumberAsWritten } from '@pinpoint/analysis';
import { commandLine, recordResult } from '@pinpoint/results';

/**
 * `pnpm bench --skip-ingest --skip-query --text-readers [--record]`: time per call of the period,
 * line-item, number and header readers of @pinpoint/analysis on real text: 300-character questions
 * made of consecutive eval questions of each language, and the cells of the table sets' CSVs.
 * Per-call times are medians and p95 of batches (one batch = every input once), in microseconds of
 * this process's CPU time (and the wall-time median, which other processes on the cores inflate).
 */
const QUESTION_SETS = {
  en: ['tatqa-dev', 'squad2-dev'],
  ja: ['ja-table-dev', 'jsquad-dev'],
  zh: ['zh-table-dev', 'drcd-dev'],
} as const;
const LENGTH = 300;
const BATCHES = 200;

/** Consecutive questions joined until each text holds 300 codepoints. */
function questionTexts(shared: string, sets: readonly string[]): string[] {
  const out: string[] = [];
  let current: string[] = [];
  for (const set of sets) {
    const lines = readFileSync(join(shared, 'eval', set, 'questions.jsonl'), 'utf8')
      .trim()
      .split('\n');
    for (const line of lines) {
      current.push(...Array.from(`${(JSON.parse(line) as { question: string }).question} `));
      if (current.length >= LENGTH) {
        out.push(current.slice(0, LENGTH).join(''));
        current = [];
      }
    }
  }
  return out;
}

function tableCells(shared: string): string[] {
  const cells: string[] = [];
  for (const set of ['tatqa-dev', 'ja-table-dev', 'zh-table-dev']) {
    const dir = join(shared, 'eval', set, 'docs');
    for (const f of readdirSync(dir).filter((n) => n.endsWith('.csv'))) {
      for (const m of readFileSync(join(dir, f), 'utf8').matchAll(/"((?:[^"]|"")*)"|([^,\n]+)/g))
        cells.push((m[1] ?? m[2] ?? '').trim());
    }
  }
  return cells.filter((c) => c.length > 0);
}

interface Timing {
  /** CPU time of this process per call (user + system): what the call costs, less hurt by other processes on the cores. */
  cpu_p50_us: number;
  cpu_p95_us: number;
  /** Wall time per call: inflated when the cores are shared. */
  wall_p50_us: number;
}

/** Per-call microseconds of `fn` over `inputs`, batch by batch (one batch = every input once) after a warm-up. */
function timePerCall(inputs: readonly string[], fn: (s: string) => unknown): Timing {
  for (const s of inputs) fn(s);
  const cpu: number[] = [];
  const wall: number[] = [];
  for (let b = 0; b < BATCHES; b++) {
    const started = performance.now();
    const before = process.cpuUsage();
    for (const s of inputs) fn(s);
    const used = process.cpuUsage(before);
    wall.push(((performance.now() - started) * 1000) / inputs.length);
    cpu.push((used.user + used.system) / inputs.length);
  }
  const at = (xs: number[], p: number) => {
    const sorted = [...xs].sort((a, b) => a - b);
    return Math.round((sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))] ?? 0) * 100) / 100;
  };
  return { cpu_p50_us: at(cpu, 0.5), cpu_p95_us: at(cpu, 0.95), wall_p50_us: at(wall, 0.5) };
}

export function benchTextReaders(shared: string, record: boolean): void {
  const metrics: Record<string, Timing | number> = {};
  console.log(`text readers (µs per call; medians of ${BATCHES} batches; ${LENGTH}-character questions; 2 shared cores: noisy):`);
  for (const [lang, sets] of Object.entries(QUESTION_SETS)) {
    const texts = questionTexts(shared, sets);
    metrics[`questions_${lang}`] = texts.length;
    metrics[`findPeriods_${lang}`] = timePerCall(texts, findPeriods);
    metrics[`expandFinanceTerms_${lang}`] = timePerCall(texts, (s) => expandFinanceTerms(s));
    console.log(
      `  ${lang}: ${texts.length} questions  findPeriods ${JSON.stringify(metrics[`findPeriods_${lang}`])}  expandFinanceTerms ${JSON.stringify(metrics[`expandFinanceTerms_${lang}`])}`,
    );
  }
  const cells = tableCells(shared);
  metrics.cells = cells.length;
  metrics.parseNumberAsWritten = timePerCall(cells, parseNumberAsWritten);
  metrics.headerScale = timePerCall(cells, headerScale);
  console.log(
    `  ${cells.length} table cells  parseNumberAsWritten ${JSON.stringify(metrics.parseNumberAsWritten)}  headerScale ${JSON.stringify(metrics.headerScale)}`,
  );
  if (record) {
    const path = recordResult({
      area: 'analysis',
      name: 'text-readers',
      command: commandLine('bench', process.argv.slice(2)),
      metrics,
      note: 'Per-call time of the period, line-item, number and header readers; measured while other engineers share the 2 cores.',
    });
    console.log(`recorded ${path}`);
  }
}
