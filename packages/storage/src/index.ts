export { SqliteAccessStore } from './access-store.js';
export { FsBlobStore } from './blob-store.js';
export type { SqliteJobQueueOptions } from './job-queue.js';
export { SqliteJobQueue } from './job-queue.js';
export { SqliteMetadataStore } from './metadata-store.js';
