import { stat } from 'node:fs/promises';
import { cpus, loadavg } from 'node:os';
import { parseArgs } from 'node:util';
import { tableSizes } from '@pinpoint/postgres';
import { commandLine, recordResult } from '@pinpoint/results';
import { evalDocs } from './eval-docs.js';
import { createThrowawayDeployment } from './throwaway-deployment.js';

/**
 * `pnpm bench:distributed [--workers 1,2] [--datasets squad2-dev,jsquad-dev] [--isolate false] [--limit N]`:
 * ingestion throughput of the distributed mode — N worker processes on one BullMQ queue, PostgreSQL
 * metadata and lexical index — on the shared eval documents. Workers are started (and idle) before
 * the clock starts; the clock stops when every version is ready or failed. `--record` writes each
 * worker count's figures as results/distributed/<N>-workers.json for the benchmarks page.
 */
export interface ThroughputFigures {
  workers: number;
  docs: number;
  ready: number;
  failed: number;
  megabytes: number;
  seconds: number;
  docsPerMinute: number;
  chunks: number;
  jobP50Ms: number;
  jobP95Ms: number;
  /** Bytes per chunk in each store after the run: PostgreSQL by table (with indexes), Redis for the queue. */
  bytesPerChunk: { postgres: Record<string, number>; redis: number };
}

const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;

async function measure(workers: number, files: string[], isolate: boolean): Promise<ThroughputFigures> {
  const d = await createThrowawayDeployment({ PINPOINT_PARSE_ISOLATE: String(isolate), PINPOINT_WORKER_CONCURRENCY: '1' });
  try {
    await Promise.all(Array.from({ length: workers }, () => d.spawnWorker()));
    const bytes = (await Promise.all(files.map((f) => stat(f)))).reduce((a, s) => a + s.size, 0);
    const started = performance.now();
    const uploads = await d.uploadFiles(files);
    const versions = await d.engine.waitForVersions(
      uploads.map((u) => u.version.version_id),
      { timeoutMs: 30 * 60_000 },
    );
    const seconds = (performance.now() - started) / 1000;
    const chunks = versions.reduce((a, v) => a + (v.stats.chunks ?? 0), 0);
    const perChunk = (bytes: number) => Math.round(bytes / Math.max(1, chunks));
    const tables = await tableSizes(d.config.databaseUrl, d.config.pgSchema);
    const bytesPerChunk = {
      postgres: Object.fromEntries(Object.entries(tables).map(([t, b]) => [t, perChunk(b)])),
      redis: perChunk(await d.ports.queue.memoryBytes()),
    };
    const jobs = await d.ports.queue.list();
    const durations = jobs
      .filter((j) => j.started_at && j.finished_at)
      .map((j) => Date.parse(j.finished_at ?? '') - Date.parse(j.started_at ?? ''))
      .sort((a, b) => a - b);
    return {
      workers,
      docs: files.length,
      ready: versions.filter((v) => v.state === 'ready').length,
      failed: versions.filter((v) => v.state === 'failed').length,
      megabytes: Math.round((bytes / 1e6) * 100) / 100,
      seconds: Math.round(seconds * 10) / 10,
      docsPerMinute: Math.round((files.length / seconds) * 600) / 10,
      chunks,
      jobP50Ms: percentile(durations, 50),
      jobP95Ms: percentile(durations, 95),
      bytesPerChunk,
    };
  } finally {
    await d.dispose();
  }
}

const { values } = parseArgs({
  options: {
    workers: { type: 'string', default: '1,2' },
    datasets: { type: 'string', default: 'squad2-dev,jsquad-dev' },
    isolate: { type: 'string', default: 'false' },
    limit: { type: 'string' },
    record: { type: 'boolean', default: false },
  },
});
const datasets = values.datasets.split(',');
const files = evalDocs(undefined, datasets).slice(0, values.limit ? Number(values.limit) : undefined);
const results: ThroughputFigures[] = [];
for (const n of values.workers.split(',').map(Number)) {
  const r = await measure(n, files, values.isolate === 'true');
  results.push(r);
  process.stdout.write(
    `${n} worker(s): ${r.docs} docs (${r.megabytes} MB, ${r.chunks} chunks) in ${r.seconds} s = ${r.docsPerMinute} docs/min; ` +
      `ready ${r.ready}, failed ${r.failed}; job p50 ${r.jobP50Ms} ms, p95 ${r.jobP95Ms} ms; ` +
      `bytes per chunk: ${Object.entries(r.bytesPerChunk.postgres)
        .map(([t, b]) => `${t} ${b}`)
        .join(', ')}, redis ${r.bytesPerChunk.redis}\n`,
  );
  if (values.record) {
    const { bytesPerChunk, ...figures } = r;
    const path = recordResult({
      area: 'distributed',
      name: `${n}-workers`,
      command: commandLine('bench:distributed', process.argv.slice(2)),
      metrics: {
        ...figures,
        datasets: datasets.join(','),
        isolate: values.isolate === 'true',
        redis_bytes_per_chunk: bytesPerChunk.redis,
      },
    });
    process.stdout.write(`recorded ${path}\n`);
  }
}
const machine = { cpus: cpus().length, loadavg1m: Math.round((loadavg()[0] ?? 0) * 10) / 10 };
process.stdout.write(
  `${JSON.stringify({ bench: 'distributed-ingestion', datasets, isolate: values.isolate === 'true', machine, results })}\n`,
);
