import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { tablesOf } from '@pinpoint/cli';
import { detectFormat, parseDocument } from '@pinpoint/parsers';

/** The scorer's figures for one group of expected tables. */
interface Summary {
  tables: number;
  cell_f1: number | null;
  row_f1: number | null;
  exact: number | null;
  'bbox@0.5': number | null;
  missed: number;
}

interface ScorerOutput {
  overall: Summary & { false_tables: number; extracted_tables: number };
  breakdown: { hinted?: Record<string, Summary>; flavor?: Record<string, Summary> };
}

interface TableSetScore {
  set: string;
  overall: ScorerOutput['overall'];
  hinted?: Summary;
  unhinted?: Summary;
  seconds: number;
}

/** Extracts the tables of every PDF of `dir/docs` as `pinpoint tables --json` does, and scores them with the set's Python scorer. */
async function scoreTableSet(dir: string, scorer: string): Promise<TableSetScore> {
  const docs = join(dir, 'docs');
  const started = performance.now();
  const lines: string[] = [];
  for (const file of readdirSync(docs)
    .filter((f) => f.toLowerCase().endsWith('.pdf'))
    .sort())
    for (const t of await tablesOf(join(docs, file))) lines.push(JSON.stringify(t));
  const seconds = (performance.now() - started) / 1000;
  const tmp = mkdtempSync(join(tmpdir(), 'pinpoint-tables-'));
  try {
    const out = join(tmp, 'extracted.jsonl');
    writeFileSync(out, `${lines.join('\n')}\n`);
    const run = spawnSync('python3', [scorer, join(dir, 'expected.jsonl'), out, '--json'], { encoding: 'utf8' });
    if (run.status !== 0) throw new Error(`scorer failed: ${run.stderr}`);
    const scored = JSON.parse(run.stdout) as ScorerOutput;
    const hinted = scored.breakdown.hinted;
    const set = dir.replace(/\/+$/, '').split('/').at(-1) ?? dir;
    return {
      set,
      overall: scored.overall,
      ...(hinted?.True ? { hinted: hinted.True } : {}),
      ...(hinted?.False ? { unhinted: hinted.False } : {}),
      seconds,
    };
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
}

interface TableCost {
  pages: number;
  /** Parse CPU seconds without and with table detection, each the least of the paired runs. */
  cpuWithout: number;
  cpuWith: number;
  cpuAdded: number;
  /** Largest heap growth while parsing one file, per page, MB (least of the runs). */
  heapPerPageWithout: number;
  heapPerPageWith: number;
  tables: number;
}

async function parseAll(
  files: string[],
  tables: boolean,
): Promise<{ cpu: number; heapPerPage: number; pages: number; tables: number }> {
  let cpu = 0;
  let heapPerPage = 0;
  let pages = 0;
  let found = 0;
  for (const path of files) {
    const bytes = new Uint8Array(readFileSync(path));
    const fileName = path.split('/').at(-1) as string;
    globalThis.gc?.();
    const heap0 = process.memoryUsage().heapUsed;
    const t0 = process.cpuUsage();
    const out = await parseDocument(bytes, { fileName, format: detectFormat(fileName, bytes) }, { tables }).catch(
      () => undefined,
    );
    const used = process.cpuUsage(t0);
    if (!out) continue; // scans without OCR: no text layer to read tables from
    cpu += (used.user + used.system) / 1e6;
    const n = out.sourceMap.pages.length;
    heapPerPage = Math.max(heapPerPage, (process.memoryUsage().heapUsed - heap0) / 1e6 / Math.max(1, n));
    pages += n;
    found += new Set(out.elements.flatMap((e) => (e.table ? [e.table.index] : []))).size;
  }
  return { cpu, heapPerPage, pages, tables: found };
}

/** Paired runs (without, with, alternating `runs` times) of the PDF parse over the same files. */
async function benchTableCost(files: string[], runs: number): Promise<TableCost> {
  const without: Array<Awaited<ReturnType<typeof parseAll>>> = [];
  const withTables: Array<Awaited<ReturnType<typeof parseAll>>> = [];
  await parseAll(files.slice(0, 1), true); // warm-up: pdf.js loaded, code compiled
  for (let i = 0; i < runs; i++) {
    without.push(await parseAll(files, false));
    withTables.push(await parseAll(files, true));
  }
  const least = (xs: number[]): number => Math.min(...xs);
  const cpuWithout = least(without.map((r) => r.cpu));
  const cpuWith = least(withTables.map((r) => r.cpu));
  return {
    pages: withTables[0]?.pages ?? 0,
    cpuWithout,
    cpuWith,
    cpuAdded: cpuWithout > 0 ? cpuWith / cpuWithout - 1 : 0,
    heapPerPageWithout: least(without.map((r) => r.heapPerPage)),
    heapPerPageWith: least(withTables.map((r) => r.heapPerPage)),
    tables: withTables[0]?.tables ?? 0,
  };
}

const fmt = (x: number | null | undefined): string => (x === null || x === undefined ? 'n/a' : x.toFixed(3));
const line = (name: string, s: Summary): string =>
  `  ${name.padEnd(28)} tables ${String(s.tables).padStart(3)}  cell F1 ${fmt(s.cell_f1)}  row F1 ${fmt(s.row_f1)}  exact ${fmt(s.exact)}  bbox@0.5 ${fmt(s['bbox@0.5'])}  missed ${s.missed}`;

const flat = (s: Summary | undefined, prefix: string): Record<string, number> =>
  s
    ? Object.fromEntries(
        Object.entries({ tables: s.tables, cell_f1: s.cell_f1, row_f1: s.row_f1, exact: s.exact, bbox_at_05: s['bbox@0.5'] })
          .filter(([, v]) => v !== null)
          .map(([k, v]) => [`${prefix}${k}`, Math.round((v as number) * 1000) / 1000]),
      )
    : {};

export interface PdfTablesBenchOptions {
  shared: string;
  record?: (name: string, metrics: object, note?: string) => string;
  /** Paired cost runs over these PDFs (none: no cost measurement). */
  costFiles: string[];
  costRuns: number;
}

/** `pnpm bench --pdf-tables`: both table sets scored (tabula's hinted and unhinted tables apart), and the parse cost. */
export async function runPdfTablesBench(options: PdfTablesBenchOptions): Promise<void> {
  const scorer = join(options.shared, 'tools/score_pdf_tables.py');
  for (const set of ['pdf-tables-dev', 'pdf-tables-tabula']) {
    const s = await scoreTableSet(join(options.shared, 'eval', set), scorer);
    console.log(
      `${set} (${s.seconds.toFixed(1)} s, ${s.overall.extracted_tables} tables extracted, false tables ${s.overall.false_tables})`,
    );
    console.log(line('all', s.overall));
    if (s.unhinted && s.hinted) {
      console.log(line('unhinted', s.unhinted));
      console.log(line('hinted (no hints given)', s.hinted));
    }
    const metrics = {
      ...flat(s.overall, ''),
      false_tables: s.overall.false_tables,
      extracted_tables: s.overall.extracted_tables,
      ...(s.unhinted && s.hinted ? { ...flat(s.unhinted, 'unhinted_'), ...flat(s.hinted, 'hinted_') } : {}),
    };
    if (options.record) console.log(`  recorded ${options.record(set, metrics)}`);
  }
  if (options.costFiles.length === 0) return;
  const c = await benchTableCost(options.costFiles, options.costRuns);
  console.log(
    `table detection cost over ${options.costFiles.length} PDFs (${c.pages} pages, ${c.tables} tables), least of ${options.costRuns} paired runs:`,
  );
  console.log(`  parse CPU ${c.cpuWithout.toFixed(2)} s → ${c.cpuWith.toFixed(2)} s (+${(100 * c.cpuAdded).toFixed(1)} %)`);
  console.log(`  heap growth per page ${c.heapPerPageWithout.toFixed(2)} MB → ${c.heapPerPageWith.toFixed(2)} MB`);
  const metrics = {
    files: options.costFiles.length,
    pages: c.pages,
    tables: c.tables,
    cpu_s_without: Math.round(c.cpuWithout * 100) / 100,
    cpu_s_with: Math.round(c.cpuWith * 100) / 100,
    cpu_added_pct: Math.round(c.cpuAdded * 1000) / 10,
    heap_mb_per_page_without: Math.round(c.heapPerPageWithout * 100) / 100,
    heap_mb_per_page_with: Math.round(c.heapPerPageWith * 100) / 100,
  };
  const note = 'Paired runs on a machine shared with other engineers (2 cores): least CPU of each side; noisy.';
  if (options.record) console.log(`  recorded ${options.record('parse-cost', metrics, note)}`);
}
