export { describeAccessStoreConformance } from './access-store.js';
export { describeBlobStoreConformance } from './blob-store.js';
export type { PortFactory, PortFixture } from './fixture.js';
export { freePort } from './free-port.js';
export { describeJobQueueConformance, newJobInput, waitForJob } from './job-queue.js';
export { describeLexicalIndexConformance } from './lexical-index.js';
export { describeMetadataStoreConformance } from './metadata-store.js';
