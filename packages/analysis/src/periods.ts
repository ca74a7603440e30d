import { normalizeKeepingPositions, sourceSpan } from './nfkc-positions.js';
import { CJK_PERIOD_PATTERNS } from './period-patterns-cjk.js';
import { ENGLISH_PERIOD_PATTERNS } from './period-patterns-en.js';
import type { FoundPeriod, PeriodMention, PeriodPattern } from './period-types.js';

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
  for (let order = 0; order < PATTERNS.length; order++) {
    const pattern = PATTERNS[order] as PeriodPattern;
    if (!pattern.gate.test(norm.text)) continue;
    const re = pattern.re;
    re.lastIndex = 0;
    for (let m = re.exec(norm.text); m !== null; m = re.exec(norm.text)) {
      if (m[0].length === 0) re.lastIndex++;
      for (const found of pattern.build(m)) if (found.end > found.start) candidates.push(Object.assign(found, { order }));
    }
  }
  if (candidates.length === 0) return [];
  const chosen = pickLongest(candidates, norm.text.length);
  const cps = Array.from(text);
  return chosen.map(({ period, start, end }) => {
    const span = sourceSpan(norm, start, end);
    return { ...period, span, text: cps.slice(span[0], span[1]).join('') };
  });
}

/** Longest first (earlier pattern on a tie), skipping any that overlaps one already taken; returned in text order. */
function pickLongest(candidates: Candidate[], length: number): Candidate[] {
  const sorted = [...candidates].sort((a, b) => b.end - b.start - (a.end - a.start) || a.order - b.order || a.start - b.start);
  // Positions already covered: a candidate is checked over its own span only, so a long text
  // with thousands of periods stays linear.
  const covered = new Uint8Array(length);
  const taken: Candidate[] = [];
  for (const c of sorted) {
    if (covered.subarray(c.start, c.end).includes(1)) continue;
    covered.fill(1, c.start, c.end);
    taken.push(c);
  }
  return taken.sort((a, b) => a.start - b.start);
}

/** How much a mention says about what a whole document covers (higher first). */
function coverRank(p: PeriodMention): number {
  if (p.kind === 'term' || p.kind === 'date') return 0;
  if (p.weak) return 1;
  if (p.kind === 'calendar-year') return 2;
  if (p.kind === 'months-ended') return p.end === undefined ? 0 : 3;
  return p.end !== undefined && p.fiscal_year !== undefined ? 5 : p.end !== undefined || p.fiscal_year !== undefined ? 4 : 0;
}

/**
 * The period a cover page, title or file name is about: the first of its most telling mentions —
 * a fiscal year, quarter or half with its end ("fiscal year ended June 30, 2023", 2023年3月期),
 * then one with a label or an end, then a 9-month period, a calendar year, a bare year. Dates and
 * business terms alone do not make one. Undefined when nothing qualifies.
 */
export function principalPeriod(mentions: readonly PeriodMention[]): PeriodMention | undefined {
  let best: PeriodMention | undefined;
  for (const p of mentions) if (coverRank(p) > 0 && (best === undefined || coverRank(p) > coverRank(best))) best = p;
  return best;
}

export type { Period, PeriodKind, PeriodMention } from './period-types.js';
export { fiscalYearOf } from './period-types.js';
