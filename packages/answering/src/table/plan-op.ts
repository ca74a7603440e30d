import { headerScale } from '@pinpoint/analysis';
import type { TableWords } from './lexicon/index.js';
import type { QaColumn, QaTable } from './model.js';
import { saidTerms, termsOf, unaccented } from './model.js';
import type { QuestionBound } from './question-words.js';
import { phraseAt, says, without } from './question-words.js';

/** What a plan does with the rows and columns it locates. */
export type TableOp = 'lookup' | 'max' | 'min' | 'first' | 'last' | 'next' | 'previous' | 'count' | 'sum' | 'difference' | 'same';

export interface NumericFilter {
  col: QaColumn;
  above: boolean;
  /** The bound itself passes ("at least", "or more"). */
  inclusive: boolean;
  value: number;
}

/**
 * A numeric bound the question puts on rows, and the column it bounds: the numeric column the
 * question names, else the one whose values span the bound.
 */
export function numericFilter(bound: QuestionBound | undefined, table: QaTable, named: QaColumn[]): NumericFilter | undefined {
  if (!bound) return undefined;
  const { above, inclusive } = bound;
  // "超过2000万" over "人口（万人）": the bound in the column's own scale (2000)
  const valueIn = (c: QaColumn): number => (bound.scaled ? bound.value / headerScale(c.name).scale : bound.value);
  const spans = (c: QaColumn): boolean => {
    const nums = table.rows.map((r) => r.cells.get(c.col)?.num).filter((n): n is number => n != null);
    return nums.length > 0 && Math.min(...nums) <= valueIn(c) && valueIn(c) <= Math.max(...nums);
  };
  const col =
    named.find((c) => c.numeric >= 0.5 && spans(c)) ??
    named.find((c) => c.numeric >= 0.5) ??
    table.columns.find((c) => c.numeric >= 0.6 && spans(c));
  return col ? { col, above, inclusive, value: valueIn(col) } : undefined;
}

/** Each language's words of question form, as terms (languages that part words with spaces). */
const formTerms = new WeakMap<TableWords, Set<string>>();
export function formOf(words: TableWords): Set<string> {
  let terms = formTerms.get(words);
  if (!terms) {
    terms = termsOf(words.form.join(' '));
    formTerms.set(words, terms);
  }
  return terms;
}

/** Words of the table's own order: "listed after", "the one below", "next on the chart". */
export const LIST_ORDER = /\b(list|listed|table|chart|shown|below|above|under|row)\b/;

/** "the number of districts": a count of plural things, not "the number of the player". */
const NUMBER_OF = /\bnumber of (?!the\b)\p{L}+s\b/u;
/** Asking how many: the language's words, or "the number of …s". */
export const howMany = (q: string, words: TableWords): boolean => says(q, words.count, words) || NUMBER_OF.test(q);
/** "the same score as the game in Benin", "has the same number of threads per inch as 3/16". */
export const SAME = /\bsame\b.*\bas\b/;
/** Superlatives of how many: "more premierships", "the fewest titles" (not "higher", "the largest"). */
export const COUNTED = /\b(more|most|fewer|fewest|less|least)\b/;
/**
 * A superlative that asks for a thing, not its measure: "who …", "which …", "what county has …",
 * and "what has the least percentage" (a verb of having right after "what"; "what is the largest
 * attendance" asks for the number).
 */
export const THING_ASKED = /^\s*(who|which|what \w+ (has|had|was|is|were|did)|what (has|had|have))\b/;
/** Superlatives of standing: on a column of places ("1st", "#77") the highest is the smallest number. */
export const STANDING = /\b(highest|higher|lowest|lower|best|better|worst|worse|top)\b/;

/** Superlatives of time lasted: "served the longest", "the shortest term". */
export const LASTED = /\b(longest|shortest|longer|shorter)\b/;

export const MONTH = '(jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\\.?';
const DAY = new RegExp(`\\b${MONTH}\\s+(\\d{1,2})(?:st|nd|rd|th)?\\b|\\b(\\d{1,2})(?:st|nd|rd|th)\\s+(?:of\\s+)?${MONTH}`, 'g');

/** "november 17th", "march 4, 2013", "20th of july": a month and day the question names, written "November 17" or "20 July" in a table. */
export function daysOf(q: string): { month: string; day: string }[] {
  return [...q.matchAll(DAY)].map((m) => ({ month: (m[1] ?? m[4]) as string, day: (m[2] ?? m[3]) as string }));
}

/** "in the 1990's", "the 1800s": the years a decade or century the question names spans, half-open. */
export function yearSpan(q: string): [number, number] | undefined {
  const century = /\b(1\d|20)00['’ ]?s\b/.exec(q);
  if (century?.[1]) return [Number(century[1]) * 100, Number(century[1]) * 100 + 100];
  const decade = /\b(1\d\d|20\d)0['’ ]?s\b/.exec(q);
  return decade?.[1] ? [Number(decade[1]) * 10, Number(decade[1]) * 10 + 10] : undefined;
}

/** Where a value the question leaves out ends: the clause's punctuation; a condition ends at a full stop too. */
const VALUE_END = /\s*(?:[,?;，。？；、!！]|$)/u;
const CONDITION_END = /\s*(?:[,?;，。？；、!！]|\.(?:\s|$)|$)/u;

/**
 * The value a question leaves out, in the language's words: after "other than", "除了" (up to the
 * clause's end, or "以外" that closes it), or before "以外" (back to the clause's start or a particle).
 */
function excludedPhrase(q: string, words: TableWords): { phrase: string; negated: boolean } | undefined {
  for (const [list, negated] of [
    [words.exclude, false],
    [words.notIn, true],
  ] as [string[], boolean][]) {
    const m = phraseAt(q, list, words);
    if (!Number.isFinite(m.at)) continue;
    let rest = q.slice(m.at + m.phrase.length).replace(/^\s*(?:the\s+)?/, '');
    const close = phraseAt(rest, words.excludeAfter, words).at;
    if (Number.isFinite(close)) rest = rest.slice(0, close);
    const end = (negated ? CONDITION_END : VALUE_END).exec(rest);
    const phrase = (end ? rest.slice(0, end.index) : rest).trim();
    if (phrase) return { phrase, negated };
  }
  const after = phraseAt(q, words.excludeAfter, words);
  if (!Number.isFinite(after.at)) return undefined;
  const pieces = without(q.slice(0, after.at), words.particles, words).split(/[\s,，、。？?]+/u);
  const phrase = pieces.at(-1)?.trim();
  return phrase ? { phrase, negated: false } : undefined;
}

/** The terms of the value a question excludes ("other than Rough Cut", "not from Australia"), if any. */
export function excludedTerms(q: string, words: TableWords): Exclusion | undefined {
  const found = excludedPhrase(q, words);
  if (!found) return undefined;
  const plain = unaccented(found.phrase);
  return { terms: saidTerms(plain), words: termsOf(plain).size, negated: found.negated };
}

/** The terms of an excluded value, with those it is also said as ("u.s." is United States), and how many it says itself. */
export interface Exclusion {
  terms: Set<string>;
  words: number;
  /** "not in the Tikamgarh district" (a condition on another column), not "other than X" (another of the same kind). */
  negated: boolean;
}

/** Words of money: a total or superlative of them reads a column of amounts when none is named. */
export const MONEY = /\b(money|earn\w*|gross\w*|paid|pays?|revenue|prize|income|sales|cost\w*|budget)\b/;

/**
 * The operation a question's words ask of a table: a difference, the row after or before one, a
 * superlative, the first or last, a total, a count, else a lookup. `hasMeasure`: the question names a
 * numeric column, so a superlative compares it.
 */
export function operation(q: string, hasMeasure: boolean, words: TableWords): TableOp {
  if (says(q, words.difference, words)) return 'difference';
  const counting = howMany(q, words);
  const positions: [TableOp, number][] = [
    ['next', phraseAt(q, words.next, words).at],
    ['previous', phraseAt(q, words.previous, words).at],
    ['max', phraseAt(q, words.max, words).at],
    ['min', phraseAt(q, words.min, words).at],
    ['first', phraseAt(q, words.first, words).at],
    ['last', phraseAt(q, words.last, words).at],
  ];
  const found = positions.filter(([, p]) => Number.isFinite(p)).sort((a, b) => a[1] - b[1]);
  // "the first … after X" → next; a superlative wins over first/last ("the first … most").
  const ops = new Set(found.map(([o]) => o));
  if (ops.has('next')) return 'next';
  if (ops.has('previous') && !counting) return 'previous';
  if (hasMeasure && ops.has('max')) return 'max';
  if (hasMeasure && ops.has('min')) return 'min';
  // "how many top selling brands …": with no number to compare, the superlative qualifies what is counted
  const sum = says(q, words.sum, words);
  if (counting && !hasMeasure && (ops.has('max') || ops.has('min'))) return sum ? 'sum' : 'count';
  if (ops.has('first')) return 'first';
  if (ops.has('last')) return 'last';
  if (ops.has('max')) return 'max';
  if (ops.has('min')) return 'min';
  if (sum) return 'sum';
  if (counting) return 'count';
  return 'lookup';
}

/**
 * "the most accolades", "most often", "the fewest titles", "… the most?": with no number named, what
 * the most or fewest rows hold ("the most recent" is not a count).
 */
export const MOST_ROWS =
  /\bthe (?:most|least|fewest)\s+\p{L}+s\b|\b(?:most|least) (?:frequent|often|common)|\bthe (?:most|least)\s*[?.!]?\s*$/u;

const NOT_NOUNS = new Set(
  'is was are were has had have did does do the a an of kind type one year number place time position amount'.split(' '),
);

/**
 * The terms of the noun a wh-word asks for ("which party …" → parti); none when it names no column
 * ("what year").
 */
export function askedTerms(q: string): { terms: Set<string> } {
  const noun =
    /\b(?:which|what|whose|name (?:a|an|one|the|another))\s+(?:(?:is|was|are|were)\s+)?(?:the\s+)?(?:(?:only|other|first|last|next|previous)\s+)?([\p{L}]+)/u.exec(
      q,
    )?.[1];
  if (!noun || NOT_NOUNS.has(noun)) return { terms: new Set() };
  return { terms: termsOf(noun) };
}

/** The least a word the index never saw weighs (its rarest seen word's weight when that is more). */
export const UNSEEN_FLOOR = 1;

/** The question's terms with their weights in the index; no term spans a particle ("递延所得税的余额": not 税的). */
export function questionTerms(q: string, words: TableWords, weights: Map<string, number>): Map<string, number> {
  const qTerms = new Map<string, number>();
  // A term the index has never seen weighs as much as its rarest one: a name no table holds.
  const rarest = Math.max(UNSEEN_FLOOR, ...weights.values());
  for (const t of termsOf(without(q, words.particles, words))) qTerms.set(t, weights.get(t) || rarest);
  return qTerms;
}
