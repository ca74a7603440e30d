/**
 * `pnpm bench`: ingestion throughput (pages/s) over the text PDFs of ../shared/corpus/formats/pdf and
 * question latency p50/p95 on the dev sets, through the same engine the server runs.
 *   pnpm bench [--pdfs N] [--questions N] [--concurrency N] [--sets squad2-dev,jsquad-dev,drcd-dev] [--skip-ingest] [--skip-query] [--in-process]
 *   --pdf-dir DIR               ingest the PDFs of DIR instead (e.g. ../shared/eval/financebench-dev/docs): the
 *                               job time by stage shows identity extraction's share
 * With --record [--note TEXT], the ingestion, query, scale, OCR, load, formats and peer sections also write their
 * figures to results/<area>/<name>.json (@pinpoint/results), from which `pnpm bench:report` makes docs/benchmarks.md.
 * Optional sections:
 *   --formats [--per-format N]  parse throughput per format over ../shared/corpus (N files each, default 4), with OCR
 *                               and LibreOffice on: png/jpeg seconds per page is the OCR cost per page
 *   --ocr [--ocr-set-only] [--ocr-text FILE] [--ocr-compare FILE] [--ocr-concurrency N]
 *                               OCR seconds per page (wall and CPU), CER and box@0.5 per script on ../shared/eval/ocr-dev's
 *                               images, then (unless --ocr-set-only) on the scanned corpus PDFs; keeps the recognised
 *                               text in FILE, or gives its character overlap with an earlier FILE
 *   --memory [--memory-mb N]    parse peak memory per MB of input for txt/md/html/csv/json, on generated N MB
 *                               single-line files (default 20) in the isolated parse process with the default limits
 *   --workers 1,2               distributed ingestion throughput with that many worker processes (BullMQ on the
 *                               local Redis, PostgreSQL), the same run as `pnpm bench:distributed`
 *   --load [--askers 50] [--seconds 60] [--load-set jsquad-dev]
 *                               the real server with auth on: concurrent askers, each its own user and token
 *   --metadata-scale N          the embedded metadata store alone written up to N chunks (metadata-scale.ts)
 *   --scale N [--scale-keep DIR] the embedded default at N chunks (scale.ts); DIR/N keeps the data folder and encoder;
 *                               the same chunks' terms also in SQLite FTS5, the same questions timed there
 *                               (fts5-peer.ts; --no-scale-peer leaves it out)
 *   --scale-reuse DIR/N         the question figures alone (cold start, lexical, hybrid per stage, the FTS5 peer) on such a folder,
 *                               and the lexical index alone: CPU per question and its work (scale-index.ts)
 *   --peer [--peer-sets a,b] [--questions N]
 *                               the best of minisearch, flexsearch, Orama and lunr on Pinpoint's chunks of each eval
 *                               set, by the eval's relevance rule (peer-bench.ts)
 *   --text-readers [--record]   µs per call of the period, line-item, number and header readers (text-readers-bench.ts)
 *   --pdf-tables [--cost-runs R] [--cost-pdfs N] [--record]
 *                               PDF tables: both table sets extracted and scored (tabula's hinted and unhinted tables
 *                               apart), then the parse CPU and heap per page without and with table detection, R
 *                               paired runs over the corpus PDFs and N financebench 10-Ks; --record writes
 *                               results/pdf-tables/*.json
 *   --faults N [--seed S] [--record]
 *                               N seeded SIGKILLs of the real server (or of a backup) at random moments of a mixed
 *                               ingestion; originals lost, orphan/missing chunks, stuck jobs, answers unlike a clean ingest
 *   --backup [--backup-docs N] [--backup-askers 10] [--backup-seconds 20] [--record]
 *                               financebench-dev (or its first N documents) behind the real server: askers' p95 without
 *                               and during `pinpoint backup`, backup time and size, restore time, answers after restore
 *   --lexical-merge N [--merge-runs R]
 *                               the lexical index's merge of 8 segments of N / 8 chunks, its reads and re-encoding on
 *                               the index's thread and on the merge thread, alternating R times (merge-bench.ts)
 */
import { spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { basename, dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { commandLine, recordResult } from '@pinpoint/results';
import { runBackupBench } from './backup-bench.js';
import { benchFaults } from './fault-bench.js';
import { benchIngestion, pdfsIn, tablesOffRow } from './ingest-bench.js';
import { benchLoad } from './load.js';
import { benchParseMemory } from './memory.js';
import { benchMerge } from './merge-bench.js';
import { benchMetadataScale } from './metadata-scale.js';
import { benchOcr } from './ocr-bench.js';
import { benchOcrSet } from './ocr-dev-bench.js';
import { benchFormats } from './parser-bench.js';
import { runPdfTablesBench } from './pdf-tables-bench.js';
import { benchPeer } from './peer-bench.js';
import { benchQueries } from './query-bench.js';
import { benchRecorder, type Recorder } from './recording.js';
import { benchScale, growthExponents, type ScaleResult, scaleMetrics, scalePeer, scaleQueries, scaleReport } from './scale.js';
import { scaleIndexQueries } from './scale-index.js';
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
    'pdf-dir': { type: 'string' },
    hybrid: { type: 'boolean', default: true },
    'scale-peer': { type: 'boolean', default: true },
    'scale-queries': { type: 'string', default: '300' },
    memory: { type: 'boolean', default: false },
    ocr: { type: 'boolean', default: false },
    'ocr-set-only': { type: 'boolean', default: false },
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
    peer: { type: 'boolean', default: false },
    'peer-sets': { type: 'string', default: 'squad2-dev,jsquad-dev,jaquad-dev,drcd-dev,cmrc-dev' },
    record: { type: 'boolean', default: false },
    note: { type: 'string' },
    'text-readers': { type: 'boolean', default: false },
    'pdf-tables': { type: 'boolean', default: false },
    'cost-runs': { type: 'string', default: '2' },
    'cost-pdfs': { type: 'string', default: '3' },
    faults: { type: 'string' },
    backup: { type: 'boolean', default: false },
    'backup-docs': { type: 'string' },
    'backup-askers': { type: 'string', default: '10' },
    'backup-seconds': { type: 'string', default: '20' },
    seed: { type: 'string', default: '1' },
  },
  allowNegative: true,
});
const concurrency = Number(values.concurrency) || 1;
/** With --record, writes a result file; without, does nothing. */
const record: Recorder = values.record
  ? benchRecorder(process.argv.slice(2), values.note ? { note: values.note } : {})
  : () => '';

async function benchIngestionSection(): Promise<void> {
  const dir = values['pdf-dir'];
  const files = pdfsIn(dir ? resolve(dir) : join(shared, 'corpus/formats/pdf'), Number(values.pdfs));
  const figures = await benchIngestion(files, { concurrency, inProcess: values['in-process'] });
  // an eval set's documents (…/financebench-dev/docs) are named by their set
  const folder = dir ? resolve(dir) : '';
  const name = dir
    ? basename(basename(folder) === 'docs' ? dirname(folder) : folder)
        .replace(/[^a-z0-9]+/gi, '-')
        .toLowerCase()
    : 'pdf-text';
  const row = values['in-process'] ? `${name}-in-process` : name;
  record('ingest', row, figures);
  record('ingest', `${row}-tables-off`, tablesOffRow(figures));
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
  for (const [format, b] of Object.entries(result)) {
    const perPage = b.pages > 0 ? Math.round((b.seconds / b.pages) * 100) / 100 : null;
    const r2 = (x: number) => Math.round(x * 100) / 100;
    record('formats', format, {
      ...b,
      seconds: r2(b.seconds),
      cpuSeconds: r2(b.cpuSeconds),
      elementsPerSecond: r2(b.elementsPerSecond),
      secondsPerPage: perPage,
      perFormat,
    });
  }
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
if (values['pdf-tables']) {
  const pdfs = (dir: string, n: number): string[] =>
    readdirSync(dir)
      .filter((f) => f.endsWith('.pdf'))
      .sort()
      .slice(0, n)
      .map((f) => join(dir, f));
  const costFiles = [
    ...pdfs(join(shared, 'corpus/formats/pdf'), 1000),
    ...pdfs(join(shared, 'eval/financebench-dev/docs'), Number(values['cost-pdfs']) || 0),
  ];
  const argv = process.argv.slice(2);
  await runPdfTablesBench({
    shared,
    costFiles: Number(values['cost-runs']) > 0 ? costFiles : [],
    costRuns: Number(values['cost-runs']) || 0,
    ...(values.record
      ? {
          record: (name: string, metrics: object, note?: string) =>
            recordResult({ area: 'pdf-tables', name, command: commandLine('bench', argv), metrics, ...(note ? { note } : {}) }),
        }
      : {}),
  });
  process.exit(0);
}
if (values.faults) {
  const totals = await benchFaults(Number(values.faults), {
    seed: Number(values.seed) || 1,
    record: values.record,
    log: console.log,
  });
  console.log(JSON.stringify(totals));
  process.exit(0);
}
if (values.backup) {
  await runBackupBench({
    ...(values['backup-docs'] ? { docs: Number(values['backup-docs']) } : {}),
    askers: Number(values['backup-askers']) || 10,
    seconds: Number(values['backup-seconds']) || 20,
    record: values.record,
    log: console.log,
  });
  process.exit(0);
}
if (values['scale-reuse']) {
  // The questions alone, on a folder a `--scale N --scale-keep DIR` run left: no ingestion.
  const queries = Number(values['scale-queries']) || 300;
  const figures = await scaleQueries(shared, values['scale-reuse'], { hybrid: values.hybrid, queries });
  const index = await scaleIndexQueries(shared, values['scale-reuse'], queries);
  const peer = values['scale-peer'] ? await scalePeer(shared, values['scale-reuse'], queries) : null;
  console.log(JSON.stringify({ ...figures, lexical_index: index, peer_fts5: peer }));
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
      peer: values['scale-peer'],
      concurrency: Number(values['scale-concurrency']) || 4,
      queries: Number(values['scale-queries']) || 300,
      log,
      ...(values['scale-keep'] ? { keep: join(values['scale-keep'], String(n)) } : {}),
    });
    runs.push(result);
    // with --json, each size's figures also go to the log: the last line holds only the largest
    if (!values.json) console.log(scaleReport(result));
    else log(JSON.stringify(result));
    record('scale', String(n), scaleMetrics(result, growthExponents(runs.slice(-2))[0]));
  }
  const growth = growthExponents(runs);
  if (growth.length > 0) log(growth.map((g) => `growth ${g.from} → ${g.to} chunks: ${JSON.stringify(g.exponents)}`).join('\n'));
  const last = runs.at(-1) as ScaleResult;
  if (values.json) console.log(JSON.stringify({ ...last, ...(growth.length > 0 ? { growth } : {}) }));
  process.exit(0);
}
if (values.peer) {
  // Retrieval quality of the peers alone: no ingestion throughput, no latency.
  console.log('best JavaScript search library on the chunks of each set (eval relevance rule, answerable questions, top 10):');
  for (const set of values['peer-sets'].split(',').filter(Boolean))
    record('peer', set, await benchPeer(shared, set, { limit: Number(values.questions) }));
  process.exit(0);
}
if (!values['skip-ingest']) await benchIngestionSection();
if (values.formats) await benchFormatThroughput();
const ocrConcurrency = Number(values['ocr-concurrency']) || availableParallelism();
if (values.ocr) {
  const set = await benchOcrSet(join(shared, 'eval/ocr-dev'), ocrConcurrency);
  // result names are kebab-case: zh-Hans is recorded as zh-hans
  for (const [script, figures] of Object.entries(set.byScript)) record('ocr-scripts', script.toLowerCase(), figures);
  for (const [variant, figures] of Object.entries(set.byVariant)) record('ocr-variants', variant, figures);
}
if (values.ocr && !values['ocr-set-only']) {
  const ocr = await benchOcr(join(shared, 'corpus/formats/pdf'), {
    ...(values['ocr-text'] ? { textOut: values['ocr-text'] } : {}),
    ...(values['ocr-compare'] ? { compareWith: values['ocr-compare'] } : {}),
    // pages OCR'd at once (default: the cores, as an isolated parse gets on an otherwise idle worker)
    pageConcurrency: ocrConcurrency,
  });
  record('ocr', 'scanned-pdf', ocr);
}
if (values['text-readers']) benchTextReaders(shared, values.record);
if (values.memory) await benchParseMemory(Number(values['memory-mb']) || 20);
if (values.workers) benchWorkers(values.workers);
if (values.load) {
  const askers = Number(values.askers) || 50;
  const load = await benchLoad({ askers, seconds: Number(values.seconds) || 60, set: values['load-set'], shared });
  record('load', `${askers}-askers`, load);
}
if (!values['skip-query']) {
  console.log('query latency (engine.ask end to end, in process, after ingesting the set):');
  for (const set of values.sets.split(',').filter(Boolean))
    record('query', set, await benchQueries(shared, set, { limit: Number(values.questions), concurrency }));
}
