import type { Job, JobFilter, JobProcessor, JobQueue, JobRunner, NewJob } from '@pinpoint/core';
import { createError, jobIdFor, jobSchema } from '@pinpoint/core';
import { Queue } from 'bullmq';
import { Redis } from 'ioredis';
import { isFinal, JobMirror } from './job-mirror.js';
import type { BullMQJobQueueOptions, ResolvedOptions } from './options.js';
import { resolveOptions } from './options.js';
import type { JobData } from './runner.js';
import { startRunner } from './runner.js';

function connect(redisUrl: string, onError: (err: Error) => void): Redis {
  const redis = new Redis(redisUrl, { maxRetriesPerRequest: null, enableReadyCheck: true });
  redis.on('error', (err) => onError(err));
  return redis;
}

/** A job event as published by the mirror; anything else is reported, never thrown into the Redis client. */
function readJobEvent(channel: string, message: string, onError: (err: Error) => void): Job | null {
  try {
    return jobSchema.parse(JSON.parse(message));
  } catch (err) {
    onError(createError('PP_INTERNAL', `Unreadable job event on ${channel}: ${message.slice(0, 200)}`, err));
    return null;
  }
}

/**
 * The JobQueue port on BullMQ + Redis: the same job id from version + recipe, retries with
 * exponential backoff for retryable errors, UnrecoverableError for the others, rate-limit pauses,
 * stalled-job recovery, cross-process cancel, and a mirror of every job for the admin view.
 */
export class BullMQJobQueue implements JobQueue {
  private readonly options: ResolvedOptions;
  private readonly redis: Redis;
  private readonly queue: Queue<JobData>;
  private readonly mirror: JobMirror;
  private readonly runners = new Set<JobRunner>();
  private readonly listeners = new Set<(job: Job) => void>();
  private subscriber: Redis | null = null;

  constructor(options: BullMQJobQueueOptions) {
    this.options = resolveOptions(options);
    this.redis = connect(this.options.redisUrl, this.options.onError);
    this.queue = new Queue<JobData>(this.options.queueName, { connection: this.redis, prefix: this.options.prefix });
    this.queue.on('error', (err) => this.options.onError(err));
    this.mirror = new JobMirror(this.redis, this.options.prefix, this.options.queueName);
  }

  async enqueue(input: NewJob): Promise<Job> {
    const jobId = jobIdFor(input.version_id, input.recipe_key);
    const existing = await this.mirror.get(jobId);
    if (existing) return existing;
    const job: Job = {
      job_id: jobId,
      version_id: input.version_id,
      document_id: input.document_id,
      collection_id: input.collection_id,
      file: input.file,
      state: 'queued',
      stage: 'queued',
      progress: 0,
      attempts: 0,
      error_code: null,
      error_message: null,
      created_at: new Date().toISOString(),
      started_at: null,
      finished_at: null,
    };
    await this.add(job, 0);
    return this.mirror.create(job);
  }

  get(jobId: string): Promise<Job | null> {
    return this.mirror.get(jobId);
  }

  list(filter?: JobFilter): Promise<Job[]> {
    return this.mirror.list(filter);
  }

  async cancel(jobId: string): Promise<Job> {
    const job = await this.mustGet(jobId);
    if (isFinal(job))
      throw createError('PP_CONFLICT', `Job ${jobId} is already ${job.state}; only queued or running jobs can be cancelled.`);
    await this.mirror.requestCancel(jobId);
    const bullJob = await this.queue.getJob(jobId);
    if (bullJob) {
      const state = await bullJob.getState();
      if (state === 'active') return job;
      const removed = await bullJob.remove().then(
        () => true,
        () => false,
      );
      if (!removed) return job;
    }
    const cancelled = await this.mirror.put({ ...job, state: 'cancelled', finished_at: new Date().toISOString() });
    await this.options.onSettled?.(cancelled);
    return cancelled;
  }

  async retry(jobId: string): Promise<Job> {
    const job = await this.mustGet(jobId);
    if (job.state !== 'failed' && job.state !== 'cancelled') {
      throw createError('PP_CONFLICT', `Job ${jobId} is ${job.state}; only failed or cancelled jobs can be retried.`);
    }
    await this.mirror.clearCancel(jobId);
    await this.queue.remove(jobId).catch(() => 0);
    const queued: Job = {
      ...job,
      state: 'queued',
      stage: 'queued',
      progress: 0,
      error_code: null,
      error_message: null,
      finished_at: null,
    };
    await this.mirror.put(queued);
    await this.add(queued, job.attempts);
    return queued;
  }

  start(processor: JobProcessor, options?: { concurrency?: number }): JobRunner {
    const runner = startRunner(processor, {
      options: this.options,
      mirror: this.mirror,
      concurrency: options?.concurrency ?? 1,
      subscriber: connect(this.options.redisUrl, this.options.onError),
      connection: connect(this.options.redisUrl, this.options.onError),
    });
    const handle: JobRunner = {
      stop: async () => {
        this.runners.delete(handle);
        await runner.stop();
      },
    };
    this.runners.add(handle);
    return handle;
  }

  subscribe(listener: (job: Job) => void): () => void {
    this.listeners.add(listener);
    if (!this.subscriber) {
      const sub = connect(this.options.redisUrl, this.options.onError);
      sub.on('message', (channel: string, message: string) => {
        const job = readJobEvent(channel, message, this.options.onError);
        if (job) for (const l of this.listeners) l(job);
      });
      void sub.subscribe(this.mirror.eventsChannel);
      this.subscriber = sub;
    }
    return () => {
      this.listeners.delete(listener);
    };
  }

  async close(): Promise<void> {
    await Promise.all([...this.runners].map((r) => r.stop()));
    this.subscriber?.disconnect();
    await this.queue.close();
    await this.redis.quit().catch(() => undefined);
  }

  /** Bytes Redis holds for this queue (BullMQ's keys and the mirror's, by MEMORY USAGE): for capacity planning. */
  async memoryBytes(): Promise<number> {
    let total = 0;
    let cursor = '0';
    do {
      const [next, keys] = await this.redis.scan(
        cursor,
        'MATCH',
        `${this.options.prefix}:${this.options.queueName}:*`,
        'COUNT',
        500,
      );
      for (const key of keys) total += (await this.redis.memory('USAGE', key)) ?? 0;
      cursor = next;
    } while (cursor !== '0');
    return total;
  }

  /** Removes every key of this queue: BullMQ's and the mirror's (tests, throw-away deployments). */
  async destroy(): Promise<void> {
    await this.queue.obliterate({ force: true });
    await this.mirror.destroy();
    await this.close();
  }

  private async add(job: Job, attemptsBefore: number): Promise<void> {
    const data: JobData = { job, attempts_before: attemptsBefore };
    await this.queue.add('ingest', data, {
      jobId: job.job_id,
      attempts: this.options.maxAttempts,
      backoff: { type: 'exponential', delay: this.options.backoffMs },
      removeOnComplete: true,
      removeOnFail: true,
    });
  }

  private async mustGet(jobId: string): Promise<Job> {
    const job = await this.mirror.get(jobId);
    if (!job) throw createError('PP_NOT_FOUND', `Job ${jobId} does not exist.`);
    return job;
  }
}
