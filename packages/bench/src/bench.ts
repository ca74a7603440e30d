/**
 * `pnpm bench`: ingestion throughput (pages/s) over the text PDFs of ../shared/corpus/formats/pdf and
 * question latency p50/p95 on the dev sets, through the same engine the server runs.
 *   pnpm bench [--pdfs N] [--questions N] [--concurrency N] [--sets squad2-dev,jsquad-dev,drcd-dev] [--skip-ingest] [--skip-query] [--in-process]
 * Optional sections:
 *   --formats [--per-format N]  parse throughput per format over ../shared/corpus (N files each, default 4), with OCR
 *                               and LibreOffice on: png/jpeg seconds per page is the OCR cost per page
 *   --ocr [--ocr-text FILE] [--ocr-compare FILE] [--ocr-concurrency N]
 *                               OCR seconds per page (wall and CPU) on the scanned corpus PDFs; keeps the recognised
 *                               text in FILE, or gives its character overlap with an earlier FILE
 *   --memory [--memory-mb N]    parse peak memory per MB of input for txt/md/html/csv/json, on generated N MB
 *                               single-line files (default 20) in the isolated parse process with the default limits
 *   --workers 1,2               distributed ingestion throughput with that many worker processes (BullMQ on the
 *                               local Redis, PostgreSQL), the same run as `pnpm bench:distributed`
 *   --load [--askers 50] [--seconds 60] [--load-set jsquad-dev]
 *                               the real server with auth on: concurrent askers, each its own user and token
 *   --metadata-scale N          the embedded metadata store alone written up to N chunks (metadata-scale.ts)
 *   --scale N [--scale-keep DIR] the embedded default at N chunks (scale.ts); DIR/N keeps the data folder and encoder
 *   --scale-reuse DIR/N         the question figures alone (cold start, lexical, hybrid per stage) on such a folder
 *   --text-readers [--record]   µs per call of the period, line-item, number and header readers (text-readers-bench.ts)
 *   --lexical-merge N [--merge-runs R]
 *                               the lexical index's merge of 8 segments of N / 8 chunks, its reads and re-encoding on
 *                               the index's thread and on the merge thread, alternating R times (merge-bench.ts)
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { ingestFiles, openEmbeddedEngine } from '@pinpoint/cli';
import { defaultEngineConfig } from '@pinpoint/engine';
import { loadDataset } from '@pinpoint/eval';
import { benchLoad } from './load.js';
import { benchParseMemory } from './memory.js';
import { benchMerge } from './merge-bench.js';
import { benchMetadataScale } from './metadata-scale.js';
import { benchOcr } from './ocr-bench.js';
import { benchFormats } from './parser-bench.js';
import { benchScale, growthExponents, type ScaleResult, scaleQueries, scaleReport } from './scale.js';
import { benchTextReaders } from './text-readers-bench.js';

const shared = fileURLToPath(new URL('../../../../shared/', import.meta.url));

const { values } = parseArgs({
  options: {
    pdfs: { type: 'string', default: '0' },
    questions: { type: 'string', default: '0' },
    concurrency: { type: 'string', default: '2' },
    sets: { type: 'string', default: 'squad2-dev,jsquad-dev,drcd-dev' },
    'skip-ingest': { type: 'boolean', default: false },
    'skip-query': { type: 'boolean', default: false },
    'in-process': { type: 'boolean', default: false },
    formats: { type: 'boolean', default: false },
    'per-format': { type: 'string', default: '4' },
    workers: { type: 'string' },
    scale: { type: 'string' },
    'metadata-scale': { type: 'string' },
    json: { type: 'boolean', default: false },
    hybrid: { type: 'boolean', default: true },
    'scale-queries': { type: 'string', default: '300' },
    memory: { type: 'boolean', default: false },
    ocr: { type: 'boolean', default: false },
    'ocr-text': { type: 'string' },
    'ocr-compare': { type: 'string' },
    'ocr-concurrency': { type: 'string' },
    'scale-concurrency': { type: 'string' },
    'scale-keep': { type: 'string' },
    'scale-reuse': { type: 'string' },
    'lexical-merge': { type: 'string' },
    'merge-runs': { type: 'string', default: '3' },
    'memory-mb': { type: 'string', default: '20' },
    load: { type: 'boolean', default: false },
    askers: { type: 'string', default: '50' },
    seconds: { type: 'string', default: '60' },
    'load-set': { type: 'string', default: 'jsquad-dev' },
    'text-readers': { type: 'boolean', default: false },
    record: { type: 'boolean', default: false },
  },
  allowNegative: true,
});
const concurrency = Number(values.concurrency) || 1;

function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? Number.NaN;
}

async function withTempEngine<T>(
  isolate: boolean,
  fn: (engine: ReturnType<typeof openEmbeddedEngine>) => Promise<T>,
): Promise<T> {
  const dir = mkdtempSync(join(tmpdir(), 'pinpoint-bench-'));
  const engine = openEmbeddedEngine(dir, { ...defaultEngineConfig, parse: { ...defaultEngineConfig.parse, isolate } });
  try {
    return await fn(engine);
  } finally {
    await engine.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

async function benchIngestion(): Promise<void> {
  const folder = join(shared, 'corpus/formats/pdf');
  let files = readdirSync(folder)
    .filter((f) => f.endsWith('.pdf'))
    .sort()
    .map((f) => join(folder, f));
  if (Number(values.pdfs) > 0) files = files.slice(0, Number(values.pdfs));
  const started = performance.now();
  const isolate = !values['in-process'];
  const stages = new Map<string, number>();
  const lines = await withTempEngine(isolate, async (engine) => {
    const out = await ingestFiles(engine, 'bench', files, () => {}, { concurrency, largestFirst: true });
    // Where the time went: each ready version's parse and post-parse stages, summed.
    for (const l of out) {
      const v = l.version_id ? await engine.ports.metadata.getVersion(l.version_id) : null;
      if (v?.state !== 'ready') continue;
      for (const [stage, ms] of Object.entries({ parse: v.stats.parse_ms ?? 0, ...v.stats.stages_ms }))
        stages.set(stage, (stages.get(stage) ?? 0) + ms);
    }
    return out;
  });
  const seconds = (performance.now() - started) / 1000;
  const ready = lines.filter((l) => l.state === 'ready' && (l.pages ?? 0) > 0);
  const pages = ready.reduce((n, l) => n + (l.pages ?? 0), 0);
  const failed = lines.filter((l) => l.state !== 'ready');
  console.log(
    `ingestion: ${files.length} PDFs, ${ready.length} with text (${pages} pages), ${failed.length} failed, concurrency ${concurrency}, ${isolate ? 'isolated parsing (child processes with time and memory limits)' : 'in-process parsing'}`,
  );
  console.log(`  ${seconds.toFixed(1)} s wall → ${(pages / seconds).toFixed(2)} pages/s`);
  const busy = [...stages.values()].reduce((a, b) => a + b, 0);
  console.log(
    `  job time by stage (summed over workers): ${[...stages].map(([s, ms]) => `${s} ${(ms / 1000).toFixed(1)} s (${((100 * ms) / busy).toFixed(0)}%)`).join(', ')}`,
  );
  const codes = new Map<string, number>();
  for (const l of failed) codes.set(l.error_code ?? l.state, (codes.get(l.error_code ?? l.state) ?? 0) + 1);
  if (codes.size) console.log(`  failures: ${[...codes].map(([c, n]) => `${c}×${n}`).join(', ')}`);
}

async function benchQueries(set: string): Promise<void> {
  const dataset = loadDataset(join(shared, 'eval', set));
  const questions = Number(values.questions) > 0 ? dataset.questions.slice(0, Number(values.questions)) : dataset.questions;
  await withTempEngine(false, async (engine) => {
    await ingestFiles(
      engine,
      set,
      dataset.files.map((f) => f.path),
      () => {},
      { concurrency },
    );
    const total: number[] = [];
    const lexical: number[] = [];
    for (const q of questions) {
      const t0 = performance.now();
      const a = await engine.ask(q.question);
      total.push(performance.now() - t0);
      lexical.push(a.timings.lexical ?? 0);
    }
    total.sort((a, b) => a - b);
    lexical.sort((a, b) => a - b);
    const f = (n: number): string => n.toFixed(1).padStart(7);
    console.log(
      `${set.padEnd(11)} ${String(questions.length).padStart(5)}  ask p50 ${f(percentile(total, 50))} ms  p95 ${f(percentile(total, 95))} ms   lexical p50 ${f(percentile(lexical, 50))} ms  p95 ${f(percentile(lexical, 95))} ms`,
    );
  });
}

async function benchFormatThroughput(): Promise<void> {
  const root = join(shared, 'corpus/formats');
  const perFormat = Number(values['per-format']) || 4;
  const files = readdirSync(root)
    .sort()
    .flatMap((ext) =>
      readdirSync(join(root, ext))
        .sort()
        .slice(0, perFormat)
        .map((f) => join(root, ext, f)),
    );
  const result = await benchFormats(files, { ocr: { engine: 'tesseract-cli' }, convert: { engine: 'libreoffice' } });
  console.log(`parse throughput per format (in process, OCR and LibreOffice on, up to ${perFormat} corpus files each):`);
  console.log('  format  files failed  pages  elements   wall s  elements/s  s/page');
  for (const [format, b] of Object.entries(result)) {
    const perPage = b.pages > 0 ? (b.seconds / b.pages).toFixed(2) : '-';
    console.log(
      `  ${format.padEnd(6)} ${String(b.files).padStart(6)} ${String(b.failed).padStart(6)} ${String(b.pages).padStart(6)} ${String(b.elements).padStart(9)} ${b.seconds.toFixed(1).padStart(8)} ${b.elementsPerSecond.toFixed(1).padStart(11)} ${perPage.padStart(7)}`,
    );
  }
}

function benchWorkers(workers: string): void {
  const script = fileURLToPath(new URL('../../../services/worker/src/throughput.ts', import.meta.url));
  const run = spawnSync(process.execPath, ['--import', 'tsx', script, '--workers', workers], { stdio: 'inherit' });
  if (run.status !== 0) throw new Error(`distributed throughput bench exited with ${run.status}`);
}

if (values['metadata-scale']) {
  const log = values.json ? (line: string) => console.error(line) : (line: string) => console.log(line);
  const r = await benchMetadataScale(shared, { chunks: Number(values['metadata-scale']), log });
  if (values.json) console.log(JSON.stringify(r));
  else
    console.log(
      [
        `metadata store: ${r.chunks} chunks in ${r.versions} versions, ${r.bytes_per_chunk} bytes per chunk (${(r.metadata_bytes / 2 ** 20).toFixed(0)} MiB)`,
        `  chunks/s per tenth ${r.tenths_chunks_per_s.join(', ')}`,
        `  chunks per CPU s per tenth ${r.tenths_chunks_per_cpu_s.join(', ')}`,
        `  CPU ${r.user_s} s user + ${r.system_s} s system; load average ${r.load_average.join(' → ')}`,
      ].join('\n'),
    );
  process.exit(0);
}
if (values['lexical-merge']) {
  const log = values.json ? (line: string) => console.error(line) : (line: string) => console.log(line);
  const r = await benchMerge(shared, { chunks: Number(values['lexical-merge']), runs: Number(values['merge-runs']) || 3, log });
  log(`  median busy: index thread ${r.median_busy_ms.index_thread} ms, merge thread ${r.median_busy_ms.merge_thread} ms`);
  if (values.json) console.log(JSON.stringify(r));
  process.exit(0);
}
if (values['scale-reuse']) {
  // The questions alone, on a folder a `--scale N --scale-keep DIR` run left: no ingestion.
  const figures = await scaleQueries(shared, values['scale-reuse'], {
    hybrid: values.hybrid,
    queries: Number(values['scale-queries']) || 300,
  });
  console.log(JSON.stringify(figures));
  process.exit(0);
}
if (values.scale) {
  const log = values.json ? (line: string) => console.error(line) : (line: string) => console.log(line);
  // Several sizes (e.g. 10000,100000,1000000) also give the growth exponent of each cost between them.
  const runs: ScaleResult[] = [];
  for (const n of values.scale.split(',').map(Number)) {
    const result = await benchScale(shared, {
      chunks: n,
      hybrid: values.hybrid,
      concurrency: Number(values['scale-concurrency']) || 4,
      queries: Number(values['scale-queries']) || 300,
      log,
      ...(values['scale-keep'] ? { keep: join(values['scale-keep'], String(n)) } : {}),
    });
    runs.push(result);
    // with --json, each size's figures also go to the log: the last line holds only the largest
    if (!values.json) console.log(scaleReport(result));
    else log(JSON.stringify(result));
  }
  const growth = growthExponents(runs);
  if (growth.length > 0) log(growth.map((g) => `growth ${g.from} → ${g.to} chunks: ${JSON.stringify(g.exponents)}`).join('\n'));
  const last = runs.at(-1) as ScaleResult;
  if (values.json) console.log(JSON.stringify({ ...last, ...(growth.length > 0 ? { growth } : {}) }));
  process.exit(0);
}
if (!values['skip-ingest']) await benchIngestion();
if (values.formats) await benchFormatThroughput();
if (values.ocr) {
  await benchOcr(join(shared, 'corpus/formats/pdf'), {
    ...(values['ocr-text'] ? { textOut: values['ocr-text'] } : {}),
    ...(values['ocr-compare'] ? { compareWith: values['ocr-compare'] } : {}),
    // pages OCR'd at once (default: the cores, as an isolated parse gets on an otherwise idle worker)
    pageConcurrency: Number(values['ocr-concurrency']) || availableParallelism(),
  });
}
if (values['text-readers']) benchTextReaders(shared, values.record);
if (values.memory) await benchParseMemory(Number(values['memory-mb']) || 20);
if (values.workers) benchWorkers(values.workers);
if (values.load) {
  await benchLoad({
    askers: Number(values.askers) || 50,
    seconds: Number(values.seconds) || 60,
    set: values['load-set'],
    shared,
  });
}
if (!values['skip-query']) {
  console.log('query latency (engine.ask end to end, in process, after ingesting the set):');
  for (const set of values.sets.split(',').filter(Boolean)) await benchQueries(set);
}
