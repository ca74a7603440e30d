export { openEmbeddedEngine } from './embedded.js';
export { createEvalEngine } from './eval.js';
export type { IngestLine } from './ingest.js';
export { ingestFiles } from './ingest.js';
export type { TableLine } from './tables.js';
export { humanTable, tablesOf } from './tables.js';
