import type { JobProcessor } from '@pinpoint/core';
import { toPinpointError } from '@pinpoint/core';
import { createEngine } from '@pinpoint/engine';
import type { WorkerConfig } from './config.js';
import { openDistributedPorts } from './distributed-ports.js';

export type WorkerLog = (event: string, fields?: Record<string, unknown>) => void;

export interface RunningWorker {
  /** Stops taking jobs, lets the running ones finish (or releases them after the drain timeout), closes every port. */
  stop(): Promise<void>;
}

/** The engine's processor with one log line per job start and end (what an operator greps for). */
function logged(process: JobProcessor, log: WorkerLog): JobProcessor {
  return async (job, ctx) => {
    const started = performance.now();
    log('job-started', { job_id: job.job_id, version_id: job.version_id, file: job.file, attempt: ctx.attempt });
    try {
      await process(job, ctx);
      log('job-finished', { job_id: job.job_id, ms: Math.round(performance.now() - started) });
    } catch (err) {
      const e = toPinpointError(err);
      log('job-failed', { job_id: job.job_id, code: e.code, message: e.message, retryable: e.retryable });
      throw err;
    }
  };
}

/** Runs the same ingestion processor as the embedded mode, fed by BullMQ. */
export async function startWorker(config: WorkerConfig, log: WorkerLog): Promise<RunningWorker> {
  const ports = await openDistributedPorts(config, (err) => log('redis-error', { message: err.message }));
  const engine = createEngine(config.engine, ports, { log });
  const runner = ports.queue.start(logged(engine.process, log), { concurrency: config.queue.concurrency });
  log('worker-started', { queue: config.queue.name, concurrency: config.queue.concurrency, pid: process.pid });
  let stopping: Promise<void> | null = null;
  return {
    stop: () => {
      stopping ??= runner
        .stop()
        .then(() => engine.close())
        .then(() => log('worker-stopped'));
      return stopping;
    },
  };
}
