export type { Analyzer, AnalyzerOptions } from './analyze.js';
export { ANALYZER_ID, analyze, createAnalyzer, DEFAULT_ANALYZER_OPTIONS, normalizeForIndex, termKind } from './analyze.js';
export { foldHan } from './fold.js';
export { hasKana, isCjkCodepoint } from './scripts.js';
export type { SentenceRange } from './sentences.js';
export { splitSentences } from './sentences.js';
