/**
 * What a language says to ask a table something: the words of each operation, of question form,
 * of bounds and exclusions, the scales headers write, and the lines an answer is told in. One file
 * per language holds its words as data (en.ts, ja.ts, zh-hans.ts, zh-hant.ts); the reader's plan is
 * the same in every language. Phrases are written NFKC and lower case, as the question is read.
 */
export interface TableWords {
  /** BCP 47 tag of the language. */
  lang: 'en' | 'ja' | 'zh-Hans' | 'zh-Hant';
  /** Words between words (particles, copulas): a term never spans one. Empty where spaces part words. */
  particles: string[];
  /** Words of question form and politeness: they say what to do with a table, not which table. */
  form: string[];
  /** Superlatives and comparatives, largest first ("most", "最も多い", "最多"). */
  max: string[];
  min: string[];
  first: string[];
  last: string[];
  /** The row after or before the one named. */
  next: string[];
  previous: string[];
  /** A neighbour in place, not in order: "next to". */
  beside: string[];
  /** Asking how many rows (or a named row's number): "how many", "何件", "几个". */
  count: string[];
  /** Asking a total: "total", "合計", "合计". */
  sum: string[];
  /** Asking a difference: "difference", "差", "増減". */
  difference: string[];
  /** Asking when: a date, year or period column answers. */
  when: string[];
  /** Asking who: the row's name answers. */
  who: string[];
  /** A value left out: "other than X", "X以外", "除了X". `excludeAfter`: the word follows the value (X以外). */
  exclude: string[];
  excludeAfter: string[];
  /** A condition on another column: "not in the Tikamgarh district", "不在X". */
  notIn: string[];
  /** Bounds on a number: strict and inclusive, above and below ("or more" follows its number). */
  above: string[];
  atLeast: string[];
  below: string[];
  atMost: string[];
  /**
   * Legal forms a company's name is written with ("株式会社", "有限公司", "Inc."): a question that
   * says one names a company, whose document a table must be of.
   */
  legalForms: string[];
  /** Header words of a time column ("year", "年度", "年份"). */
  timeHeaders: string[];
  /** Asking what stood at a time, not what happened over it: "as of", "時点", "截至" (a balance on a date). */
  asOf: string[];
  /**
   * Headers of the report's own period and the one before it, with no year of their own
   * (「当連結会計年度」 and 「前連結会計年度」, "current year" and "prior year"): the period the
   * table's headings name, and the year before it.
   */
  thisPeriod: string[];
  lastPeriod: string[];
  /** The answer's lines: {file}, {how}, {col}, {n}, {a}, {b}, {bound} are filled in. */
  say: Sayings;
}

interface Sayings {
  reason: string;
  closeTable: string;
  lookup: string;
  largest: string;
  smallest: string;
  count: string;
  countMatching: string;
  countBound: string;
  sum: string;
  difference: string;
  after: string;
  before: string;
  first: string;
  last: string;
  firstMatching: string;
  lastMatching: string;
  firstBound: string;
  lastBound: string;
  mostRows: string;
  fewestRows: string;
  /** The row that shares the named row's value ({col}, {a}). */
  same: string;
  /** The value whose rows add up to the most or least ({col}, {a}: the total, {n}: rows). */
  largestTotal: string;
  smallestTotal: string;
  /** What a superlative measures when it counts a cell's listed values, or the years a span lasted: said before the column's name. */
  items: string;
  lasted: string;
  /** "the row that matches the question" and the value when a column has no name. */
  value: string;
}

/** A saying with its slots filled. */
export function said(template: string, slots: Record<string, string | number>): string {
  return template.replace(/\{(\w+)\}/g, (m, k: string) => (slots[k] === undefined ? m : String(slots[k])));
}
