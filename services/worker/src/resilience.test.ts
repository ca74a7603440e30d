import type { Job } from '@pinpoint/core';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { checkContent, countEvents } from '../test/deployment-checks.js';
import { evalDocs } from '../test/eval-docs.js';
import { startOwnRedis } from '../test/redis-server-process.js';
import type { ThrowawayDeployment } from '../test/throwaway-deployment.js';
import { createThrowawayDeployment } from '../test/throwaway-deployment.js';

const SHARED = new URL('../../../../shared/eval/', import.meta.url).pathname;
/** In-process parsing for speed; default 30 s locks, so a busy machine never makes a live job look stalled. */
const QUICK = { PINPOINT_PARSE_ISOLATE: 'false', PINPOINT_JOB_BACKOFF_MS: '100' };
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function settle(d: ThrowawayDeployment, versionIds: string[]) {
  return d.engine.waitForVersions(versionIds, { timeoutMs: 120_000 });
}

describe('distributed worker: two workers on one queue', () => {
  it('every version is processed exactly once, by one of the two workers', async () => {
    const d = await createThrowawayDeployment(QUICK);
    try {
      const workers = await Promise.all([d.spawnWorker(), d.spawnWorker()]);
      const uploads = await d.uploadFiles(evalDocs(['md', 'txt', 'html']).slice(0, 12));
      const versions = await settle(
        d,
        uploads.map((u) => u.version.version_id),
      );
      expect(versions.every((v) => v.state === 'ready')).toBe(true);
      const started = countEvents(workers, 'job-started');
      await expect
        .poll(async () => (await d.ports.queue.list()).filter((j) => j.state !== 'succeeded').length, {
          timeout: 60_000,
          interval: 100,
        })
        .toBe(0);
      const jobs = await d.ports.queue.list();
      expect(jobs.map((j) => [j.state, j.attempts, started.get(j.job_id)])).toEqual(jobs.map(() => ['succeeded', 1, 1]));
      expect(workers.every((w) => w.events.some((e) => e.event === 'job-finished'))).toBe(true);
      expect(await checkContent(d)).toMatchObject({ notReady: 0, duplicateOrGappedChunks: 0, orphans: 0 });
    } finally {
      await d.dispose();
    }
  }, 180_000);
});

describe('distributed worker: Redis restarted during a batch', () => {
  it('no job is lost: every version of the batch ends ready', async () => {
    const redis = await startOwnRedis(6390 + Math.floor(Math.random() * 9));
    // A job whose completion was lost with the connection is recovered when its lock expires: keep that short.
    const d = await createThrowawayDeployment({
      ...QUICK,
      PINPOINT_REDIS_URL: redis.url,
      PINPOINT_LOCK_DURATION_MS: '3000',
      PINPOINT_STALLED_INTERVAL_MS: '1000',
    });
    try {
      await d.spawnWorker();
      const docs = evalDocs(['md', 'txt', 'html']).slice(0, 14);
      const ids = (await d.uploadFiles(docs.slice(0, 10))).map((u) => u.version.version_id);
      await expect
        .poll(async () => (await d.ports.queue.list({ state: 'succeeded' })).length, { timeout: 60_000, interval: 20 })
        .toBeGreaterThanOrEqual(2);
      await redis.kill();
      await sleep(1000);
      await redis.restart();
      ids.push(...(await d.uploadFiles(docs.slice(10))).map((u) => u.version.version_id));
      const versions = await settle(d, ids);
      expect(versions.map((v) => v.state)).toEqual(ids.map(() => 'ready'));
      await expect
        .poll(async () => (await d.ports.queue.list()).filter((j) => j.state !== 'succeeded').length, {
          timeout: 60_000,
          interval: 100,
        })
        .toBe(0);
      expect(await checkContent(d)).toMatchObject({ versions: 14, notReady: 0, duplicateOrGappedChunks: 0, orphans: 0 });
    } finally {
      await d.dispose();
      await redis.dispose();
    }
  }, 180_000);
});

async function rowsOf(d: ThrowawayDeployment, versionId: string): Promise<number> {
  const client = new pg.Client({ connectionString: d.config.databaseUrl, options: `-c search_path=${d.config.pgSchema}` });
  await client.connect();
  try {
    const { rows } = await client.query<{ n: string }>(
      `SELECT (SELECT count(*) FROM chunks WHERE version_id = $1) + (SELECT count(*) FROM elements WHERE version_id = $1)
       + (SELECT count(*) FROM lex_chunks WHERE version_id = $1) AS n`,
      [versionId],
    );
    return Number(rows[0]?.n);
  } finally {
    await client.end();
  }
}

/** Cancels the file's job as soon as it reports `stage`; returns the job's final view. */
async function cancelAt(d: ThrowawayDeployment, file: string, stage: Job['stage']) {
  const seen: Job['stage'][] = [];
  let cancelled: Promise<unknown> | null = null;
  const unsubscribe = d.ports.queue.subscribe((job) => {
    if (job.file !== file.split('/').pop()) return;
    seen.push(job.stage);
    if (job.stage === stage && job.state === 'running' && !cancelled) cancelled = d.ports.queue.cancel(job.job_id);
  });
  try {
    const [upload] = await d.uploadFiles([file]);
    if (!upload?.job) throw new Error('no job');
    const [version] = await settle(d, [upload.version.version_id]);
    await cancelled;
    const jobId = upload.job.job_id;
    await expect.poll(async () => (await d.ports.queue.get(jobId))?.state, { timeout: 10_000, interval: 20 }).toBe('cancelled');
    return { version, job: await d.ports.queue.get(jobId), seen };
  } finally {
    unsubscribe();
  }
}

describe('distributed worker: cancel', () => {
  it('during parsing and during indexing: the version ends cancelled, nothing of it searchable, the worker free', async () => {
    const d = await createThrowawayDeployment(QUICK);
    try {
      await d.spawnWorker();
      const parsing = await cancelAt(d, `${SHARED}jsquad-dev/docs/041_ポルトガル.pdf`, 'parsing');
      const indexing = await cancelAt(d, `${SHARED}squad2-dev/docs/005_European_Union_law.md`, 'indexing');
      for (const run of [parsing, indexing]) {
        expect(run.version).toMatchObject({ state: 'cancelled', error_code: 'PP_JOB_CANCELLED' });
        expect(run.job?.state).toBe('cancelled');
        expect(await rowsOf(d, run.version?.version_id ?? '')).toBe(0);
      }
      expect(indexing.seen).toContain('indexing');
      const hits = await d.engine.search('European Union law treaties Portugal', {});
      expect(hits.hits).toEqual([]);
      const [next] = await d.uploadFiles([`${SHARED}squad2-dev/docs/000_Normans.md`]);
      expect((await settle(d, [next?.version.version_id ?? '']))[0]?.state).toBe('ready');
    } finally {
      await d.dispose();
    }
  }, 180_000);
});
