import { randomUUID } from 'node:crypto';
import { describeJobQueueConformance } from '@pinpoint/conformance';
import { BullMQJobQueue } from './bullmq-job-queue.js';

const REDIS_URL = 'redis://127.0.0.1:6379';

describeJobQueueConformance('BullMQJobQueue', async () => {
  const queue = new BullMQJobQueue({
    redisUrl: REDIS_URL,
    queueName: `conf-${randomUUID().slice(0, 8)}`,
    prefix: 'pptest',
    backoffMs: 20,
    cancelPollMs: 100,
    drainTimeoutMs: 5000,
  });
  return { port: queue, dispose: () => queue.destroy() };
});
