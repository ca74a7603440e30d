export { loadCliConfig } from './config.js';
export { openEmbeddedEngine } from './embedded.js';
export { createEvalEngine } from './eval.js';
export type { IngestLine } from './ingest.js';
export { ingestFiles } from './ingest.js';
export type { VerifyReport } from './verify.js';
export { verifyDataFolder } from './verify.js';
