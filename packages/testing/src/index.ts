export type { AnswerFn, FakeServer } from './provider-fakes.js';
export { startFakeGemini, startFakeOllama } from './provider-fakes.js';
export type { FakeQdrant } from './qdrant-fake.js';
export { startFakeQdrant } from './qdrant-fake.js';
export type { FakeS3 } from './s3-fake.js';
export { startFakeS3 } from './s3-fake.js';
export { writeTinyCrossEncoder, writeTinyEncoder } from './tiny-onnx.js';
export { until } from './until.js';
