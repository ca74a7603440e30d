export { SqliteAccessStore } from './access-store.js';
export { FsBlobStore } from './blob-store.js';
export type { SqliteJobQueueOptions } from './job-queue.js';
export { SqliteJobQueue } from './job-queue.js';
export type { StuckJob } from './job-recovery.js';
export { releaseAllLeases, requeueStuckJobs, stuckJobs } from './job-recovery.js';
export { SqliteMetadataStore } from './metadata-store.js';
export { integrityProblems, PinnedSnapshots } from './snapshot.js';
