import { randomUUID } from 'node:crypto';
import { newJobInput, waitForJob } from '@pinpoint/conformance';
import { createError } from '@pinpoint/core';
import { Redis } from 'ioredis';
import { describe, expect, it } from 'vitest';
import { BullMQJobQueue } from './bullmq-job-queue.js';
import type { BullMQJobQueueOptions } from './options.js';

const REDIS_URL = 'redis://127.0.0.1:6379';

async function withQueue(options: Partial<BullMQJobQueueOptions>, fn: (queue: BullMQJobQueue) => Promise<void>): Promise<void> {
  const queue = new BullMQJobQueue({
    redisUrl: REDIS_URL,
    queueName: `beh-${randomUUID().slice(0, 8)}`,
    prefix: 'pptest',
    backoffMs: 20,
    ...options,
  });
  try {
    await fn(queue);
  } finally {
    await queue.destroy();
  }
}

async function until(ok: () => Promise<boolean>): Promise<void> {
  const deadline = Date.now() + 5000;
  while (!(await ok()) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 10));
}

describe('BullMQJobQueue beyond the port', () => {
  it('a provider 429 pauses the worker and re-queues the job without using up its attempts', () =>
    withQueue({ rateLimitMs: 50, maxAttempts: 2 }, async (queue) => {
      const job = await queue.enqueue(newJobInput());
      let calls = 0;
      const runner = queue.start(async () => {
        calls += 1;
        if (calls <= 3) throw createError('PP_PROVIDER_RATE_LIMITED', 'slow down');
      });
      try {
        const done = await waitForJob(queue, job.job_id, (j) => j.state === 'succeeded' || j.state === 'failed');
        expect(done.state).toBe('succeeded');
        expect(calls).toBe(4);
      } finally {
        await runner.stop();
      }
    }));

  it('a retryable error that keeps failing ends failed after maxAttempts runs, with its code', () =>
    withQueue({ maxAttempts: 2 }, async (queue) => {
      const job = await queue.enqueue(newJobInput());
      const runner = queue.start(async () => {
        throw createError('PP_PROVIDER_UNAVAILABLE', 'embedding service is down');
      });
      try {
        const done = await waitForJob(queue, job.job_id, (j) => j.state === 'failed');
        expect(done).toMatchObject({
          attempts: 2,
          error_code: 'PP_PROVIDER_UNAVAILABLE',
          error_message: 'embedding service is down',
        });
      } finally {
        await runner.stop();
      }
    }));

  it('stop() past the drain timeout aborts the running job and puts it back in the queue for another worker', () =>
    withQueue({ drainTimeoutMs: 200 }, async (queue) => {
      const job = await queue.enqueue(newJobInput());
      const first = queue.start(async (_j, ctx) => {
        await ctx.progress({ stage: 'parsing', percent: 1 });
        await new Promise((resolve) => ctx.signal.addEventListener('abort', resolve, { once: true }));
        throw createError('PP_JOB_CANCELLED', 'aborted');
      });
      await waitForJob(queue, job.job_id, (j) => j.stage === 'parsing');
      await first.stop();
      expect((await queue.get(job.job_id))?.state).toBe('queued');
      const second = queue.start(async () => {});
      try {
        expect(await waitForJob(queue, job.job_id, (j) => j.state === 'succeeded')).toMatchObject({ attempts: 2 });
      } finally {
        await second.stop();
      }
    }));
  it('an unreadable job event is reported with its channel and text, and the next event still arrives', async () => {
    const errors: Error[] = [];
    const queueName = `beh-${randomUUID().slice(0, 8)}`;
    await withQueue({ queueName, onError: (err) => errors.push(err) }, async (queue) => {
      const seen: string[] = [];
      const off = queue.subscribe((job) => seen.push(job.job_id));
      const publisher = new Redis(REDIS_URL);
      try {
        const channel = `pptest:${queueName}:pp:events`;
        await until(async () => (await publisher.pubsub('NUMSUB', channel))[1] === 1);
        await publisher.publish(channel, '{"job_id": truncated');
        const job = await queue.enqueue(newJobInput());
        await until(async () => seen.includes(job.job_id));
        expect(errors.map((e) => e.message)).toEqual([`Unreadable job event on ${channel}: {"job_id": truncated`]);
        expect(seen).toEqual([job.job_id]);
      } finally {
        off();
        publisher.disconnect();
      }
    });
  });
});
