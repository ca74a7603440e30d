import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expandFinanceTerms, findNumbersAsWritten, findPeriods, headerScale, parseNumberAsWritten } from '@pinpoint/analysis';
import { commandLine, recordResult } from '@pinpoint/results';

/**
 * `pnpm bench --skip-ingest --skip-query --text-readers [--record]`: time per call of the period,
 * line-item, amount, number and header readers of @pinpoint/analysis on real text: 300-character questions
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

/** One row per reader and input kind: results/analysis/<reader>-<inputs>.json. */
interface Row {
  name: string;
  inputs: number;
  timing: Timing;
}

function measureRows(shared: string): Row[] {
  const rows: Row[] = [];
  for (const [lang, sets] of Object.entries(QUESTION_SETS)) {
    const texts = questionTexts(shared, sets);
    rows.push({ name: `find-periods-${lang}`, inputs: texts.length, timing: timePerCall(texts, findPeriods) });
    rows.push({
      name: `expand-finance-terms-${lang}`,
      inputs: texts.length,
      timing: timePerCall(texts, (s) => expandFinanceTerms(s)),
    });
    rows.push({
      name: `find-numbers-as-written-${lang}`,
      inputs: texts.length,
      timing: timePerCall(texts, findNumbersAsWritten),
    });
  }
  const cells = tableCells(shared);
  rows.push({ name: 'parse-number-as-written-cells', inputs: cells.length, timing: timePerCall(cells, parseNumberAsWritten) });
  rows.push({ name: 'header-scale-cells', inputs: cells.length, timing: timePerCall(cells, headerScale) });
  return rows;
}

export function benchTextReaders(shared: string, record: boolean): void {
  console.log(`text readers (µs per call; medians of ${BATCHES} batches; ${LENGTH}-character questions; 2 shared cores: noisy):`);
  console.log('  reader                          inputs  cpu p50  cpu p95  wall p50');
  for (const row of measureRows(shared)) {
    const t = row.timing;
    console.log(
      `  ${row.name.padEnd(31)} ${String(row.inputs).padStart(6)} ${t.cpu_p50_us.toFixed(1).padStart(8)} ${t.cpu_p95_us.toFixed(1).padStart(8)} ${t.wall_p50_us.toFixed(1).padStart(9)}`,
    );
    if (!record) continue;
    const path = recordResult({
      area: 'analysis',
      name: row.name,
      command: commandLine('bench', process.argv.slice(2)),
      metrics: { inputs: row.inputs, ...t },
      note: "Microseconds per call (this process's CPU time; wall time is inflated while other engineers share the 2 cores).",
    });
    console.log(`    recorded ${path}`);
  }
}
