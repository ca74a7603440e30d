import { fork } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Job, JobQueue } from '@pinpoint/core';
import { createError } from '@pinpoint/core';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { SqliteJobQueue } from './job-queue.js';

const newJob = (v: string) => ({ version_id: v, document_id: 'doc', collection_id: 'col', file: 'a.md', recipe_key: 'r1' });

async function settled(queue: JobQueue, jobId: string): Promise<Job> {
  for (let i = 0; i < 400; i++) {
    const job = await queue.get(jobId);
    if (job && ['succeeded', 'failed', 'cancelled'].includes(job.state)) return job;
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error(`job ${jobId} did not settle`);
}

describe('SqliteJobQueue', () => {
  let dir: string;
  let queue: SqliteJobQueue;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'pp-queue-'));
    queue = new SqliteJobQueue({ path: join(dir, 'jobs.db'), backoffMs: 10, pollMs: 10, leaseMs: 2000 });
  });
  afterEach(async () => {
    await queue.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('gives the same id to the same version + recipe and runs it once', async () => {
    let runs = 0;
    const a = await queue.enqueue(newJob('v1'));
    const b = await queue.enqueue(newJob('v1'));
    expect(a.job_id).toBe(b.job_id);
    const seen: string[] = [];
    queue.subscribe((j) => seen.push(`${j.state}:${j.stage}`));
    const runner = queue.start(async (_job, ctx) => {
      runs++;
      await ctx.progress({ stage: 'chunking', percent: 50 });
    });
    expect((await settled(queue, a.job_id)).state).toBe('succeeded');
    await runner.stop();
    expect(runs).toBe(1);
    expect(seen).toContain('running:chunking');
    expect(await queue.list({ state: 'succeeded' })).toHaveLength(1);
  });

  it('retries retryable errors with backoff and fails non-retryable ones at once', async () => {
    const flaky = await queue.enqueue(newJob('flaky'));
    const broken = await queue.enqueue(newJob('broken'));
    const attempts: Record<string, number[]> = { flaky: [], broken: [] };
    queue.start(async (job, ctx) => {
      attempts[job.version_id]?.push(ctx.attempt);
      if (job.version_id === 'broken') throw createError('PP_PARSE_CORRUPT', 'bad file');
      if (ctx.attempt < 3) throw createError('PP_PARSE_CRASHED', 'crashed');
    });
    expect(await settled(queue, flaky.job_id)).toMatchObject({ state: 'succeeded', attempts: 3 });
    expect(await settled(queue, broken.job_id)).toMatchObject({ state: 'failed', attempts: 1, error_code: 'PP_PARSE_CORRUPT' });
    expect(attempts).toEqual({ flaky: [1, 2, 3], broken: [1] });
    expect((await queue.retry(broken.job_id)).state).toBe('queued');
    expect(await settled(queue, broken.job_id)).toMatchObject({ state: 'failed', attempts: 1 });
  });

  it('cancels a running job through its signal and a queued one before it runs', async () => {
    const running = await queue.enqueue(newJob('long'));
    let started!: () => void;
    const didStart = new Promise<void>((r) => {
      started = r;
    });
    queue.start(async (job, ctx) => {
      if (job.version_id !== 'long') throw new Error('the cancelled queued job must not run');
      started();
      await new Promise((resolve) => ctx.signal.addEventListener('abort', resolve));
    });
    await didStart;
    const queued = await queue.enqueue(newJob('later'));
    await queue.cancel(queued.job_id);
    await queue.cancel(running.job_id);
    expect((await settled(queue, running.job_id)).state).toBe('cancelled');
    expect((await settled(queue, queued.job_id)).state).toBe('cancelled');
    await expect(queue.cancel(running.job_id)).rejects.toMatchObject({ code: 'PP_CONFLICT' });
  });

  it('runs a job again, exactly once, after the process running it was killed', async () => {
    const path = join(dir, 'crash.db');
    const child = fork(fileURLToPath(new URL('../test/queue-crash-child.ts', import.meta.url)), [path, 'v-crash'], {
      execArgv: ['--import', 'tsx'],
      stdio: 'ignore',
    });
    await new Promise<void>((resolve, reject) => {
      child.on('message', () => resolve());
      child.on('exit', (code) => reject(new Error(`child exited early (${code})`)));
    });
    child.kill('SIGKILL');
    await new Promise((r) => child.once('exit', r));

    const restarted = new SqliteJobQueue({ path, leaseMs: 60_000, pollMs: 10 });
    const runs: number[] = [];
    restarted.start(async (_job, ctx) => {
      runs.push(ctx.attempt);
    });
    const [job] = await restarted.list();
    const done = await settled(restarted, job!.job_id);
    await restarted.close();
    expect(done).toMatchObject({ state: 'succeeded', attempts: 2 });
    expect(runs).toEqual([2]);
  });
});
