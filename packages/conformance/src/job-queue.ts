import { randomUUID } from 'node:crypto';
import type { Job, JobContext, JobQueue, NewJob } from '@pinpoint/core';
import { createError, jobIdFor } from '@pinpoint/core';
import { describe, expect, it } from 'vitest';
import type { PortFactory, PortTest } from './fixture.js';
import { withFreshPort } from './fixture.js';

type Use = PortTest<JobQueue>;

export function newJobInput(file = 'notes.txt'): NewJob {
  const id = randomUUID().replaceAll('-', '').slice(0, 20);
  return {
    version_id: `ver_${id}`,
    document_id: `doc_${id}`,
    collection_id: 'col_conformance',
    file,
    recipe_key: 'txt@1|c1:500/50',
  };
}

/** Polls `get` until the job satisfies `done`; fails with the last seen job after `timeoutMs`. */
export async function waitForJob(queue: JobQueue, jobId: string, done: (job: Job) => boolean, timeoutMs = 15_000): Promise<Job> {
  const deadline = Date.now() + timeoutMs;
  let last: Job | null = null;
  while (Date.now() < deadline) {
    last = await queue.get(jobId);
    if (last && done(last)) return last;
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error(`job ${jobId} did not reach the expected state; last seen: ${JSON.stringify(last)}`);
}

const settled = (job: Job) => job.state === 'succeeded' || job.state === 'failed' || job.state === 'cancelled';
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function untilAborted(ctx: JobContext): Promise<void> {
  return new Promise((resolve) => {
    if (ctx.signal.aborted) resolve();
    else ctx.signal.addEventListener('abort', () => resolve(), { once: true });
  });
}

/**
 * The JobQueue port's semantics. The factory must configure a short retry backoff (<= 100 ms)
 * and at least 3 attempts per job.
 */
export function describeJobQueueConformance(name: string, factory: PortFactory<JobQueue>): void {
  const use = withFreshPort(factory);
  describe(`JobQueue conformance: ${name}`, () => {
    describeLifecycle(use);
    describeFailures(use);
    describeCancel(use);
    describeProgressAndStop(use);
  });
}

function describeLifecycle(use: Use): void {
  it(
    'enqueue is idempotent by job id (version + recipe) and the job runs once to succeeded',
    use(async (queue) => {
      const input = newJobInput();
      const job = await queue.enqueue(input);
      expect(job).toMatchObject({
        job_id: jobIdFor(input.version_id, input.recipe_key),
        version_id: input.version_id,
        state: 'queued',
        stage: 'queued',
        progress: 0,
        attempts: 0,
        error_code: null,
        started_at: null,
        finished_at: null,
      });
      expect((await queue.enqueue(input)).job_id).toBe(job.job_id);
      expect(await queue.get(job.job_id)).toMatchObject({ job_id: job.job_id, state: 'queued' });
      const seen: string[] = [];
      const runner = queue.start(async (j) => {
        seen.push(j.job_id);
      });
      try {
        const done = await waitForJob(queue, job.job_id, settled);
        expect(done).toMatchObject({ state: 'succeeded', stage: 'done', progress: 100, attempts: 1, error_code: null });
        expect(done.started_at).not.toBeNull();
        expect(done.finished_at).not.toBeNull();
        await queue.enqueue(input);
        await sleep(200);
        expect(seen).toEqual([job.job_id]);
      } finally {
        await runner.stop();
      }
    }),
  );

  it(
    'get returns null for unknown jobs; list filters by state and version',
    use(async (queue) => {
      expect(await queue.get('job_missing')).toBeNull();
      const a = await queue.enqueue(newJobInput('a.txt'));
      const b = await queue.enqueue(newJobInput('b.txt'));
      expect((await queue.list()).map((j) => j.job_id).sort()).toEqual([a.job_id, b.job_id].sort());
      expect((await queue.list({ versionId: b.version_id })).map((j) => j.job_id)).toEqual([b.job_id]);
      expect(await queue.list({ state: 'running' })).toEqual([]);
      expect(await queue.list({ state: 'queued' })).toHaveLength(2);
      expect(await queue.list({ limit: 1 })).toHaveLength(1);
      await expect(queue.cancel('job_missing')).rejects.toMatchObject({ code: 'PP_NOT_FOUND' });
    }),
  );
}

function describeFailures(use: Use): void {
  it(
    'retries retryable errors with backoff (ctx.attempt counts up), then succeeds',
    use(async (queue) => {
      const job = await queue.enqueue(newJobInput());
      const attempts: number[] = [];
      const runner = queue.start(async (_j, ctx) => {
        attempts.push(ctx.attempt);
        if (ctx.attempt < 3) throw createError('PP_PROVIDER_UNAVAILABLE', 'embedding service is down');
      });
      try {
        const done = await waitForJob(queue, job.job_id, settled);
        expect(done).toMatchObject({ state: 'succeeded', attempts: 3 });
        expect(attempts).toEqual([1, 2, 3]);
      } finally {
        await runner.stop();
      }
    }),
  );

  it(
    'fails at once on a non-retryable error, with its code and message; retry() runs it again',
    use(async (queue) => {
      const job = await queue.enqueue(newJobInput());
      let calls = 0;
      const runner = queue.start(async () => {
        calls += 1;
        if (calls === 1) throw createError('PP_PARSE_CORRUPT', 'The file is truncated at byte 12.');
      });
      try {
        const failed = await waitForJob(queue, job.job_id, settled);
        expect(failed).toMatchObject({
          state: 'failed',
          attempts: 1,
          error_code: 'PP_PARSE_CORRUPT',
          error_message: 'The file is truncated at byte 12.',
        });
        await sleep(250);
        expect(calls).toBe(1);
        const again = await queue.retry(job.job_id);
        expect(again.state).toBe('queued');
        const done = await waitForJob(queue, job.job_id, (j) => j.state === 'succeeded');
        expect(done.error_code).toBeNull();
        expect(calls).toBe(2);
      } finally {
        await runner.stop();
      }
    }),
  );
}

function describeCancel(use: Use): void {
  it(
    'cancel aborts the running processor, the job ends cancelled and the runner takes the next job',
    use(async (queue) => {
      const first = await queue.enqueue(newJobInput('first.txt'));
      let aborted = false;
      const runner = queue.start(async (j, ctx) => {
        if (j.job_id !== first.job_id) return;
        await ctx.progress({ stage: 'parsing', percent: 10 });
        await untilAborted(ctx);
        aborted = true;
        throw createError('PP_JOB_CANCELLED', 'cancelled');
      });
      try {
        await waitForJob(queue, first.job_id, (j) => j.stage === 'parsing');
        const cancelled = await queue.cancel(first.job_id);
        expect(['running', 'cancelled']).toContain(cancelled.state);
        expect(await waitForJob(queue, first.job_id, settled)).toMatchObject({ state: 'cancelled' });
        expect(aborted).toBe(true);
        const next = await queue.enqueue(newJobInput('next.txt'));
        expect(await waitForJob(queue, next.job_id, settled)).toMatchObject({ state: 'succeeded' });
        await expect(queue.cancel(next.job_id)).rejects.toMatchObject({ code: 'PP_CONFLICT' });
      } finally {
        await runner.stop();
      }
    }),
  );

  it(
    'a cancelled job ends cancelled even when its processor ignores the signal and returns',
    use(async (queue) => {
      const job = await queue.enqueue(newJobInput());
      const runner = queue.start(async (_j, ctx) => {
        await ctx.progress({ stage: 'indexing', percent: 50 });
        await untilAborted(ctx);
      });
      try {
        await waitForJob(queue, job.job_id, (j) => j.stage === 'indexing');
        await queue.cancel(job.job_id);
        expect(await waitForJob(queue, job.job_id, settled)).toMatchObject({ state: 'cancelled' });
      } finally {
        await runner.stop();
      }
    }),
  );

  it(
    'cancelling a queued job means it never runs; retry() re-queues it',
    use(async (queue) => {
      const job = await queue.enqueue(newJobInput());
      expect((await queue.cancel(job.job_id)).state).toBe('cancelled');
      const ran: string[] = [];
      const runner = queue.start(async (j) => {
        ran.push(j.job_id);
      });
      try {
        const other = await queue.enqueue(newJobInput('other.txt'));
        await waitForJob(queue, other.job_id, settled);
        expect(ran).toEqual([other.job_id]);
        expect((await queue.get(job.job_id))?.state).toBe('cancelled');
        await queue.retry(job.job_id);
        expect(await waitForJob(queue, job.job_id, settled)).toMatchObject({ state: 'succeeded' });
      } finally {
        await runner.stop();
      }
    }),
  );
}

function describeProgressAndStop(use: Use): void {
  it(
    'progress (stage + percent) reaches get() and subscribers',
    use(async (queue) => {
      const events: Job[] = [];
      const unsubscribe = queue.subscribe((j) => events.push(j));
      const job = await queue.enqueue(newJobInput());
      let release: () => void = () => {};
      const gate = new Promise<void>((r) => {
        release = r;
      });
      const runner = queue.start(async (_j, ctx) => {
        await ctx.progress({ stage: 'parsing', percent: 30 });
        await gate;
      });
      try {
        const running = await waitForJob(queue, job.job_id, (j) => j.stage === 'parsing');
        expect(running).toMatchObject({ state: 'running', stage: 'parsing', progress: 30, attempts: 1 });
        await expect
          .poll(() => events.some((e) => e.job_id === job.job_id && e.stage === 'parsing' && e.progress === 30))
          .toBe(true);
        release();
        await waitForJob(queue, job.job_id, settled);
        await expect.poll(() => events.some((e) => e.job_id === job.job_id && e.state === 'succeeded')).toBe(true);
      } finally {
        unsubscribe();
        await runner.stop();
      }
    }),
  );

  it(
    'stop() lets the running job finish and takes no new job afterwards',
    use(async (queue) => {
      const job = await queue.enqueue(newJobInput());
      let finished = false;
      const runner = queue.start(async (_j, ctx) => {
        await ctx.progress({ stage: 'parsing', percent: 5 });
        await sleep(300);
        finished = true;
      });
      await waitForJob(queue, job.job_id, (j) => j.state === 'running');
      await runner.stop();
      expect(finished).toBe(true);
      expect((await queue.get(job.job_id))?.state).toBe('succeeded');
      const later = await queue.enqueue(newJobInput('later.txt'));
      await sleep(300);
      expect((await queue.get(later.job_id))?.state).toBe('queued');
    }),
  );
}
