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
