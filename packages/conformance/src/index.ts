export { describeBlobStoreConformance } from './blob-store.js';
export { embedderConformance } from './embedder.js';
export type { PortFactory, PortFixture } from './fixture.js';
export { describeJobQueueConformance, newJobInput, waitForJob } from './job-queue.js';
export { describeLexicalIndexConformance } from './lexical-index.js';
export { describeMetadataStoreConformance } from './metadata-store.js';
export { generatorConformance, rerankerConformance } from './providers.js';
export { vectorStoreConformance } from './vector-store.js';
