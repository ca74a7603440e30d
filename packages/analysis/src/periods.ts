import { normalizeKeepingPositions, sourceSpan } from './nfkc-positions.js';
import { CJK_PERIOD_PATTERNS } from './period-patterns-cjk.js';
import { ENGLISH_PERIOD_PATTERNS } from './period-patterns-en.js';
import type { FoundPeriod, PeriodMention } from './period-types.js';

/**
 * Period expressions in English, Japanese and Chinese, found and normalised: the same function
 * reads document text, cover pages, file names (3M_2018_10K.pdf, AMCOR_2023Q4_EARNINGS.pdf) and
 * questions. See period-types.ts for the fiscal-year label rule.
 */
const PATTERNS = [...CJK_PERIOD_PATTERNS, ...ENGLISH_PERIOD_PATTERNS];

interface Candidate extends FoundPeriod {
  order: number;
}

/** Every period in `text`, in text order, not overlapping: where forms overlap the longest wins. */
export function findPeriods(text: string): PeriodMention[] {
  const norm = normalizeKeepingPositions(text);
  const candidates: Candidate[] = [];
  PATTERNS.forEach((pattern, order) => {
    pattern.re.lastIndex = 0;
    for (const m of norm.text.matchAll(pattern.re)) {
      for (const found of pattern.build(m)) if (found.end > found.start) candidates.push({ ...found, order });
    }
  });
  const chosen = pickLongest(candidates);
  const cps = Array.from(text);
  return chosen.map(({ period, start, end }) => {
    const span = sourceSpan(norm, start, end);
    return { ...period, span, text: cps.slice(span[0], span[1]).join('') };
  });
}

/** Longest first (earlier pattern on a tie), skipping any that overlaps one already taken; returned in text order. */
function pickLongest(candidates: Candidate[]): Candidate[] {
  const sorted = [...candidates].sort((a, b) => b.end - b.start - (a.end - a.start) || a.order - b.order || a.start - b.start);
  const taken: Candidate[] = [];
  for (const c of sorted) {
    if (taken.every((t) => c.end <= t.start || c.start >= t.end)) taken.push(c);
  }
  return taken.sort((a, b) => a.start - b.start);
}

export type { Period, PeriodKind, PeriodMention } from './period-types.js';
export { fiscalYearOf } from './period-types.js';
