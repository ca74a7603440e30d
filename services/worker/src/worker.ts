import { createEngine } from '@pinpoint/engine';
import type { WorkerConfig } from './config.js';
import { openDistributedPorts } from './distributed-ports.js';

export interface RunningWorker {
  /** Stops taking jobs, lets the running ones finish (or releases them after the drain timeout), closes every port. */
  stop(): Promise<void>;
}

/** Runs the same ingestion processor as the embedded mode, fed by BullMQ. */
export async function startWorker(
  config: WorkerConfig,
  log: (event: string, fields?: Record<string, unknown>) => void,
): Promise<RunningWorker> {
  const ports = await openDistributedPorts(config, (err) => log('redis-error', { message: err.message }));
  const engine = createEngine(config.engine, ports);
  engine.startWorker({ concurrency: config.queue.concurrency });
  log('worker-started', { queue: config.queue.name, concurrency: config.queue.concurrency, pid: process.pid });
  let stopping: Promise<void> | null = null;
  return {
    stop: () => {
      stopping ??= engine.close().then(() => log('worker-stopped'));
      return stopping;
    },
  };
}
