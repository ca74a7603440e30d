/**
 * `pnpm bench` ingestion: pages/s of Pinpoint's ingestion (parse, chunk, analyse, metadata, lexical index)
 * over the PDFs of a folder, and in the same run raw pdf.js text extraction of the same files (raw-pdfjs.ts).
 */
import { mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ingestFiles, openEmbeddedEngine } from '@pinpoint/cli';
import { defaultEngineConfig } from '@pinpoint/engine';
import { rawPdfJsThroughput } from './raw-pdfjs.js';
import { cpuSecondsWithChildren, round } from './recording.js';

export async function withTempEngine<T>(
  isolate: boolean,
  fn: (engine: ReturnType<typeof openEmbeddedEngine>) => Promise<T>,
  tables = true,
): Promise<T> {
  const dir = mkdtempSync(join(tmpdir(), 'pinpoint-bench-'));
  const parse = { ...defaultEngineConfig.parse, isolate, ...(tables ? {} : { tables: false }) };
  const engine = openEmbeddedEngine(dir, { ...defaultEngineConfig, parse });
  try {
    return await fn(engine);
  } finally {
    await engine.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

export interface IngestFigures {
  mode: string;
  concurrency: number;
  pdfs: number;
  ready: number;
  failed: number;
  /** Text-layer pages of the ready PDFs. */
  pages: number;
  seconds: number;
  pages_per_s: number;
  /** CPU seconds of the bench process and its parse processes while ingesting: steadier than wall time on a busy machine. */
  cpu_s: number;
  pages_per_cpu_s: number;
  /** Job time per stage, summed over the ready versions (parse, then the post-parse stages). */
  stage_s: Record<string, number>;
  failures: Record<string, number>;
  raw_pdfjs: {
    processes: number;
    pages: number;
    text_pages: number;
    failed: number;
    seconds: number;
    cpu_s: number;
    /** CPU seconds the raw processes spent before their clocks started (loading pdf.js, the warm-up file). */
    startup_cpu_s: number;
    pages_per_s: number;
    pages_per_cpu_s: number;
  };
  /** Pinpoint's pages/s over raw pdf.js's pages/s (1 = as fast as extracting the text alone). */
  ratio_to_raw: number;
  /** The same by CPU time: pages per CPU second, Pinpoint's over raw pdf.js's. */
  cpu_ratio_to_raw: number;
  /** The same files ingested again in the same run with table detection off (what finding tables costs). */
  tables_off: TablesOffFigures;
  /** CPU seconds of the warm-up before both runs: the same files ingested once, tables on, not counted. */
  warmup_cpu_s: number;
}

type TablesOffFigures = Pick<
  IngestFigures,
  'pages' | 'seconds' | 'pages_per_s' | 'cpu_s' | 'pages_per_cpu_s' | 'ratio_to_raw' | 'cpu_ratio_to_raw'
>;

/** The PDFs of a folder in name order (the first `limit` when > 0). */
export function pdfsIn(folder: string, limit = 0): string[] {
  const files = readdirSync(folder)
    .filter((f) => f.endsWith('.pdf'))
    .sort()
    .map((f) => join(folder, f));
  return limit > 0 ? files.slice(0, limit) : files;
}

async function ingestTimed(files: string[], isolate: boolean, concurrency: number, tables = true) {
  const started = performance.now();
  const cpu0 = cpuSecondsWithChildren();
  const stages = new Map<string, number>();
  const lines = await withTempEngine(
    isolate,
    async (engine) => {
      const out = await ingestFiles(engine, 'bench', files, () => {}, { concurrency, largestFirst: true });
      // Where the time went: each ready version's parse and post-parse stages, summed.
      for (const l of out) {
        const v = l.version_id ? await engine.ports.metadata.getVersion(l.version_id) : null;
        if (v?.state !== 'ready') continue;
        for (const [stage, ms] of Object.entries({ parse: v.stats.parse_ms ?? 0, ...v.stats.stages_ms }))
          stages.set(stage, (stages.get(stage) ?? 0) + ms);
      }
      return out;
    },
    tables,
  );
  // the parse processes have exited (the engine is closed), so their CPU time is counted
  return { lines, stages, seconds: (performance.now() - started) / 1000, cpuSeconds: cpuSecondsWithChildren() - cpu0 };
}

/** The smallest file. */
function smallest(files: string[]): string | undefined {
  return files.map((f) => ({ f, size: statSync(f).size })).sort((a, b) => a.size - b.size)[0]?.f;
}

/**
 * Ingests `files` into a temporary data folder (isolated parsing in child processes unless `inProcess`),
 * then extracts their text with raw pdf.js — in `concurrency` child processes when isolated, in one
 * when in process — and prints both, as `pnpm bench` always printed the first. Both sides are measured
 * warm, as a running server is: the files are ingested once first, not counted, and each raw pdf.js
 * process reads the smallest file before it counts. Without that, whichever run came first paid 25–40 %
 * more CPU per document in the parse processes over the whole run (the same files again in the same
 * processes cost less, tables on or off; a warm-up of two small files did not remove it), and the
 * tables-on run, measured first, carried it alone; raw pdf.js reading the files twice in one process
 * costs twice as much, so its processes need no more than the one file.
 */
export async function benchIngestion(files: string[], o: { concurrency: number; inProcess: boolean }): Promise<IngestFigures> {
  const isolate = !o.inProcess;
  const warmup = await ingestTimed(files, isolate, o.concurrency);
  const { lines, stages, seconds, cpuSeconds } = await ingestTimed(files, isolate, o.concurrency);
  const ready = lines.filter((l) => l.state === 'ready' && (l.pages ?? 0) > 0);
  const pages = ready.reduce((n, l) => n + (l.pages ?? 0), 0);
  const failed = lines.filter((l) => l.state !== 'ready');
  console.log(
    `ingestion: ${files.length} PDFs, ${ready.length} with text (${pages} pages), ${failed.length} failed, concurrency ${o.concurrency}, ${isolate ? 'isolated parsing (child processes with time and memory limits)' : 'in-process parsing'}`,
  );
  console.log(
    `  ${seconds.toFixed(1)} s wall → ${(pages / seconds).toFixed(2)} pages/s (${cpuSeconds.toFixed(1)} CPU s with the parse processes → ${(pages / cpuSeconds).toFixed(2)} pages per CPU s), after a warm-up of ${warmup.cpuSeconds.toFixed(1)} CPU s not counted`,
  );
  const busy = [...stages.values()].reduce((a, b) => a + b, 0);
  console.log(
    `  job time by stage (summed over workers): ${[...stages].map(([s, ms]) => `${s} ${(ms / 1000).toFixed(1)} s (${((100 * ms) / busy).toFixed(0)}%)`).join(', ')}`,
  );
  const codes: Record<string, number> = {};
  for (const l of failed) codes[l.error_code ?? l.state] = (codes[l.error_code ?? l.state] ?? 0) + 1;
  if (failed.length)
    console.log(
      `  failures: ${Object.entries(codes)
        .map(([c, n]) => `${c}×${n}`)
        .join(', ')}`,
    );
  const off = await ingestTimed(files, isolate, o.concurrency, false);
  const offPages = off.lines.reduce((n, l) => n + (l.state === 'ready' ? (l.pages ?? 0) : 0), 0);
  const raw = await rawPdfJsThroughput(files, isolate ? o.concurrency : 1, smallest(files));
  const rawRate = raw.text_pages / raw.seconds;
  const rawPerCpu = raw.text_pages / raw.cpu_s;
  console.log(
    `  raw pdf.js text extraction of the same files (${raw.processes} process(es)): ${raw.text_pages} pages with text in ${raw.seconds.toFixed(1)} s → ${rawRate.toFixed(2)} pages/s (${raw.cpu_s.toFixed(1)} CPU s); Pinpoint at ${((pages / seconds / rawRate) * 100).toFixed(0)} % of it (${((pages / cpuSeconds / rawPerCpu) * 100).toFixed(0)} % by CPU time)`,
  );
  console.log(
    `  table detection off: ${off.seconds.toFixed(1)} s wall, ${off.cpuSeconds.toFixed(1)} CPU s → ${((offPages / off.seconds / rawRate) * 100).toFixed(0)} % of raw pdf.js (${((offPages / off.cpuSeconds / rawPerCpu) * 100).toFixed(0)} % by CPU time)`,
  );
  return {
    mode: isolate ? 'isolated' : 'in-process',
    concurrency: o.concurrency,
    pdfs: files.length,
    ready: ready.length,
    failed: failed.length,
    pages,
    seconds: round(seconds),
    pages_per_s: round(pages / seconds),
    cpu_s: round(cpuSeconds),
    pages_per_cpu_s: round(pages / cpuSeconds),
    stage_s: Object.fromEntries([...stages].map(([s, ms]) => [s, round(ms / 1000)])),
    failures: codes,
    raw_pdfjs: { ...raw, pages_per_s: round(rawRate), pages_per_cpu_s: round(rawPerCpu) },
    ratio_to_raw: round(pages / seconds / rawRate, 3),
    cpu_ratio_to_raw: round(pages / cpuSeconds / rawPerCpu, 3),
    tables_off: {
      pages: offPages,
      seconds: round(off.seconds),
      pages_per_s: round(offPages / off.seconds),
      cpu_s: round(off.cpuSeconds),
      pages_per_cpu_s: round(offPages / off.cpuSeconds),
      ratio_to_raw: round(offPages / off.seconds / rawRate, 3),
      cpu_ratio_to_raw: round(offPages / off.cpuSeconds / rawPerCpu, 3),
    },
    warmup_cpu_s: round(warmup.cpuSeconds),
  };
}

/** The table-detection-off run as a row of its own: the same shape, its own speed, the same raw pdf.js figures. */
export function tablesOffRow(figures: IngestFigures): Omit<IngestFigures, 'tables_off' | 'stage_s'> {
  const { tables_off: off, stage_s: _, ...rest } = figures;
  return { ...rest, ...off, mode: `${figures.mode}, tables off` };
}
