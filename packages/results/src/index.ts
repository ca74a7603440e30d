export { benchmarksPage } from './benchmarks-page.js';
export type { MachineInfo } from './machine.js';
export { type Column, type Format, formatValue, metric, renderPage, type Section } from './page.js';
export { commandLine, defaultResultsDir, type RecordOptions, type ResultFile, readResults, recordResult } from './record.js';
export { sections } from './sections.js';
