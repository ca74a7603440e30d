/**
 * Numeric accuracy: the number an answer states against a set's numeric gold, by the rule of
 * ../shared/tools/score_numeric.py (the reference; numeric.test.ts checks both agree on real sets).
 * The stated number is the answer's `value` when it has one, else the first number of its text;
 * gold and stated are equal within half a unit of the gold's last printed decimal or 0.5 %.
 */

const SCALES: Record<string, number> = {
  '': 1,
  none: 1,
  unit: 1,
  units: 1,
  thousand: 1e3,
  thousands: 1e3,
  million: 1e6,
  millions: 1e6,
  billion: 1e9,
  billions: 1e9,
  trillion: 1e12,
  trillions: 1e12,
};
const SUFFIX: Record<string, number> = {
  thousand: 1e3,
  thousands: 1e3,
  k: 1e3,
  "'000": 1e3,
  million: 1e6,
  millions: 1e6,
  mn: 1e6,
  mln: 1e6,
  mm: 1e6,
  m: 1e6,
  billion: 1e9,
  billions: 1e9,
  bn: 1e9,
  bln: 1e9,
  b: 1e9,
  trillion: 1e12,
  trillions: 1e12,
  tn: 1e12,
};
const MONTHS = String.raw`(?:january|february|march|april|may|june|july|august|september|october|november|december|jan|feb|mar|apr|jun|jul|aug|sep|sept|oct|nov|dec)\b\.?`;
const DOWN = /\b(decreas\w*|declin\w*|dropp?\w*|fell|fall\w*|lower\w*|down|reduc\w*|shr[iau]nk\w*|negative)\b/i;
const NUM = /(?<![\w.])(\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?|\.\d+)(?!\d)/g;
const CURRENCY = /(?:US\$|\$|€|£|¥|USD|EUR|GBP|RMB|HK\$|A\$|C\$)\s*$/i;
const QUESTION_UNIT = /\b(thousands|millions|billions)\b|\b(?:USD|dollars?)\s+(thousand|million|billion)s?\b/i;
const TEXT_UNIT =
  /\bin\s+(?:USD\s+|US\$\s*|\$\s*)?(thousands|millions|billions)\b|\(\s*(?:\$|USD)?\s*(?:in\s+)?(thousands|millions|billions)\s*\)|\$\s?'000/i;

interface Num {
  value: number;
  mult: number | undefined;
  pct: boolean;
  decimals: number;
  paren: boolean;
  skip: 'year' | 'date' | 'word' | 'note' | undefined;
}

/** A numeric question of a set (DESIGN.md §6 fields, plus TAT-QA's `value` and `scale`). */
export interface NumericQuestion {
  id: string;
  question: string;
  answerable: boolean;
  answers?: string[];
  reference_answer?: string;
  value?: number;
  scale?: string;
  question_type?: string;
  kind?: string;
}

/** What a run says of a question. */
export interface NumericAnswer {
  refused: boolean;
  answer: string;
  value?: { number: number; scale?: string | undefined } | undefined;
}

function prep(text: string): string {
  const s = String(text ?? '')
    .normalize('NFKC')
    .replace(/\u2212|\u2013/g, '-')
    .replace(/\u2014/g, ' \u2014 ')
    .replace(/\u00a0/g, ' ');
  return s.replace(/\[\d+(?:\s*,\s*\d+)*\]/g, ' ');
}

/** Every number of a text, in order, each with why it might not be the figure stated. */
function numbers(text: string): Num[] {
  const s = prep(text);
  const out: Num[] = [];
  for (const m of s.matchAll(NUM)) {
    const tok = m[1] as string;
    const at = m.index ?? 0;
    let v = Number(tok.replace(/,/g, ''));
    const before = s.slice(0, at);
    const after = s.slice(at + tok.length);
    const dec = tok.includes('.') ? (tok.split('.')[1]?.length ?? 0) : 0;
    const cur = CURRENCY.test(before.slice(-6));
    const neg = /(?:^|[\s(:=~/$\u2014])-(?:(?:US\$|\$|€|£|¥)\s?)?$/.test(before);
    const paren = /\(\s*(?:US\$|\$|€|£|¥)?\s*$/.test(before) && /^\s*\)/.test(after);
    let rest = after;
    const close = paren ? /^\s*\)/.exec(rest) : null;
    if (close) rest = rest.slice(close[0].length);
    const pct = /^\s*(%|percent\b|per cent\b|pct\b)/i.test(rest);
    let mult: number | undefined;
    let skip: Num['skip'];
    const ms = /^\s*('000|thousands?|millions?|billions?|trillions?|bn|bln|mn|mln|mm|tn)\b/i.exec(rest);
    const ml = /^([kKmMbB])(?!\w)/.exec(rest);
    if (!pct && ms) mult = SUFFIX[(ms[1] as string).toLowerCase()];
    else if (!pct && ml && (cur || tok.includes('.'))) mult = SUFFIX[(ml[1] as string).toLowerCase()];
    else if (/^[A-Za-z]/.test(rest) && !/^[x×](?![A-Za-z])/.test(rest)) skip = 'word';
    else if (/^-[A-Za-z]/.test(rest)) skip = 'word';
    else if (/[A-Za-z]-$/.test(before)) skip = 'word';
    const whole = !tok.includes(',') && !tok.includes('.');
    if (!skip && whole && paren && !cur && !pct && v <= 99 && (v <= 9 || /[A-Za-z)]\s*\(\s*$/.test(before))) skip = 'note';
    if (!skip && whole && /\b(?:note|notes|item|section|page|level|tier|phase)\s*$/i.test(before)) skip = 'note';
    if (!skip && whole && !pct && !cur && mult === undefined && !neg) {
      if (v >= 1900 && v <= 2100) skip = 'year';
      else if (v <= 31 && (new RegExp(`^\\s*${MONTHS}`, 'i').test(after) || new RegExp(`\\b${MONTHS}\\s*$`, 'i').test(before)))
        skip = 'date';
      else if (/^\/\d/.test(after) || /\d\/$/.test(before)) skip = 'date';
    }
    if (neg || (paren && skip !== 'year')) v = -v;
    out.push({ value: v, mult, pct, decimals: dec, paren: paren && !neg, skip });
  }
  return out;
}

function firstNumber(text: string, allowYears = false): Num | undefined {
  const ns = numbers(text);
  return ns.find((n) => n.skip === undefined || (allowYears && n.skip === 'year')) ?? ns.find((n) => n.skip === 'note');
}

const wholeIsNumber = (text: string): boolean => /^[(\-$€£¥\s]*\d[\d,]*(?:\.\d+)?[)%\s]*$/.test(prep(text).trim());

function goldIsYear(printed: string): boolean {
  const ns = numbers(printed);
  return wholeIsNumber(printed) && ns.length === 1 && ns[0]?.skip === 'year';
}

function unitOfQuestion(q: string): number | undefined {
  const m = QUESTION_UNIT.exec(q ?? '');
  return m ? SCALES[((m[1] ?? m[2]) as string).toLowerCase()] : undefined;
}

function textUnit(text: string): number | undefined {
  const m = TEXT_UNIT.exec(prep(text));
  if (!m) return undefined;
  const w = m[1] ?? m[2];
  return w ? SCALES[w.toLowerCase()] : 1e3;
}

/** The gold number in its own scale, or undefined when the gold is not a number. */
function goldOf(q: NumericQuestion): Num | undefined {
  const printed = q.answers?.[0] ?? q.reference_answer;
  const qscale = (q.scale ?? '').toLowerCase();
  if (typeof q.value === 'number') {
    const n = firstNumber(printed ?? String(q.value), true);
    const pct = qscale === 'percent';
    return {
      value: q.value,
      mult: pct ? 1 : (SCALES[qscale] ?? 1),
      pct,
      decimals: n?.decimals ?? 0,
      paren: false,
      skip: undefined,
    };
  }
  if (!printed) return undefined;
  const n = firstNumber(printed, wholeIsNumber(printed));
  if (!n) return undefined;
  if (qscale === 'percent') n.pct = true;
  if (n.mult === undefined && !n.pct) n.mult = qscale && SCALES[qscale] ? SCALES[qscale] : (unitOfQuestion(q.question) ?? 1);
  if (n.pct) n.mult = 1;
  return n;
}

function statedOf(a: NumericAnswer, allowYears: boolean): Num | undefined {
  const v = a.value;
  if (v && typeof v.number === 'number') {
    const sc = (v.scale ?? '').toLowerCase();
    const pct = sc === 'percent' || sc === '%' || sc === 'pct';
    return {
      value: v.number,
      mult: pct || sc === '' ? undefined : (SUFFIX[sc] ?? SCALES[sc]),
      pct,
      decimals: 0,
      paren: false,
      skip: undefined,
    };
  }
  return firstNumber(a.answer ?? '', allowYears);
}

function close(x: number, g: number, gold: Num): boolean {
  const tol = Math.max(0.5 * 10 ** -gold.decimals * (gold.mult ?? 1), 0.005 * Math.abs(g));
  return Math.abs(x - g) <= tol * (1 + 1e-9) + 1e-12;
}

function judge(q: NumericQuestion, gold: Num, s: Num, text: string): boolean {
  const g = gold.value * (gold.mult ?? 1);
  let cands: number[];
  if (gold.pct) cands = s.pct ? [s.value] : [s.value, s.value * 100];
  else if (s.pct) cands = [s.value * (gold.mult ?? 1), (s.value / 100) * (gold.mult ?? 1)];
  else if (s.mult !== undefined) cands = [s.value * s.mult];
  else {
    const mults = new Set([gold.mult ?? 1, 1]);
    for (const extra of [unitOfQuestion(q.question), textUnit(text)]) if (extra) mults.add(extra);
    cands = [...mults].map((m) => s.value * m);
  }
  if (cands.some((x) => close(x, g, gold))) return true;
  const words = [q.question ?? '', q.answers?.[0] ?? '', q.reference_answer ?? '', text ?? ''].join(' ');
  const flipped = cands.some((x) => close(Math.abs(x), Math.abs(g), gold)) && s.value < 0 !== g < 0;
  return flipped && (DOWN.test(words) || (s.paren && g > 0));
}

export interface NumericMetrics {
  numeric_questions: number;
  answered: number;
  correct: number;
  accuracy: number | null;
  precision: number | null;
}

const rates = (d: { numeric_questions: number; answered: number; correct: number }): NumericMetrics => ({
  ...d,
  accuracy: d.numeric_questions ? Math.round((d.correct / d.numeric_questions) * 1e4) / 1e4 : null,
  precision: d.answered ? Math.round((d.correct / d.answered) * 1e4) / 1e4 : null,
});

/**
 * Numeric accuracy (correct over numeric questions) and precision (correct over those answered),
 * overall and per question type; undefined when the set has no numeric gold.
 */
export function numericMetrics(
  questions: NumericQuestion[],
  answerOf: (id: string) => NumericAnswer | undefined,
): (NumericMetrics & { by_kind: Record<string, NumericMetrics> }) | undefined {
  const tot = { numeric_questions: 0, answered: 0, correct: 0 };
  const by: Record<string, typeof tot> = {};
  for (const q of questions) {
    if (!q.answerable) continue;
    const gold = goldOf(q);
    if (!gold) continue;
    const kind = q.question_type ?? q.kind ?? 'all';
    by[kind] ??= { numeric_questions: 0, answered: 0, correct: 0 };
    const b = by[kind];
    tot.numeric_questions++;
    b.numeric_questions++;
    const a = answerOf(q.id);
    if (!a || a.refused) continue;
    tot.answered++;
    b.answered++;
    const stated = statedOf(a, goldIsYear(q.answers?.[0] ?? q.reference_answer ?? ''));
    if (stated && judge(q, gold, stated, a.answer)) {
      tot.correct++;
      b.correct++;
    }
  }
  if (tot.numeric_questions === 0) return undefined;
  return {
    ...rates(tot),
    by_kind: Object.fromEntries(
      Object.entries(by)
        .sort()
        .map(([k, v]) => [k, rates(v)]),
    ),
  };
}
