import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { loadCliConfig, verifyDataFolder } from '@pinpoint/cli';
import { commandLine, recordResult } from '@pinpoint/results';
import { seededRandom } from '@pinpoint/testing';
import { api, repoRoot, type ServerProcess, startApiServer, stopApiServer } from './server-process.js';

/** A PDF, two Office documents, a spreadsheet and a scan (OCR): small, so a trial stays short. */
const POOL = [
  'pdf/docling__multi_page.pdf',
  'docx/docling__word_sample.docx',
  'xlsx/docling__xlsx_05_table_with_title.xlsx',
  'jpg/tika__testOCR.jpg',
  'docx/docling__word_tables.docx',
];
const PROBES = ['What is this document about?', 'table', 'total amount'];
const SETTLED = new Set(['succeeded', 'failed', 'cancelled']);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Search hits and answers with their ids (new per version) and timings taken out: what must equal a clean ingest. */
function fingerprint(value: unknown): string {
  const json = JSON.stringify(value, (key, v) => (key === 'timings' || key === 'created_at' ? undefined : v));
  return json.replace(/\b(ver|doc|col|job|chk|el)_[0-9a-f]{8,}/g, '$1');
}

async function probe(server: ServerProcess, collectionId: string): Promise<string[]> {
  const out: string[] = [];
  for (const q of PROBES) {
    const body = (x: object) => JSON.stringify({ ...x, collection_id: collectionId });
    out.push(fingerprint(await api(server, '/api/search', { method: 'POST', body: body({ query: q, k: 10 }) })));
    out.push(fingerprint(await api(server, '/api/ask', { method: 'POST', body: body({ question: q }) })));
  }
  return out;
}

async function uploadTo(server: ServerProcess, name: string, file: string): Promise<string> {
  const { collection_id } = await api<{ collection_id: string }>(server, '/api/collections', {
    method: 'POST',
    body: JSON.stringify({ name }),
  });
  await upload(server, collection_id, file);
  return collection_id;
}

async function upload(server: ServerProcess, collectionId: string, file: string): Promise<void> {
  const form = new FormData();
  form.append('file', new Blob([readFileSync(file)]), basename(file));
  await api(server, `/api/collections/${collectionId}/uploads`, { method: 'POST', body: form });
}

/** Waits until the collection's jobs have all ended; false when some are still queued or running after `ms`. */
async function settled(server: ServerProcess, collectionId: string, ms: number): Promise<boolean> {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    const { jobs } = await api<{ jobs: { state: string }[] }>(server, `/api/jobs?collection_id=${collectionId}`);
    if (jobs.length > 0 && jobs.every((j) => SETTLED.has(j.state))) return true;
    await sleep(200);
  }
  return false;
}

interface Reference {
  probes: Map<string, string[]>;
  ingestMs: Map<string, number>;
}

/** Each pool file ingested once without faults, in a collection of its own: the answers every trial must give again. */
async function cleanReference(files: string[], log: (l: string) => void): Promise<Reference> {
  const dir = mkdtempSync(join(tmpdir(), 'pp-faults-ref-'));
  const server = await startApiServer(dir, { PINPOINT_MIN_FREE_MB: '0' });
  const ref: Reference = { probes: new Map(), ingestMs: new Map() };
  try {
    for (const [i, file] of files.entries()) {
      const started = performance.now();
      const collection = await uploadTo(server, `ref-${i}`, file);
      await settled(server, collection, 120_000);
      ref.ingestMs.set(file, performance.now() - started);
      ref.probes.set(file, await probe(server, collection));
      log(`reference ${basename(file)}: ${Math.round(ref.ingestMs.get(file) ?? 0)} ms`);
    }
  } finally {
    await stopApiServer(server);
    rmSync(dir, { recursive: true, force: true });
  }
  return ref;
}

export interface FaultTotals {
  trials: number;
  server_kills: number;
  backup_kills: number;
  uploads_refused_by_kill: number;
  originals_lost: number;
  orphan_or_missing_chunks: number;
  jobs_stuck: number;
  versions_unsettled: number;
  answers_differing: number;
  other_problems: number;
}

function countProblems(totals: FaultTotals, problems: { kind: string; message: string }[]): void {
  for (const p of problems) {
    if (p.kind === 'blob') totals.originals_lost++;
    else if (p.kind === 'lexical' || p.kind === 'vectors') totals.orphan_or_missing_chunks++;
    else if (p.kind === 'job' || p.kind === 'version') totals.jobs_stuck++;
    else totals.other_problems++;
  }
}

/** `pinpoint backup` as a process of its own, killed after `delayMs`. */
async function killBackup(dataDir: string, dest: string, delayMs: number): Promise<void> {
  const child: ChildProcess = spawn(
    process.execPath,
    ['--import', 'tsx', join(repoRoot, 'packages/cli/src/bin.ts'), 'backup', dest, '--data-dir', dataDir, '--json'],
    { cwd: repoRoot, stdio: 'ignore' },
  );
  const exited = new Promise((r) => child.once('exit', r));
  await Promise.race([sleep(delayMs), exited]);
  child.kill('SIGKILL');
  await exited;
}

interface TrialContext {
  ref: Reference;
  data: string;
  dest: string;
  totals: FaultTotals;
  log: (l: string) => void;
}

/**
 * One trial: a file uploaded to a collection of its own; the server (or a backup of the folder)
 * SIGKILLed at a random moment of its ingestion; the server restarted; the upload sent again when
 * the kill refused it; then the folder verified and the file's answers compared with the clean ones.
 */
async function trial(ctx: TrialContext, server: ServerProcess, t: number, random: () => number): Promise<ServerProcess> {
  const file = POOL_FILES[t % POOL_FILES.length] as string;
  const killBackupNow = t % 10 === 9;
  const delay = Math.round(random() * ((ctx.ref.ingestMs.get(file) ?? 2000) * 1.3 + 300));
  const { collection_id } = await api<{ collection_id: string }>(server, '/api/collections', {
    method: 'POST',
    body: JSON.stringify({ name: `t${t}` }),
  });
  let next = server;
  let accepted: Promise<boolean>;
  if (killBackupNow) {
    accepted = upload(server, collection_id, file).then(() => true);
    await accepted;
    await killBackup(ctx.data, ctx.dest, delay * 4);
    ctx.totals.backup_kills++;
  } else {
    accepted = upload(server, collection_id, file).then(
      () => true,
      () => false,
    );
    await sleep(delay);
    await stopApiServer(server, 'SIGKILL');
    ctx.totals.server_kills++;
    next = await startApiServer(ctx.data, { PINPOINT_MIN_FREE_MB: '0' }, Number(new URL(server.base).port));
  }
  if (!(await accepted)) {
    ctx.totals.uploads_refused_by_kill++;
    await upload(next, collection_id, file);
  }
  if (!(await settled(next, collection_id, 120_000))) ctx.totals.versions_unsettled++;
  const report = await verifyDataFolder(loadCliConfig(['verify', '--data-dir', ctx.data], {}), {
    repair: false,
    progress: () => {},
  });
  countProblems(ctx.totals, report.problems);
  const differing = (await probe(next, collection_id)).filter((p, i) => p !== ctx.ref.probes.get(file)?.[i]).length;
  ctx.totals.answers_differing += differing;
  ctx.log(
    `trial ${t + 1}: ${killBackupNow ? 'backup' : 'server'} killed at ${delay} ms, ${basename(file)}: ` +
      `${report.problems.length} problems, ${differing} differing${report.problems.map((p) => `\n  ✗ ${p.message}`).join('')}`,
  );
  ctx.totals.trials++;
  return next;
}

const POOL_FILES = POOL.map((p) => join(repoRoot, '../shared/corpus/formats', p));

/** `pnpm bench --faults N [--seed S] [--record]`: N seeded SIGKILLs of the real server at random moments of a mixed ingestion. */
export async function benchFaults(
  n: number,
  options: { seed: number; record: boolean; log: (l: string) => void },
): Promise<FaultTotals> {
  const started = performance.now();
  const ref = await cleanReference(POOL_FILES, options.log);
  const dir = mkdtempSync(join(tmpdir(), 'pp-faults-'));
  const ctx: TrialContext = {
    ref,
    data: join(dir, 'data'),
    dest: join(dir, 'backup'),
    log: options.log,
    totals: {
      trials: 0,
      server_kills: 0,
      backup_kills: 0,
      uploads_refused_by_kill: 0,
      originals_lost: 0,
      orphan_or_missing_chunks: 0,
      jobs_stuck: 0,
      versions_unsettled: 0,
      answers_differing: 0,
      other_problems: 0,
    },
  };
  let server = await startApiServer(ctx.data, { PINPOINT_MIN_FREE_MB: '0' });
  try {
    for (let t = 0; t < n; t++) server = await trial(ctx, server, t, seededRandom(options.seed * 1_000_003 + t));
  } finally {
    await stopApiServer(server);
    rmSync(dir, { recursive: true, force: true });
  }
  const minutes = Math.round((performance.now() - started) / 600) / 100;
  if (options.record) {
    const path = recordResult({
      area: 'faults',
      name: 'sigkill',
      command: commandLine('bench', process.argv.slice(2)),
      metrics: { ...ctx.totals, seed: options.seed, files: POOL.length, run_minutes: minutes },
      note: "Real server processes on 127.0.0.1, SIGKILLed at a seeded random moment of each upload's ingestion (every tenth trial kills a `pinpoint backup` instead); PDF, DOCX, XLSX and a scan (OCR) from ../shared/corpus. No embedder: HNSW writes are not exercised.",
    });
    options.log(`recorded ${path}`);
  }
  return ctx.totals;
}
