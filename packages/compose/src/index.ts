export { openDistributedAccessStore, openEmbeddedAccessStore, openMetadataStore } from './access.js';
export type { DistributedPortsConfig } from './distributed.js';
export { openDistributedPorts } from './distributed.js';
export { openEmbeddedPorts } from './embedded.js';
export type { BlobsConfig } from './env-config.js';
export {
  answerEnvShape,
  blobsFromEnv,
  deepFreeze,
  distributedEnvShape,
  envBool,
  gateFromEnv,
  parseConfigFromEnv,
  parseEnv,
  parseEnvShape,
} from './env-config.js';
export type { ModelPorts } from './models.js';
export { createModelPorts } from './models.js';
export type { ModelsConfig } from './models-config.js';
export { embedderEnvShape, embedderFromEnv, modelsEnvShape, modelsFromEnv, vectorsEnvShape } from './models-config.js';
