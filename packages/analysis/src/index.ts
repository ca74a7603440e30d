export type { Analyzer, AnalyzerOptions } from './analyze.js';
export { ANALYZER_ID, analyze, createAnalyzer, DEFAULT_ANALYZER_OPTIONS, normalizeForIndex, termKind } from './analyze.js';
export type { FinanceExpansion, FinanceGroupMention, FinanceLanguage, FinanceMeasure } from './finance-lexicon.js';
export {
  expandFinanceTerms,
  FINANCE_EXPANSION_WEIGHTS,
  financeGroupNames,
  financeGroupStatement,
  financeGroupsIn,
  financeMeasures,
} from './finance-lexicon.js';
export type { FinanceTermGroup } from './finance-terms.js';
export { FINANCE_TERM_GROUPS } from './finance-terms.js';
export { foldHan } from './fold.js';
export { hanDigit, parseHanNumeral } from './han-numerals.js';
export type { HeaderScale } from './header-scale.js';
export { headerScale } from './header-scale.js';
export { isStopWord } from './latin.js';
export type { NumberMention } from './number-mentions.js';
export { findNumbersAsWritten } from './number-mentions.js';
export { englishScale, hanScale } from './number-units.js';
export { bestPeriodMatch, PERIOD_SCORES, periodsMatch } from './period-match.js';
export type { Period, PeriodKind, PeriodMention } from './periods.js';
export { findPeriods, fiscalYearOf, principalPeriod } from './periods.js';
export { hasKana, isCjkCodepoint } from './scripts.js';
export type { SentenceRange } from './sentences.js';
export { splitSentences } from './sentences.js';
export type { WrittenNumber } from './written-numbers.js';
export { parseNumberAsWritten } from './written-numbers.js';
