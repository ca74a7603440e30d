export type { UploadResult } from '@pinpoint/core';
export type { SpooledFile } from './artifacts.js';
export { blobKeyFor } from './artifacts.js';
export type { CitationRef } from './citations.js';
export type { EngineConfig, EnginePorts } from './config.js';
export { defaultEngineConfig } from './config.js';
export type { Engine } from './engine.js';
export { createEngine } from './engine.js';
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
export type { GateCalibration } from './gate-file.js';
export { gateMismatch, loadGateFile } from './gate-file.js';
export type { GuardedEngine, ReadableCollection } from './guarded.js';
export { createGuardedEngine } from './guarded.js';
export type { Identity, Session } from './identity.js';
export { createIdentity, principalOf } from './identity.js';
export type { ModelPorts } from './models.js';
export { createModelPorts } from './models.js';
export type { ModelsConfig } from './models-config.js';
export { embedderEnvShape, embedderFromEnv, modelsEnvShape, modelsFromEnv, vectorsEnvShape } from './models-config.js';
export { hashPassword, MIN_PASSWORD_LENGTH, verifyPassword } from './passwords.js';
export type { Answer, AskEvent, QueryFilters, QueryOptions, SearchResponse } from './query.js';
export type { UploadFile } from './upload.js';
export type { DownloadGrant } from './url-signer.js';
export { signerId, signingSecretIn, UrlSigner } from './url-signer.js';
