import type { AccessStore } from '@pinpoint/core';
import type { FastifyInstance } from 'fastify';

const DAY_MS = 24 * 60 * 60 * 1000;
const SWEEP_MS = 60 * 60 * 1000;

/**
 * Deletes question history older than `days` (with its feedback) when the server is ready and hourly
 * after; 0 keeps history forever. A failed sweep is logged and tried again at the next hour.
 */
export function installHistoryRetention(
  app: FastifyInstance,
  access: AccessStore,
  days: number,
  clock: { sweepMs: number; now: () => number } = { sweepMs: SWEEP_MS, now: Date.now },
): void {
  if (days <= 0) return;
  const sweep = async () => {
    try {
      const removed = await access.pruneHistory(new Date(clock.now() - days * DAY_MS).toISOString());
      if (removed > 0) app.log.info({ removed, retention_days: days }, 'question history pruned');
    } catch (err) {
      app.log.error({ err }, 'question history pruning failed');
    }
  };
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> = Promise.resolve();
  app.addHook('onReady', async () => {
    running = sweep();
    timer = setInterval(() => {
      running = running.then(sweep);
    }, clock.sweepMs);
    timer.unref();
  });
  app.addHook('onClose', async () => {
    clearInterval(timer);
    await running;
  });
}
