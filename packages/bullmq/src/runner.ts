import type { Job, JobContext, JobProcessor, JobProgress } from '@pinpoint/core';
import { createError, toPinpointError } from '@pinpoint/core';
import type { Job as BullJob } from 'bullmq';
import { DelayedError, UnrecoverableError, Worker } from 'bullmq';
import type { Redis } from 'ioredis';
import type { JobMirror } from './job-mirror.js';
import type { ResolvedOptions } from './options.js';

export interface JobData {
  /** The job as enqueued; the mirror holds its current view. */
  job: Job;
  /** Runs before this enqueue (a retried job keeps counting). */
  attempts_before: number;
}

interface RunnerDeps {
  options: ResolvedOptions;
  mirror: JobMirror;
  concurrency: number;
  connection: Redis;
  subscriber: Redis;
}

const SHUTDOWN = 'pinpoint:shutdown';

/** One BullMQ worker running `processor`; cancel notices arrive over pub/sub and a polled flag. */
export function startRunner(processor: JobProcessor, deps: RunnerDeps) {
  const { options, mirror } = deps;
  let shuttingDown = false;
  const worker: Worker<JobData> = new Worker<JobData>(
    options.queueName,
    (bullJob, token, signal) =>
      runJob({
        bullJob,
        token,
        signal: signal ?? new AbortController().signal,
        processor,
        deps,
        worker,
        isShuttingDown: () => shuttingDown,
      }),
    {
      connection: deps.connection,
      prefix: options.prefix,
      concurrency: deps.concurrency,
      lockDuration: options.lockDurationMs,
      stalledInterval: options.stalledIntervalMs,
      maxStalledCount: options.maxStalledCount,
    },
  );
  worker.on('error', (err) => options.onError(err));
  worker.on('failed', (bullJob, err) => void recordOutsideFailure(mirror, options, bullJob, err));
  deps.subscriber.on('message', (_channel: string, jobId: string) => worker.cancelJob(jobId, 'cancelled'));
  void deps.subscriber.subscribe(mirror.cancelChannel);

  return {
    async stop(): Promise<void> {
      const timer = setTimeout(() => {
        shuttingDown = true;
        worker.cancelAllJobs(SHUTDOWN);
      }, options.drainTimeoutMs);
      try {
        await worker.close();
      } finally {
        clearTimeout(timer);
        deps.subscriber.disconnect();
        await deps.connection.quit().catch(() => undefined);
      }
    },
  };
}

interface RunArgs {
  bullJob: BullJob<JobData>;
  token: string | undefined;
  signal: AbortSignal;
  processor: JobProcessor;
  deps: RunnerDeps;
  worker: Worker<JobData>;
  isShuttingDown: () => boolean;
}

async function runJob(args: RunArgs): Promise<void> {
  const { bullJob, deps, signal } = args;
  const { mirror, options } = deps;
  const jobId = bullJob.id ?? bullJob.data.job.job_id;
  const current = (await mirror.get(jobId)) ?? bullJob.data.job;
  let view: Job = {
    ...current,
    state: 'running',
    attempts: bullJob.data.attempts_before + bullJob.attemptsStarted,
    started_at: current.started_at ?? new Date().toISOString(),
  };
  if (await mirror.isCancelRequested(jobId)) return settle(deps, { ...view, state: 'cancelled' }, 'cancelled');
  await mirror.put(view);
  const poll = setInterval(() => {
    void mirror.isCancelRequested(jobId).then(
      (yes) => yes && args.worker.cancelJob(jobId, 'cancelled'),
      () => undefined,
    );
  }, options.cancelPollMs);
  const ctx: JobContext = {
    signal,
    attempt: bullJob.attemptsMade + 1,
    progress: async (p: JobProgress) => {
      view = { ...view, stage: p.stage, progress: Math.max(0, Math.min(100, Math.round(p.percent))) };
      await Promise.all([bullJob.updateProgress({ stage: p.stage, percent: view.progress }), mirror.put(view)]);
    },
  };
  try {
    await args.processor(view, ctx);
  } catch (err) {
    clearInterval(poll);
    return onProcessorError(args, view, err);
  }
  clearInterval(poll);
  if (await mirror.isCancelRequested(jobId)) return settle(deps, view, 'cancelled');
  await settle(deps, { ...view, stage: 'done', progress: 100, error_code: null, error_message: null }, 'succeeded');
}

async function onProcessorError(args: RunArgs, view: Job, err: unknown): Promise<void> {
  const { bullJob, deps, token } = args;
  const { mirror, options } = deps;
  const error = toPinpointError(err);
  const cancelRequested = await mirror.isCancelRequested(view.job_id);
  if (!cancelRequested && args.isShuttingDown() && args.signal.aborted && token) {
    // Aborted by a drain timeout, not by a person: back to the queue, no attempt used.
    await mirror.put({ ...view, state: 'queued' });
    await bullJob.moveToDelayed(Date.now() + 100, token);
    throw new DelayedError('released on shutdown');
  }
  if (cancelRequested || error.code === 'PP_JOB_CANCELLED') return settle(deps, view, 'cancelled');
  const failed = { ...view, error_code: error.code, error_message: error.message };
  if (error.code === 'PP_PROVIDER_RATE_LIMITED') {
    await mirror.put({ ...failed, state: 'queued' });
    await args.worker.rateLimit(options.rateLimitMs);
    throw Worker.RateLimitError();
  }
  if (error.retryable && bullJob.attemptsMade + 1 < options.maxAttempts) {
    await mirror.put({ ...failed, state: 'queued' });
    throw new Error(`${error.code}: ${error.message}`);
  }
  await settle(deps, failed, 'failed');
}

/** Records the final state, runs the settle hook, and ends the BullMQ job accordingly. */
async function settle(deps: RunnerDeps, view: Job, state: 'succeeded' | 'failed' | 'cancelled'): Promise<void> {
  const job = await deps.mirror.put({ ...view, state, finished_at: new Date().toISOString() });
  await deps.options.onSettled?.(job);
  if (state === 'failed') throw new UnrecoverableError(`${job.error_code}: ${job.error_message}`);
  if (state === 'cancelled')
    throw new UnrecoverableError(`${createError('PP_JOB_CANCELLED', 'cancelled').code}: the job was cancelled`);
}

/** Failures BullMQ decides without our processor (a job that stalled too often): mirror them. */
async function recordOutsideFailure(
  mirror: JobMirror,
  options: ResolvedOptions,
  bullJob: BullJob<JobData> | undefined,
  err: Error,
) {
  if (!bullJob?.id) return;
  const job = await mirror.get(bullJob.id).catch(() => null);
  if (job?.state !== 'running') return;
  const message = /stalled/i.test(err.message)
    ? `The worker running this job died ${options.maxStalledCount + 1} times (killed or out of memory); retry it once the cause is fixed.`
    : err.message;
  const failed: Job = {
    ...job,
    state: 'failed',
    error_code: 'PP_INTERNAL',
    error_message: message,
    finished_at: new Date().toISOString(),
  };
  await mirror.put(failed).catch((e: Error) => options.onError(e));
  await options.onSettled?.(failed)?.catch((e: Error) => options.onError(e));
}
