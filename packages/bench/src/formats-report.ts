/**
 * `pnpm formats-report`: runs every file of the shared corpus (formats/<ext>/*) through the isolated
 * parse with OCR and LibreOffice available, and writes docs/formats-report.md (per format: files, ready,
 * failed codes, elements, pages, seconds; then one row per file). A process crash shows as PP_PARSE_CRASHED.
 *   pnpm formats-report [--corpus DIR] [--out FILE] [--concurrency N]
 */
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import type { Format } from '@pinpoint/core';
import { toPinpointError } from '@pinpoint/core';
import type { CapabilitySpec } from '@pinpoint/parsers';
import { buildContext, detectFormat, parseDocument, parseIsolated } from '@pinpoint/parsers';
import { craftedInputs } from '@pinpoint/testing';

interface FileRow {
  ext: string;
  file: string;
  /** Crafted inputs: the code they must fail with. */
  expected?: string;
  state: 'ready' | 'failed';
  code?: string;
  elements: number;
  pages?: number;
  seconds: number;
  /** The same parse in this process (no child start-up), ready files only. */
  parseSeconds?: number;
}

const here = (rel: string) => fileURLToPath(new URL(rel, import.meta.url));
const CAPABILITIES: CapabilitySpec = { ocr: { engine: 'tesseract-cli' }, convert: { engine: 'libreoffice' } };
const LIMITS = { timeoutMs: 300_000, maxOldSpaceMb: 2048 };

/** Parse time without the child process, for per-format throughput. */
async function timeInProcess(bytes: Uint8Array, fileName: string, format: Format): Promise<number> {
  const started = performance.now();
  await parseDocument(bytes, buildContext({ fileName, format, capabilities: CAPABILITIES }));
  return Math.round((performance.now() - started) / 10) / 100;
}

interface Job {
  ext: string;
  file: string;
  load: () => Uint8Array;
  format?: Format;
  expected?: string;
}

function corpusJobs(dir: string): Job[] {
  return readdirSync(dir, { withFileTypes: true })
    .filter((d) => d.isDirectory())
    .flatMap((d) => readdirSync(join(dir, d.name)).map((file) => ({ ext: d.name, file, path: join(dir, d.name, file) })))
    .sort((a, b) => a.ext.localeCompare(b.ext) || a.file.localeCompare(b.file))
    .map(({ ext, file, path }) => ({ ext, file, load: () => new Uint8Array(readFileSync(path)) }));
}

/** The crafted bad uploads, spread through the batch so good files run beside them. */
function withCrafted(jobs: Job[], corpus: string): Job[] {
  const crafted = craftedInputs(corpus).map((c) => ({
    ext: 'crafted',
    file: c.fileName,
    load: () => c.bytes,
    format: c.format,
    expected: c.expected,
  }));
  const step = Math.max(1, Math.floor(jobs.length / (crafted.length + 1)));
  const out = [...jobs];
  crafted.forEach((c, i) => {
    out.splice((i + 1) * step + i, 0, c);
  });
  return out;
}

async function runOne(job: Job): Promise<FileRow> {
  const started = performance.now();
  const seconds = () => Math.round((performance.now() - started) / 10) / 100;
  const base = { ext: job.ext, file: job.file, ...(job.expected ? { expected: job.expected } : {}) };
  try {
    const bytes = job.load();
    const format = job.format ?? detectFormat(job.file, bytes);
    const out = await parseIsolated(bytes, { fileName: job.file, format, capabilities: CAPABILITIES }, LIMITS);
    const row: FileRow = { ...base, state: 'ready', elements: out.elements.length, seconds: seconds() };
    if (out.sourceMap.anchor_kind === 'page') row.pages = out.sourceMap.pages.length;
    const parseSeconds = await timeInProcess(bytes, job.file, format).catch(() => undefined);
    if (parseSeconds !== undefined) row.parseSeconds = parseSeconds;
    return row;
  } catch (err) {
    return { ...base, state: 'failed', code: toPinpointError(err).code, elements: 0, seconds: seconds() };
  }
}

async function runAll(jobs: Job[], concurrency: number): Promise<FileRow[]> {
  const rows: FileRow[] = new Array(jobs.length);
  let next = 0;
  const worker = async () => {
    while (next < jobs.length) {
      const i = next++;
      const row = await runOne(jobs[i] as Job);
      rows[i] = row;
      process.stderr.write(
        `${row.state === 'ready' ? 'ok  ' : 'FAIL'} ${row.ext}/${row.file} ${row.code ?? ''} ${row.seconds}s\n`,
      );
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  return rows;
}

function codeCounts(rows: FileRow[]): string {
  const counts = new Map<string, number>();
  for (const r of rows) if (r.code) counts.set(r.code, (counts.get(r.code) ?? 0) + 1);
  return [...counts].map(([code, n]) => `${code} ×${n}`).join(', ') || '—';
}

function summaryRow(ext: string, group: FileRow[]): string {
  const ready = group.filter((r) => r.state === 'ready');
  const elements = ready.reduce((n, r) => n + r.elements, 0);
  const paged = ready.some((r) => r.pages !== undefined);
  const pages = ready.reduce((n, r) => n + (r.pages ?? 0), 0);
  const seconds = group.reduce((n, r) => n + r.seconds, 0);
  const parse = ready.reduce((n, r) => n + (r.parseSeconds ?? 0), 0);
  const rate = parse > 0 ? `${((paged ? pages : elements) / parse).toFixed(1)} ${paged ? 'pages' : 'elements'}/s` : '—';
  const failed = group.length - ready.length;
  const codes = failed ? ` (${codeCounts(group)})` : '';
  return `| .${ext} | ${group.length} | ${ready.length} | ${failed}${codes} | ${elements} | ${paged ? pages : '—'} | ${seconds.toFixed(1)} | ${parse.toFixed(1)} | ${rate} |`;
}

function summaryTable(rows: FileRow[]): string[] {
  return [
    '| format | files | ready | failed (codes) | elements | pages | isolated s | parse s in process | throughput in process |',
    '|---|---:|---:|---|---:|---:|---:|---:|---:|',
    ...[...new Set(rows.map((r) => r.ext))].map((ext) =>
      summaryRow(
        ext,
        rows.filter((r) => r.ext === ext),
      ),
    ),
  ];
}

function craftedTable(rows: FileRow[]): string[] {
  return [
    '| input | expected | got | seconds |',
    '|---|---|---|---:|',
    ...rows.map(
      (r) =>
        `| ${r.file} | ${r.expected} | ${r.code ?? r.state}${r.code === r.expected ? ' ✓' : ' ✗'} | ${r.seconds.toFixed(2)} |`,
    ),
  ];
}

function render(all: FileRow[], wallSeconds: number, concurrency: number): string {
  const rows = all.filter((r) => r.expected === undefined);
  const crafted = all.filter((r) => r.expected !== undefined);
  const crashes = rows.filter((r) => r.code === 'PP_PARSE_CRASHED' || r.code === 'PP_PARSE_MEMORY').length;
  const ready = rows.filter((r) => r.state === 'ready').length;
  const perFile = rows.map(
    (r) =>
      `| .${r.ext} | ${r.file} | ${r.state} | ${r.code ?? ''} | ${r.elements} | ${r.pages ?? ''} | ${r.seconds.toFixed(2)} | ${r.parseSeconds?.toFixed(2) ?? ''} |`,
  );
  return [
    '# Formats report',
    '',
    'Generated by `pnpm formats-report`: every file of `../shared/corpus/formats/<ext>/` through `parseIsolated`',
    `(isolated child processes, ${LIMITS.timeoutMs / 1000} s / ${LIMITS.maxOldSpaceMb} MB limits, OCR: native tesseract, office: LibreOffice headless,`,
    `${concurrency} files at a time on a 2-core machine). "isolated s" is wall time per file in a parser child (warm children`,
    'are reused; one that failed is replaced, and its successor starts cold); "parse s in process" is the same parse of a ready file run',
    'again in the report process, and gives the throughput column (pages/s for paged formats, elements/s otherwise).',
    '',
    `**${rows.length} files: ${ready} ready, ${rows.length - ready} failed with a stable code, ${crashes} process crashes.** Wall time ${wallSeconds.toFixed(0)} s.`,
    '',
    ...summaryTable(rows),
    '',
    `Failed codes: ${codeCounts(rows)}`,
    '',
    '## Crafted bad inputs (run in the same batch, between the corpus files)',
    '',
    ...craftedTable(crafted),
    '',
    '## Per file',
    '',
    '| format | file | state | code | elements | pages | isolated s | parse s in process |',
    '|---|---|---|---|---:|---:|---:|---:|',
    ...perFile,
    '',
  ].join('\n');
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: { corpus: { type: 'string' }, out: { type: 'string' }, concurrency: { type: 'string' } },
  });
  const corpus = values.corpus ?? here('../../../../shared/corpus/formats/');
  const out = values.out ?? here('../../../docs/formats-report.md');
  const concurrency = Math.max(1, Number(values.concurrency ?? 2));
  const started = performance.now();
  const rows = await runAll(withCrafted(corpusJobs(corpus), corpus), concurrency);
  writeFileSync(out, render(rows, (performance.now() - started) / 1000, concurrency));
  process.stderr.write(`wrote ${out}\n`);
}

await main();
