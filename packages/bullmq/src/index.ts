export { BullMQJobQueue } from './bullmq-job-queue.js';
export type { BullMQJobQueueOptions } from './options.js';
