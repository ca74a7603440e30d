export type { Analyzer, AnalyzerOptions } from './analyze.js';
export { ANALYZER_ID, analyze, createAnalyzer, DEFAULT_ANALYZER_OPTIONS, normalizeForIndex, termKind } from './analyze.js';
export { parseHanNumeral } from './han-numerals.js';
export { PERIOD_SCORES, periodsMatch } from './period-match.js';
export type { Period, PeriodKind, PeriodMention } from './periods.js';
export { findPeriods, fiscalYearOf } from './periods.js';
export { hasKana, isCjkCodepoint } from './scripts.js';
export type { SentenceRange } from './sentences.js';
export { splitSentences } from './sentences.js';
