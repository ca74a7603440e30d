import type { Job } from '@pinpoint/core';

export interface BullMQJobQueueOptions {
  /** redis://host:port/db */
  redisUrl: string;
  /** BullMQ queue name (tests use a unique one each). */
  queueName?: string;
  /** Key prefix of every key this queue writes. */
  prefix?: string;
  /** Runs per job, the first included, for retryable errors. */
  maxAttempts?: number;
  /** First retry delay; doubles each attempt (exponential backoff). */
  backoffMs?: number;
  /** How long a worker's lock on a job lasts without renewal; a dead worker's job is recovered after it. */
  lockDurationMs?: number;
  /** How often workers look for stalled jobs (locks that expired). */
  stalledIntervalMs?: number;
  /** How many times a job may stall (its worker died) before it fails. */
  maxStalledCount?: number;
  /** How long the whole worker pauses when a provider answers 429. */
  rateLimitMs?: number;
  /** How long stop() waits for running jobs before aborting them and releasing them to the queue. */
  drainTimeoutMs?: number;
  /** How often a running job re-checks the durable cancel flag (besides the pub/sub notice). */
  cancelPollMs?: number;
  /**
   * Called once a job reaches a final state (succeeded, failed, cancelled), in the process that
   * settled it. The composition root uses it to mark the version and, on cancel, to delete what
   * the version had indexed so far.
   */
  onSettled?: (job: Job) => Promise<void>;
  /**
   * Connection and worker errors that do not belong to a job, and job events that cannot be read
   * (logged by the service; default: one line on stderr).
   */
  onError?: (err: Error) => void;
}

export type ResolvedOptions = Required<Omit<BullMQJobQueueOptions, 'onSettled'>> & Pick<BullMQJobQueueOptions, 'onSettled'>;

const logToStderr = (err: Error): void => {
  process.stderr.write(`pinpoint: job queue: ${err.message}\n`);
};

export function resolveOptions(options: BullMQJobQueueOptions): ResolvedOptions {
  return {
    queueName: 'pinpoint-ingest',
    prefix: 'pp',
    maxAttempts: 3,
    backoffMs: 1000,
    lockDurationMs: 30_000,
    stalledIntervalMs: 15_000,
    maxStalledCount: 3,
    rateLimitMs: 30_000,
    drainTimeoutMs: 60_000,
    cancelPollMs: 1000,
    ...options,
    onError: options.onError ?? logToStderr,
  };
}
