import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { backupDataFolder, ingestFiles, openEmbeddedEngine, restoreDataFolder } from '@pinpoint/cli';
import { defaultEngineConfig } from '@pinpoint/engine';
import { loadDataset } from '@pinpoint/eval';
import { commandLine, recordResult } from '@pinpoint/results';
import { api, repoRoot, type ServerProcess, startApiServer, stopApiServer } from './server-process.js';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
/** Ten askers on one (local) user are far past the per-user question limit; the bench measures latency, not that limit. */
const SERVER_ENV = { PINPOINT_MIN_FREE_MB: '0', PINPOINT_RATE_LIMIT_ASK: '1000000' };

function p95(samples: number[]): number {
  const sorted = [...samples].sort((a, b) => a - b);
  return Math.round(sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * 0.95))] ?? Number.NaN);
}

/** Askers on the server: each asks the questions in turn until stopped; every answer's end time and latency. */
function startAskers(server: ServerProcess, questions: string[], n: number) {
  const samples: { end: number; ms: number }[] = [];
  let stopped = false;
  const loops = Array.from({ length: n }, async (_, i) => {
    for (let q = i; !stopped; q += n) {
      const started = performance.now();
      await api(server, '/api/ask', { method: 'POST', body: JSON.stringify({ question: questions[q % questions.length] }) });
      samples.push({ end: performance.now(), ms: performance.now() - started });
    }
  });
  return {
    samples,
    stop: async () => {
      stopped = true;
      await Promise.all(loops);
    },
  };
}

/** The answers (text, refusal, citations with their anchors) to the first questions: what a restore must keep. */
async function answers(server: ServerProcess, questions: string[]): Promise<string[]> {
  const out: string[] = [];
  for (const question of questions) {
    const a = await api<{ answer: string; refused: boolean; citations: unknown[] }>(server, '/api/ask', {
      method: 'POST',
      body: JSON.stringify({ question }),
    });
    out.push(JSON.stringify([a.answer, a.refused, a.citations]));
  }
  return out;
}

async function ingestSubset(data: string, files: string[], log: (l: string) => void): Promise<number> {
  const engine = openEmbeddedEngine(data, defaultEngineConfig);
  try {
    const lines = await ingestFiles(engine, 'default', files, (l) => log(`  ${l.file} ${l.state} ${l.pages ?? ''}`), {
      concurrency: 2,
      largestFirst: true,
    });
    return lines.reduce((s, l) => s + (l.pages ?? 0), 0);
  } finally {
    await engine.close();
  }
}

export interface BackupBenchOptions {
  docs?: number;
  askers: number;
  seconds: number;
  record: boolean;
  log: (line: string) => void;
}

/**
 * `pnpm bench --backup [--backup-docs N] [--askers 10] [--seconds 20] [--record]`: the financebench-dev
 * documents (or the first N) ingested, the real server answering `askers` concurrent askers; their p95
 * over `seconds` without a backup (after `seconds` of warm-up), then during `pinpoint backup`; the restore's time; and the answers
 * of a server on the restored folder against the original's.
 */
async function benchBackup(o: BackupBenchOptions): Promise<Record<string, number | string | boolean>> {
  const dataset = loadDataset(join(repoRoot, '../shared/eval/financebench-dev'));
  const files = dataset.files.slice(0, o.docs ?? dataset.files.length).map((f) => f.path);
  const dir = mkdtempSync(join(tmpdir(), 'pp-backup-bench-'));
  const [data, dest, restored] = ['data', 'backup', 'restored'].map((n) => join(dir, n)) as [string, string, string];
  const questions = dataset.questions.map((q) => q.question);
  try {
    const ingestStart = performance.now();
    const pages = await ingestSubset(data, files, o.log);
    o.log(`ingested ${files.length} documents, ${pages} pages in ${Math.round((performance.now() - ingestStart) / 1000)} s`);
    const server = await startApiServer(data, SERVER_ENV);
    const askers = startAskers(server, questions, o.askers);
    // a warm-up window first (cold caches, the first questions' start-up), then the window without a backup
    await sleep(o.seconds * 1000);
    const warmEnd = performance.now();
    await sleep(o.seconds * 1000);
    const quietEnd = performance.now();
    const backup = await backupDataFolder(data, dest, () => {});
    const backupEnd = performance.now();
    await askers.stop();
    const before = await answers(server, questions.slice(0, 20));
    await stopApiServer(server);
    const restoreStart = performance.now();
    await restoreDataFolder(dest, restored, () => {});
    const restoreSeconds = (performance.now() - restoreStart) / 1000;
    const again = await startApiServer(restored, SERVER_ENV);
    const after = await answers(again, questions.slice(0, 20));
    await stopApiServer(again);
    const during = askers.samples.filter((s) => s.end > quietEnd && s.end <= backupEnd).map((s) => s.ms);
    const without = askers.samples.filter((s) => s.end > warmEnd && s.end <= quietEnd).map((s) => s.ms);
    return {
      documents: files.length,
      pages,
      subset: files.length < dataset.files.length,
      backup_s: Math.round(backup.seconds * 10) / 10,
      backup_mb: Math.round(backup.bytes / 1024 / 102.4) / 10,
      askers: o.askers,
      asks_without: without.length,
      asks_during: during.length,
      p95_without_ms: p95(without),
      p95_during_ms: p95(during),
      restore_s: Math.round(restoreSeconds * 10) / 10,
      answers_compared: before.length,
      answers_identical: before.filter((a, i) => a === after[i]).length,
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

export async function runBackupBench(o: BackupBenchOptions): Promise<void> {
  const metrics = await benchBackup(o);
  o.log(JSON.stringify(metrics));
  if (!o.record) return;
  const path = recordResult({
    area: 'backup',
    name: 'financebench-dev',
    command: commandLine('bench', process.argv.slice(2)),
    metrics,
    note: 'Askers and the backup share a busy 2-core machine with other work: latencies are noisy; compare p95 during and without in the same run.',
  });
  o.log(`recorded ${path}`);
}
