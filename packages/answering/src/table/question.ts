import { headerScale } from '@pinpoint/analysis';
import type { CellReading } from './cell-measure.js';
import { givesSpans, listsValues } from './cell-measure.js';
import { labelValue } from './key-value.js';
import { EN } from './lexicon/en.js';
import type { TableWords } from './lexicon/index.js';
import { lexiconFor, unspaced } from './lexicon/index.js';
import { JA } from './lexicon/ja.js';
import { ZH_HANS } from './lexicon/zh-hans.js';
import { ZH_HANT } from './lexicon/zh-hant.js';
import type { QaCell, QaColumn, QaRow, QaTable } from './model.js';
import { folded, ownCells, saidTerms, termsOf, unaccented } from './model.js';
import { namedRow, WORDED } from './named-items.js';
import { datedRows, periodColumns, questionYear } from './period-columns.js';
import type { QuestionBound } from './question-words.js';
import { boundOf, phraseAt, phraseRe, says, unquoted, without } from './question-words.js';

interface RowMatch {
  row: QaRow;
  score: number;
  /** The part of the score from words no header holds and from quoted cells: what names this row rather than a column. */
  own: number;
  cells: QaCell[];
  quoted: boolean;
}

type TableOp = 'lookup' | 'max' | 'min' | 'first' | 'last' | 'next' | 'previous' | 'count' | 'sum' | 'difference' | 'same';

/** What a question asks of a table: the operation, the columns it names and the rows its values select. */
export interface TablePlan {
  /** The words of the question's language: the answer is told in them. */
  words: TableWords;
  op: TableOp;
  /** Column whose cell is the answer. */
  answer: QaColumn | undefined;
  /**
   * Numeric column compared, summed or subtracted (superlatives, totals, differences); for "the same
   * score as …", the column whose value the other row shares.
   */
  measure: QaColumn | undefined;
  /** How the measure reads a cell: its number, or how many values it lists ("more premierships": "1996, 2001" is two). */
  reading: CellReading;
  /** Rows whose cells match the question's values, best first, with their match score; `quoted` when a whole cell is in the question. */
  matched: RowMatch[];
  /** "Which of A or B": the superlative is taken over the rows the question names. */
  comparing: boolean;
  /** "which had more GER numbers, 1898 or 1893?": a value compared that names several rows counts their total. */
  totals: boolean;
  /** The superlative is taken over the rows a quoted value picks ("Jay Mills' first year"). */
  within: boolean;
  /**
   * "from where did it receive the most accolades?": a superlative that names no number to compare
   * counts rows — the answer column's value that the most (or fewest) rows hold.
   */
  frequency: boolean;
  /** The terms of a value the question excludes ("other than X", "not from X"): rows holding it are no answer. */
  excluded: Set<string> | undefined;
  /**
   * "the previous Asian Championships": a cell of the named row, quoted whole and shared by other
   * rows, that the row after or before must share too.
   */
  kept: QaCell | undefined;
  /** "more than 40,000 people", "below 18": the rows whose cell in a numeric column passes the bound. */
  filter: NumericFilter | undefined;
  /** "listed after", "the row below": the row after or before is the next one down or up the table, not in time. */
  listOrder: boolean;
  /** Weight of the question's terms the table holds, over all of them (0..1); words of question form left out. */
  coverage: number;
  /** Weight of the question's terms found in the table's titles and header names (0..1). */
  headerCoverage: number;
  /** The heaviest question term the table lacks, over the heaviest term (0..1): a name the table never mentions. */
  missing: number;
  /** Weight of the question's terms found in the titles, headers and the best-matching row together (0..1). */
  focus: number;
  /** Weight share of the question's terms that no indexed document holds (0..1). */
  unseen: number;
  /** Weight of the question's terms the one row that holds most of them holds (0..1): the row the question is about. */
  rowCoverage: number;
  /**
   * A year the question names against the table's period columns: 1 when a column is that year's,
   * -1 when the table's columns are periods and none is, 0 when either says no year.
   */
  periodFit: number;
}

interface NumericFilter {
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
function numericFilter(bound: QuestionBound | undefined, table: QaTable, named: QaColumn[]): NumericFilter | undefined {
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
function formOf(words: TableWords): Set<string> {
  let terms = formTerms.get(words);
  if (!terms) {
    terms = termsOf(words.form.join(' '));
    formTerms.set(words, terms);
  }
  return terms;
}

/** Words of the table's own order: "listed after", "the one below", "next on the chart". */
const LIST_ORDER = /\b(list|listed|table|chart|shown|below|above|under|row)\b/;
/** A header that names a time: its year, date, season or period, in any of the lexicons' words. */
export const DATED = new RegExp(
  `\\b(?:${EN.timeHeaders.join('|')})\\b|${[JA, ZH_HANS, ZH_HANT].flatMap((w) => w.timeHeaders).join('|')}`,
  'iu',
);
/** A header that names a time, or the time of day. */
const TIMED = new RegExp(`${DATED.source}|\\b(?:time|when|period)\\b`, 'iu');
/** "the number of districts": a count of plural things, not "the number of the player". */
const NUMBER_OF = /\bnumber of (?!the\b)\p{L}+s\b/u;
/** Asking how many: the language's words, or "the number of …s". */
const howMany = (q: string, words: TableWords): boolean => says(q, words.count, words) || NUMBER_OF.test(q);
/** "the same score as the game in Benin", "has the same number of threads per inch as 3/16". */
const SAME = /\bsame\b.*\bas\b/;
/** Superlatives of how many: "more premierships", "the fewest titles" (not "higher", "the largest"). */
const COUNTED = /\b(more|most|fewer|fewest|less|least)\b/;
/**
 * A superlative that asks for a thing, not its measure: "who …", "which …", "what county has …",
 * and "what has the least percentage" (a verb of having right after "what"; "what is the largest
 * attendance" asks for the number).
 */
const THING_ASKED = /^\s*(who|which|what \w+ (has|had|was|is|were|did)|what (has|had|have))\b/;
/** Superlatives of standing: on a column of places ("1st", "#77") the highest is the smallest number. */
const STANDING = /\b(highest|higher|lowest|lower|best|better|worst|worse|top)\b/;
/** A header that names a place in an order: a position, rank, peak or finish. */
const RANKED = /\b(pos|position|positions|place|placing|rank|ranking|peak|chart|finish|finished|standing)\b/i;

/** A column of places in an order: its header names one, or most of its cells read "1st", "#77". */
function ranked(table: QaTable, col: QaColumn): boolean {
  if (RANKED.test(col.name)) return true;
  const cells = table.rows.map((r) => r.cells.get(col.col)?.text.trim() ?? '').filter((t) => t !== '');
  const places = cells.filter((t) => /^(?:#\s*\d+|\d+(?:st|nd|rd|th))\b/i.test(t));
  return cells.length > 0 && places.length * 2 > cells.length;
}

/**
 * The numeric column the words right after a superlative name word for word, the last of them:
 * "the fewest participating nations" compares Nations, not Participants.
 */
function superlativeColumn(
  q: string,
  op: 'max' | 'min',
  hits: { col: QaColumn; pos: number }[],
  words: TableWords,
): QaColumn | undefined {
  const m = phraseAt(q, op === 'max' ? words.max : words.min, words);
  if (!Number.isFinite(m.at)) return undefined;
  const from = m.at + m.phrase.length;
  const phrase = /^(?:\s+[\p{L}\p{N}'’-]+){1,3}/u.exec(q.slice(from))?.[0] ?? '';
  const stop = /\s(?:of|in|at|on|for|by|with|than|and|or|to|from|did|does|do|was|were|is|are|has|had|have)\b/.exec(phrase);
  const end = from + (stop ? stop.index : phrase.length);
  const next = new Set(q.slice(from, end).match(/[\p{L}\p{N}]+/gu) ?? []);
  // a header the question says word for word ("nations" for Nations; not "recorded" for Record)
  const said = (c: QaColumn): boolean => (c.name.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []).some((w) => next.has(w));
  const inside = hits.filter((h) => h.pos >= from && h.pos < end && said(h.col));
  return inside.sort((a, b) => b.pos - a.pos)[0]?.col;
}

/** Superlatives of time lasted: "served the longest", "the shortest term". */
const LASTED = /\b(longest|shortest|longer|shorter)\b/;

const MONTH = '(jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\\.?';
const DAY = new RegExp(`\\b${MONTH}\\s+(\\d{1,2})(?:st|nd|rd|th)?\\b|\\b(\\d{1,2})(?:st|nd|rd|th)\\s+(?:of\\s+)?${MONTH}`, 'g');

/** "november 17th", "march 4, 2013", "20th of july": a month and day the question names, written "November 17" or "20 July" in a table. */
function daysOf(q: string): { month: string; day: string }[] {
  return [...q.matchAll(DAY)].map((m) => ({ month: (m[1] ?? m[4]) as string, day: (m[2] ?? m[3]) as string }));
}

/** "in the 1990's", "the 1800s": the years a decade or century the question names spans, half-open. */
function yearSpan(q: string): [number, number] | undefined {
  const century = /\b(1\d|20)00['’ ]?s\b/.exec(q);
  if (century?.[1]) return [Number(century[1]) * 100, Number(century[1]) * 100 + 100];
  const decade = /\b(1\d\d|20\d)0['’ ]?s\b/.exec(q);
  return decade?.[1] ? [Number(decade[1]) * 10, Number(decade[1]) * 10 + 10] : undefined;
}

/** A cell that reads as a year (or starts with one: "1990–91") inside a span. */
const inSpan = (cell: QaCell, span: [number, number]): boolean =>
  cell.num !== null && Number.isInteger(cell.num) && /^\s*\d{4}\b/.test(cell.text) && cell.num >= span[0] && cell.num < span[1];

/** A cell that holds a named month and day. */
function holdsDay(text: string, days: { month: string; day: string }[]): boolean {
  const words = text.split(' ');
  return days.some((d) => words.includes(d.day) && words.some((w) => w.startsWith(d.month)));
}

/**
 * The weight of a question word that a header word extends or is extended by ("weighs" → weigh,
 * "Weight"): stemming keeps them apart, and a header names its column in a word or two.
 */
function stemOf(t: string, qTerms: Map<string, number>): number | undefined {
  if (t.length < 4 || /\d/.test(t)) return undefined;
  for (const [q, w] of qTerms) {
    if (q.length < 4 || q.startsWith('_')) continue;
    const [short, long] = q.length <= t.length ? [q, t] : [t, q];
    if (long.length - short.length <= 2 && long.startsWith(short)) return w;
  }
  return undefined;
}

/** Column header words found in the question, with the position of the first one. */
function headerHits(
  q: string,
  qTerms: Map<string, number>,
  columns: QaColumn[],
): { col: QaColumn; score: number; pos: number }[] {
  const out: { col: QaColumn; score: number; pos: number }[] = [];
  for (const col of columns) {
    let score = 0;
    for (const t of col.terms) score += qTerms.get(t) ?? stemOf(t, qTerms) ?? 0;
    if (score <= 0) continue;
    const words = col.name.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
    const pos = Math.min(...words.map((w) => q.indexOf(w.slice(0, Math.max(3, w.length - 2)))).filter((i) => i >= 0), q.length);
    out.push({ col, score: score / Math.max(1, col.terms.size) ** 0.5, pos });
  }
  return out.sort((a, b) => b.score - a.score || a.pos - b.pos);
}

const normal = (s: string): string =>
  s
    .normalize('NFKC')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim();

/** Each row's terms, and how many rows hold each term: read once per table, not once per question. */
const termsByRow = new WeakMap<QaTable, { rows: Set<string>[]; df: Map<string, number> }>();
function rowStats(table: QaTable): { rows: Set<string>[]; df: Map<string, number> } {
  let stats = termsByRow.get(table);
  if (!stats) {
    const rows = table.rows.map((r) => new Set([...r.cells.values()].flatMap((c) => [...c.terms])));
    const df = new Map<string, number>();
    for (const seen of rows) for (const t of seen) df.set(t, (df.get(t) ?? 0) + 1);
    stats = { rows, df };
    termsByRow.set(table, stats);
  }
  return stats;
}
const termsOfRows = (table: QaTable): Set<string>[] => rowStats(table).rows;

/** A cell's text as matchRows compares it with the question, worked out once per cell (a table is read for many questions). */
const normalText = new WeakMap<QaCell, string>();
function normalOf(c: QaCell): string {
  let text = normalText.get(c);
  if (text === undefined) {
    text = normal(c.text);
    normalText.set(c, text);
  }
  return text;
}
const rowFrequencies = (table: QaTable): Map<string, number> => rowStats(table).df;

/** Rows whose cells carry the question's values: rarer terms count more, a whole cell quoted counts most. */
function matchRows(
  table: QaTable,
  qNorm: string,
  qTerms: Map<string, number>,
  headerTerms: Set<string>,
  namedCols: Map<number, number>,
  unspacedQuestion: boolean,
) {
  const days = daysOf(qNorm);
  const dayNumbers = new Set(days.map((d) => d.day));
  const span = yearSpan(qNorm);
  const df = rowFrequencies(table);
  const n = Math.max(1, table.rows.length);
  const padded = ` ${qNorm} `;
  const out: RowMatch[] = [];
  for (const row of table.rows) {
    let score = 0;
    let own = 0;
    let quoted = false;
    const cells: { cell: QaCell; s: number }[] = [];
    for (const c of new Set(row.cells.values())) {
      let s = 0;
      let mine = 0;
      const text = normalOf(c);
      const dated = days.length > 0 && holdsDay(text, days);
      for (const t of c.terms) {
        const w = qTerms.get(t);
        // "the 1990s" picks every year of the decade alike, not the cells that say 1990
        if (w === undefined || (span && t === String(span[0]))) continue;
        // "march 4, 2013": the 4 is the day of a date, not the 4 of a score "0-4"
        if (!dated && dayNumbers.has(t)) continue;
        const rarity = Math.log(1 + n / (df.get(t) ?? 1));
        s += (headerTerms.has(t) ? 0.3 : 1) * w * rarity;
        if (!headerTerms.has(t)) mine += w * rarity;
      }
      const quotes = unspacedQuestion ? qNorm.includes(text) : padded.includes(` ${text} `);
      if (text.length >= 2 && quotes && !/^\d{1,2}$/.test(text)) {
        s += 2 + text.length / 10;
        mine += 2 + text.length / 10;
        quoted = true;
      } else if (dated || (span && inSpan(c, span))) {
        s += 2;
        mine += 2;
        quoted = true;
      }
      // "earned 2 points": a value in the column the question names counts double (less in a column it names less well)
      if (s > 0) s *= 1 + (namedCols.get(c.col) ?? 0);
      if (s > 0) {
        score += s;
        own += mine;
        cells.push({ cell: c, s });
      }
    }
    // the cell that matched most first: the value the question is anchored on
    if (score > 0) out.push({ row, score, own, cells: cells.sort((a, b) => b.s - a.s).map((x) => x.cell), quoted });
  }
  return out.sort((a, b) => b.score - a.score || a.row.index - b.row.index);
}

/** A cell's own terms, accents dropped ("gildeskal" names Gildeskål), not the words it is also said as. */
const plainTerms = (c: QaCell): Set<string> => termsOf(unaccented(c.text));

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
function excludedTerms(q: string, words: TableWords): Exclusion | undefined {
  const found = excludedPhrase(q, words);
  if (!found) return undefined;
  const plain = unaccented(found.phrase);
  return { terms: saidTerms(plain), words: termsOf(plain).size, negated: found.negated };
}

/** The terms of an excluded value, with those it is also said as ("u.s." is United States), and how many it says itself. */
interface Exclusion {
  terms: Set<string>;
  words: number;
  /** "not in the Tikamgarh district" (a condition on another column), not "other than X" (another of the same kind). */
  negated: boolean;
}

/** A cell all of whose terms the excluded value holds. */
export function excludedCell(c: QaCell, terms: Set<string>): boolean {
  const own = plainTerms(c);
  return own.size > 0 && [...own].every((t) => terms.has(t));
}

/** A cell that reads as the whole excluded value ("Gildeskål Church" for "in addition to gildeskal church"). */
function namesExcluded(c: QaCell, terms: Set<string>, words: number): boolean {
  const own = plainTerms(c);
  return own.size >= words && [...own].every((t) => terms.has(t));
}

/**
 * "Other than Rough Cut, …": rows that hold the excluded value are no match — a cell the question
 * matched that holds nothing else, or any cell of the row that is the whole value.
 */
function excluding(table: QaTable, exclusion: Exclusion | undefined, matched: RowMatch[]): RowMatch[] {
  if (!exclusion) return matched;
  const { terms, words } = exclusion;
  // a value every row holds ("Gildeskål", the parish of each church) tells no row apart
  const constant = new Set(
    table.columns
      .filter((c) => {
        const first = folded(table.rows[0]?.cells.get(c.col)?.text ?? '');
        return table.rows.every((r) => folded(r.cells.get(c.col)?.text ?? '') === first);
      })
      .map((c) => c.col),
  );
  return matched.filter(
    (m) =>
      !m.cells.some((c) => excludedCell(c, terms) && !constant.has(c.col)) &&
      ![...m.row.cells.values()].some((c) => namesExcluded(c, terms, words)),
  );
}

const MONEY = /\b(money|earn\w*|gross\w*|paid|pays?|revenue|prize|income|sales|cost\w*|budget)\b/;

/** A column of amounts of money: its name says so, or its cells carry a currency sign. */
function money(table: QaTable, col: QaColumn): boolean {
  if (/\b(gross|revenue|prize|purse|earnings?|sales|budget|cost)\b|[$€£]/i.test(col.name)) return true;
  const cells = table.rows.map((r) => r.cells.get(col.col)?.text ?? '').filter((t) => t !== '');
  return cells.length > 0 && cells.filter((t) => /[$€£¥]/.test(t)).length >= cells.length / 2;
}

/** A running number (1, 2, 3 … down the rows): it numbers rows, it measures nothing. */
function ordinal(table: QaTable, col: QaColumn): boolean {
  const nums = table.rows.map((r) => r.cells.get(col.col)?.num).filter((n): n is number => n != null);
  return nums.length >= 3 && nums.every((n, i) => i === 0 || n === (nums[i - 1] as number) + 1);
}

function operation(q: string, hasMeasure: boolean, words: TableWords): TableOp {
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
const MOST_ROWS =
  /\bthe (?:most|least|fewest)\s+\p{L}+s\b|\b(?:most|least) (?:frequent|often|common)|\bthe (?:most|least)\s*[?.!]?\s*$/u;

/** A column some value of which two rows or more hold. */
function repeats(table: QaTable, col: QaColumn): boolean {
  const seen = new Set<string>();
  for (const r of table.rows) {
    const t = r.cells.get(col.col)?.text.trim().toLowerCase();
    if (!t) continue;
    if (seen.has(t)) return true;
    seen.add(t);
  }
  return false;
}

/** The column a question's type asks for when no header is named: a date/year, a number, or the row's name. */
function typedColumn(q: string, table: QaTable, exclude: Set<number>, words: TableWords): QaColumn | undefined {
  const free = table.columns.filter((c) => !exclude.has(c.col));
  if (says(q, words.when, words)) {
    const dated = free.find((c) => TIMED.test(c.name));
    if (dated) return dated;
  }
  if (howMany(q, words)) {
    const num = free.find((c) => c.numeric >= 0.6);
    if (num) return num;
  }
  return free.find((c) => c.numeric < 0.5) ?? free[0];
}

const NOT_NOUNS = new Set(
  'is was are were has had have did does do the a an of kind type one year number place time position amount'.split(' '),
);

/**
 * The terms of the noun a wh-word asks for ("which party …" → parti); none when it names no column
 * ("what year").
 */
function askedTerms(q: string): { terms: Set<string> } {
  const noun =
    /\b(?:which|what|whose|name (?:a|an|one|the|another))\s+(?:(?:is|was|are|were)\s+)?(?:the\s+)?(?:(?:only|other|first|last|next|previous)\s+)?([\p{L}]+)/u.exec(
      q,
    )?.[1];
  if (!noun || NOT_NOUNS.has(noun)) return { terms: new Set() };
  return { terms: termsOf(noun) };
}

/** A cell that reads as a calendar date: a month name and a year ("August 1, 1861", "4 Oct 1954"). */
const CALENDAR = new RegExp(`\\b${MONTH}\\b.*\\b\\d{4}\\b|\\b\\d{4}\\b.*\\b${MONTH}\\b`, 'i');

/** "When did …": the first column most of whose cells are calendar dates. */
function datedColumn(table: QaTable, free: QaColumn[]): QaColumn | undefined {
  const dated = free.filter((c) => {
    const cells = table.rows.map((r) => r.cells.get(c.col)?.text ?? '').filter((t) => t.trim() !== '');
    return cells.length > 0 && cells.filter((t) => CALENDAR.test(t)).length * 2 > cells.length;
  });
  return dated[0];
}

/**
 * The column the question's wh-word asks for: "which team …" → a column named team; "when …" → a
 * date or year column. Undefined when it says none.
 */
function askedColumn(q: string, table: QaTable, exclude: Set<number>, words: TableWords): QaColumn | undefined {
  const free = table.columns.filter((c) => !exclude.has(c.col));
  if (says(q, words.when, words)) return free.find((c) => TIMED.test(c.name)) ?? datedColumn(table, free);
  const { terms } = askedTerms(q);
  if (terms.size > 0) {
    // "name a constituency": the Constituency column before "Constituency number" — a name before a number, then the shorter name
    const named = free
      .filter((c) => [...terms].some((t) => c.terms.has(t)))
      .sort((a, b) => Number(a.numeric >= 0.5) - Number(b.numeric >= 0.5) || a.terms.size - b.terms.size);
    // "name a constituency" where only "Constituency number" says constituency: the constituency's Name
    const title = free.find((c) => /^\s*name\s*$/i.test(c.name));
    if (named[0] && named[0].numeric >= 0.5 && title && !/\b(number|how many|how much)\b/.test(q)) return title;
    if (named[0]) return named[0];
    // "the last junction": no header says junction, but a column's cells do ("Zivan Junction")
    return holdingColumn(table, free, terms);
  }
  return undefined;
}

/**
 * The text column most of whose cells are short names holding the terms ("Zivan Junction", "Shipon
 * Junction" for junction; a note that mentions a locomotive names none).
 */
function holdingColumn(table: QaTable, columns: QaColumn[], terms: Set<string>): QaColumn | undefined {
  return columns.find((c) => {
    if (c.numeric >= 0.5) return false;
    const cells = table.rows.map((r) => r.cells.get(c.col)).filter((x): x is QaCell => x !== undefined && x.text.trim() !== '');
    const names = cells.filter((x) => x.text.trim().split(/\s+/).length <= 4 && [...terms].every((t) => x.terms.has(t)));
    return cells.length >= 2 && names.length * 2 >= cells.length;
  });
}

/** The column whose cells carry the unit "how many …" counts in ("1,400 tons"). */
function unitColumn(q: string, table: QaTable): QaColumn | undefined {
  const unit = /\bhow (?:many|much)\s+(\p{L}+)/u.exec(q)?.[1];
  if (!unit) return undefined;
  const terms = termsOf(unit);
  if (terms.size === 0) return undefined;
  return table.columns.find((c) => {
    const cells = table.rows.map((r) => r.cells.get(c.col)).filter((x): x is QaCell => x !== undefined && x.num !== null);
    const counted = cells.filter((x) => [...terms].every((t) => x.terms.has(t)));
    return cells.length > 0 && counted.length * 2 >= cells.length;
  });
}

/** A numeric column named "Total": what a count of one row's things reads when the question names no column. */
const totalColumn = (table: QaTable): QaColumn | undefined =>
  table.columns.find((c) => /^\s*total\s*$/i.test(c.name) && c.numeric >= 0.6);

/** "who …" asks for the row's name: its first text column. */
function whoColumn(q: string, table: QaTable, exclude: Set<number>): QaColumn | undefined {
  if (!/^\s*who\b|\bwho\s+(is|was|were|had|has|did)\b/.test(q)) return undefined;
  return table.columns.find((c) => !exclude.has(c.col) && c.numeric < 0.5);
}

/**
 * "the same score as the game in Benin": the column the question names that the row it names holds
 * a value in but was not found by (the Score, not the Venue that says Benin).
 */
function sharedColumn(hits: { col: QaColumn }[], anchor: RowMatch | undefined): QaColumn | undefined {
  if (!anchor) return undefined;
  const found = new Set(anchor.cells.map((c) => c.col));
  return hits.find((h) => !found.has(h.col.col) && anchor.row.cells.get(h.col.col)?.text)?.col;
}

/** A cell of the named row the question quotes whole, not in the answer column, whose value other rows hold too. */
function keptCell(qNorm: string, table: QaTable, anchor: RowMatch | undefined, answer: QaColumn | undefined): QaCell | undefined {
  if (!anchor) return undefined;
  const padded = ` ${qNorm} `;
  return anchor.cells.find((c) => {
    const text = normal(c.text);
    if (c.col === answer?.col || text.length < 2 || /^\d+$/.test(text) || !padded.includes(` ${text} `)) return false;
    return table.rows.some((r) => r !== anchor.row && normal(r.cells.get(c.col)?.text ?? '') === text);
  });
}

/** Two words one letter apart (one changed, added, dropped, or two neighbours swapped), the first letter the same. */
function oneEdit(a: string, b: string): boolean {
  if (a === b || a[0] !== b[0] || Math.abs(a.length - b.length) > 1) return false;
  let i = 0;
  while (i < a.length && i < b.length && a[i] === b[i]) i++;
  if (a.length === b.length) {
    if (a.slice(i + 1) === b.slice(i + 1)) return true;
    return a[i] === b[i + 1] && a[i + 1] === b[i] && a.slice(i + 2) === b.slice(i + 2);
  }
  const [long, short] = a.length > b.length ? [a, b] : [b, a];
  return long.slice(i + 1) === short.slice(i);
}

/**
 * The year's column under the column the question names: "cash dividend per share in 2019" over a
 * header "Cash dividend per share" spanning the years 2018 and 2019 (the span's other columns have no
 * name of their own). The first year column the question names when none is under one.
 */
function yearUnder(table: QaTable, yearCols: QaColumn[], hits: { col: QaColumn }[]): QaColumn | undefined {
  for (const { col } of hits) {
    for (const c of table.columns.filter((x) => x.col >= col.col)) {
      if (c.col > col.col && c.name.trim() !== '' && c.name !== col.name) break;
      if (yearCols.includes(c)) return c;
    }
  }
  return undefined;
}

/** The least a word the index never saw weighs (its rarest seen word's weight when that is more). */
const UNSEEN_FLOOR = 1;

/** Reads a question against a table: operation, answer and measure columns, matched rows. */
export function planQuestion(question: string, table: QaTable, weights: Map<string, number>): TablePlan {
  const words = lexiconFor(question);
  const q = question.normalize('NFKC').toLowerCase();
  const qTerms = new Map<string, number>();
  // A term the index has never seen weighs as much as its rarest one: a name no table holds.
  const rarest = Math.max(UNSEEN_FLOOR, ...weights.values());
  // "递延所得税的余额": no term spans a particle ("税的")
  for (const t of termsOf(without(q, words.particles, words))) qTerms.set(t, weights.get(t) || rarest);
  // "vigerbo university": a word no document holds, one letter off a word of this table, finds that
  // word's rows (it still counts as missing when the table's fit and the refusal read the question)
  const rowTerms = new Map(qTerms);
  if (weights.size > 0) {
    for (const [t, w] of qTerms) {
      if (t.length < 5 || !/^\p{L}+$/u.test(t) || weights.get(t) || table.vocabulary.has(t)) continue;
      const near: string[] = [];
      for (const v of table.vocabulary) if (oneEdit(t, v) && near.push(v) > 1) break;
      if (near.length !== 1 || qTerms.has(near[0] as string)) continue;
      rowTerms.delete(t);
      rowTerms.set(near[0] as string, w);
    }
  }
  // "at least 40 laps": a bound is not a value to look for — no table need hold the number 40
  const bound = boundOf(q, words);
  const boundTerms = bound === undefined ? new Set<string>() : termsOf(bound.raw);
  const form = unspaced(words) ? undefined : formOf(words);
  const said = form ? undefined : termsOf(without(q, [...words.particles, ...words.form], words));
  const titled = new Set([...termsOf(table.title), ...table.columns.flatMap((c) => [...(c.titled ?? c.terms)])]);
  // A header word is in every row's retrieval text, so the index weighs it as common as the rows
  // make it ("driver" and "laps" over a few race tables: 0.05); as evidence that this is the table
  // asked about it weighs at least what a word the index never saw weighs at the least
  const content = [...qTerms]
    .filter(([t]) => (form ? !form.has(t) : said?.has(t)) && !boundTerms.has(t))
    .map(([t, w]): [string, number] => [t, titled.has(t) ? Math.max(w, UNSEEN_FLOOR) : w]);
  const total = content.reduce((s, [, w]) => s + w, 0);
  const held = content.reduce((s, [t, w]) => (table.vocabulary.has(t) ? s + w : s), 0);
  const headerHeld = content.reduce((s, [t, w]) => (titled.has(t) ? s + w : s), 0);
  const heaviest = Math.max(0, ...content.map(([, w]) => w));
  const lacking = Math.max(0, ...content.filter(([t]) => !table.vocabulary.has(t)).map(([, w]) => w));
  const hits = headerHits(q, qTerms, table.columns);
  const headerTerms = new Set(hits.flatMap((h) => [...h.col.terms]));
  const named = new Map(hits.map((h) => [h.col.col, h.score / (hits[0]?.score ?? 1)]));
  const exclusion = excludedTerms(q, words);
  const excluded = exclusion?.terms;
  // "in addition to Gildeskål Church": the value named to be left out picks no row
  const wanted = excluded ? new Map([...rowTerms].filter(([t]) => !excluded.has(t) || headerTerms.has(t))) : rowTerms;
  // "2020年の…": a table whose columns are periods answers from the column of that year, and the
  // rows that name the periods are no answer
  const bound0 = bound ? `${q.slice(0, bound.span[0])} ${q.slice(bound.span[1])}` : q;
  const periods = periodColumns(table);
  const year = periods.years.size > 0 ? questionYear(bound0) : undefined;
  const yearCols = year === undefined ? [] : table.columns.filter((c) => periods.years.get(c.col) === year);
  const rowsFound = matchRows(table, normal(question), wanted, headerTerms, named, unspaced(words));
  let matched = excluding(
    table,
    exclusion,
    yearCols.length > 0 ? rowsFound.filter((m) => !periods.labelRows.has(m.row)) : rowsFound,
  );
  const bestRow = new Set([...(matched[0]?.row.cells.values() ?? [])].flatMap((c) => [...c.terms]));
  const focused = content.reduce((s, [t, w]) => (titled.has(t) || bestRow.has(t) ? s + w : s), 0);
  let rowHeld = 0;
  for (const terms of termsOfRows(table)) {
    rowHeld = Math.max(
      rowHeld,
      content.reduce((s, [t, w]) => (terms.has(t) ? s + w : s), 0),
    );
  }
  // 「2019年時点における「建設仮勘定」」, "as of December 31, 2019": what stood at a time, in a table
  // whose rows are balances on dates, is read from the row of that year's last date
  const asOf = yearCols.length === 0 && says(q, words.asOf, words) ? questionYear(bound0) : undefined;
  let onADate = false;
  if (asOf !== undefined) {
    const label = table.columns[0]?.col ?? 0;
    const onDate = [...datedRows(table)].filter(([, y]) => y === asOf).map(([r]) => r);
    onADate = onDate.length > 0;
    if (onADate)
      matched = onDate.reverse().map((row) => {
        const cell = row.cells.get(label);
        return { row, score: 1, own: 1, cells: cell ? [cell] : [], quoted: true };
      });
  }
  // 「電話番号、本店の所在の場所」: the row a quoted name says whole, under the part of the table it names, leads
  const saidRow = onADate ? undefined : namedRow(question, table, words.sum);
  if (saidRow && matched[0]?.row !== saidRow) {
    const found = matched.find((m) => m.row === saidRow);
    // its label: the first cell of its own that is words
    const label = ownCells(saidRow)
      .filter((c) => WORDED.test(c.text))
      .sort((a, b) => a.col - b.col)
      .slice(0, 1);
    matched = [
      {
        row: saidRow,
        score: Math.max(found?.score ?? 0, matched[0]?.score ?? 1),
        own: found?.own ?? 1,
        cells: label,
        quoted: true,
      },
      ...matched.filter((m) => m !== found),
    ];
  }
  // without index statistics (no weights) nothing counts as unseen
  const unseen = weights.size === 0 ? 0 : content.reduce((s, [t, w]) => (weights.get(t) ? s : s + w), 0);
  const numericHits = hits.filter((h) => h.col.numeric >= 0.6);
  // "more than 40,000" bounds rows; it is not a superlative
  // "listed next to X" names a neighbour, not an order
  let op = operation(unquoted(bound0).replace(phraseRe(words.beside, words), ' '), numericHits.length > 0, words);
  const shared = SAME.test(q) ? sharedColumn(hits, matched[0]) : undefined;
  if (shared) op = 'same';
  // "営業利益の合計" over a 合計 row, "the total assets" over a "Total assets" row: a total the table
  // writes is looked up — the row's label says the total and more of the question
  const writesTotal = (c: QaCell): boolean =>
    says(c.text.normalize('NFKC').toLowerCase(), words.sum, words) && [...c.terms].filter((t) => rowTerms.has(t)).length >= 2;
  if (op === 'sum' && matched[0]?.cells.some(writesTotal)) op = 'lookup';
  // "the total number of circuits listed": with no number column named to add up, the rows are counted
  if (op === 'sum' && !numericHits.some((h) => !ordinal(table, h.col)) && !MONEY.test(q)) op = 'count';
  // "the first canal opened", "the earliest to take office": first/last by the named date or number column
  // "Jay Mills' first year": the smallest year among the rows the quoted value picks
  const measured = numericHits.some((h) => !ordinal(table, h.col));
  // "the least caps of the alumni in the 1990s": the superlative over the rows of the decade
  const within =
    ((op === 'first' || op === 'last') && measured && matched[0]?.quoted === true) ||
    ((op === 'max' || op === 'min') && yearSpan(normal(question)) !== undefined && matched[0]?.quoted === true);
  // "his first season": first and last order by time, so a named date or season column is the one compared
  const byTime = (op === 'first' || op === 'last') && measured;
  if (byTime) op = op === 'first' ? 'min' : 'max';
  // "the top driver" with no number named: the table's own order ranks its rows
  if (op === 'max' && numericHits.length === 0 && /\btop\b/.test(q)) op = 'first';
  const best = matched[0]?.score ?? 0;
  // "which party won …": a cell "Australian Labor Party" that holds only the noun asked for (a noun
  // that names a column) is what is asked, not a condition
  const { terms: askedNoun } = askedTerms(q);
  const asked =
    askedNoun.size > 0 &&
    (table.columns.some((c) => [...askedNoun].some((t) => c.terms.has(t))) || holdingColumn(table, table.columns, askedNoun))
      ? askedNoun
      : new Set<string>();
  const onlyAsked = (c: QaCell): boolean =>
    asked.size > 0 && !matched[0]?.quoted && [...c.terms].filter((t) => rowTerms.has(t)).every((t) => asked.has(t));
  const conditionCols = new Set(
    matched
      .filter((m) => m.score >= 0.5 * best)
      .flatMap((m) => m.cells.filter((c) => c.element === m.row.element && !onlyAsked(c)).map((c) => c.col)),
  );
  let measure: QaColumn | undefined;
  let reading: CellReading = 'value';
  let totals = false;
  let answer: QaColumn | undefined;
  let frequency = false;
  const comparing = /\bor\b/.test(q) && conditionCols.size > 0;
  if (op === 'max' || op === 'min' || op === 'sum' || op === 'difference') {
    const dated = byTime ? numericHits.find((h) => DATED.test(h.col.name) && !ordinal(table, h.col)) : undefined;
    const counted = numericHits.filter((h) => !ordinal(table, h.col));
    const extreme = op === 'max' || op === 'min' ? op : undefined;
    const after = extreme ? superlativeColumn(q, extreme, counted, words) : undefined;
    measure = (dated ?? counted.find((h) => h.col === after) ?? counted[0])?.col;
    if (!measure && MONEY.test(q)) measure = table.columns.find((c) => c.numeric >= 0.8 && money(table, c));
    const named = measure !== undefined;
    if (!measure) measure = table.columns.find((c) => c.numeric >= 0.8 && !conditionCols.has(c.col) && !ordinal(table, c));
    // "which team had more Qld Cup premierships": the named column lists values ("1996, 2001"), and they
    // are counted — not the column asked for ("what season has the most goals": a season "2002–2003")
    const superlative = op === 'max' || op === 'min';
    const asked = askedColumn(q, table, new Set(), words);
    const listed =
      superlative && COUNTED.test(q)
        ? hits.find((h) => h.col !== asked && !conditionCols.has(h.col.col) && listsValues(table, h.col))?.col
        : undefined;
    if (listed) {
      measure = listed;
      reading = 'items';
    }
    // "who served the longest": a column of terms "1927–1938" is measured by how long each lasted
    if (superlative && !listed && LASTED.test(q) && measure && givesSpans(table, measure)) reading = 'length';
    // "the highest position a song reached": on a column of places the highest is the smallest number
    const word = superlative ? phraseAt(q, op === 'max' ? words.max : words.min, words).phrase : undefined;
    if (word && STANDING.test(word) && reading === 'value' && measure && ranked(table, measure))
      op = op === 'max' ? 'min' : 'max';
    // "which had more GER numbers, 1898 or 1893": the number named, each value's rows add up — a
    // comparative weighs what each value has in all; "did A or B make the most laps" asks for one row
    totals = comparing && /\b(more|fewer|less)\b/.test(q) && (named || reading === 'items');
    const before = hits.filter((h) => h.col !== measure && h.pos < (hits.find((x) => x.col === measure)?.pos ?? q.length));
    // "what year was his first year": the year compared is the answer
    const yearAsked = says(q, words.when, words) && measure !== undefined && DATED.test(measure.name);
    answer = comparing
      ? table.columns.find((c) => conditionCols.has(c.col))
      : yearAsked
        ? measure
        : (askedColumn(q, table, new Set([measure?.col ?? -1]), words) ??
          before[0]?.col ??
          whoColumn(q, table, new Set([measure?.col ?? -1])) ??
          (THING_ASKED.test(q) ? undefined : measure));
    answer ??= typedColumn(q, table, new Set([measure?.col ?? -1]), words);
    if (!named && reading === 'value' && !byTime && !comparing && MOST_ROWS.test(q) && answer && repeats(table, answer)) {
      frequency = true;
      measure = undefined;
    }
  } else if (op === 'same') {
    measure = shared;
    const anchorCol = matched[0]?.cells.find((c) => c.col !== shared?.col)?.col;
    answer =
      askedColumn(q, table, new Set([shared?.col ?? -1]), words) ??
      whoColumn(q, table, new Set([shared?.col ?? -1])) ??
      table.columns.find((c) => c.col === anchorCol);
  } else if (op === 'next' || op === 'previous') {
    // "the title listed after Parva": the named column may be the one the anchor row was found in.
    // "the next opening act after the Cadillac Tramps": by default the column the anchor value is in.
    const anchorCol = matched[0]?.cells[0]?.col;
    // "2021年の次の年度の従業員数": a column named besides the one the anchor value is in
    const other = hits.find((h) => h.col.col !== anchorCol && !conditionCols.has(h.col.col))?.col;
    answer =
      askedColumn(q, table, new Set(), words) ??
      (unspaced(words) ? other : undefined) ??
      table.columns.find((c) => c.col === anchorCol) ??
      hits[0]?.col ??
      table.columns.find((c) => conditionCols.has(c.col));
  } else {
    // "who is the only person to rank from Jamaica": a person, not the number of the named column
    const who = /^\s*who\b/.test(q);
    // "name one that is not in the Tikamgarh district": the column the negated words name is no answer
    const ruledOut = new Set(conditionCols);
    if (exclusion?.negated)
      for (const c of table.columns) if ([...c.terms].some((t) => exclusion.terms.has(t))) ruledOut.add(c.col);
    const named = hits.filter((h) => !ruledOut.has(h.col.col));
    // 「木星的公转周期」 over a row 「别名 | 岁星 | 公转周期 | 11.862年」: the value beside the label named —
    // unless the question says every word of a column's header of two words or more (「年初…递延所得税资产…余额」
    // names 「年初余额 / 递延所得税资产」; the character pairs (#) a header's words make aside): then the
    // column it names holds the value, not the cell beside the label
    const words1 = (c: QaColumn): string[] => [...c.terms].filter((t) => !t.startsWith('#'));
    const saidWhole = named
      .filter((h) => words1(h.col).length >= 2 && words1(h.col).every((t) => qTerms.has(t)))
      .sort((a, b) => words1(b.col).length - words1(a.col).length)[0]?.col;
    // 「期初时，综合服务费有多少？」 over 「期末数 | 期初数」: in a column of numbers, a word of its header
    // that no other header and no cell says names it (a profile's columns hold labels and values alike,
    // and are read by label; a word a cell says may name the row)
    const cellTerms = rowFrequencies(table);
    const alone = (c: QaColumn, t: string): boolean =>
      qTerms.has(t) && !cellTerms.has(t) && !table.columns.some((x) => x !== c && x.terms.has(t));
    const saidAlone = named.find((h) => h.col.numeric >= 0.6 && words1(h.col).some((t) => alone(h.col, t)))?.col;
    const headerSaid = who ? undefined : (saidWhole ?? saidAlone);
    const label =
      op === 'lookup' && !headerSaid
        ? labelValue(
            question,
            table,
            // the row a quoted name says whole is the one its label is looked for in
            saidRow ? [saidRow] : matched.map((m) => m.row),
            unspaced(words),
          )
        : undefined;
    // the row of the label named leads
    const labelled = matched.findIndex((m) => m.row === label?.row);
    if (labelled > 0) matched.unshift(...matched.splice(labelled, 1));
    const beside = label?.col;
    answer =
      askedColumn(q, table, ruledOut, words) ??
      beside ??
      (op === 'lookup' ? headerSaid : undefined) ??
      named.find((h) => !who || h.col.numeric < 0.5)?.col ??
      whoColumn(q, table, ruledOut) ??
      typedColumn(q, table, ruledOut, words);
    // "how many goals did X score": the named number of the row; "how many years did X coach": rows are counted
    if (op === 'count')
      measure = named.find((h) => h.col.numeric >= 0.5 && !DATED.test(h.col.name) && !ordinal(table, h.col))?.col;
    // "how many people didn't name their language": one row answers, and its number is the count
    const single = matched.filter((m) => m.score >= 0.5 * best).length === 1;
    // "how many tons does the TE class displace": the column whose cells are counted in tons;
    // "how many medals did Venezuela win": the row's Total
    if (op === 'count' && !measure && single) measure = unitColumn(q, table) ?? totalColumn(table);
    if (
      op === 'count' &&
      !measure &&
      single &&
      answer &&
      answer.numeric >= 0.6 &&
      !DATED.test(answer.name) &&
      !ordinal(table, answer)
    )
      measure = answer;
  }
  if (yearCols.length > 0 && !says(q, words.when, words)) {
    const inYear = (c: QaColumn | undefined): boolean => c !== undefined && yearCols.includes(c);
    const pick = yearUnder(table, yearCols, hits) ?? yearCols[0];
    // "how many shares were purchased in 2019" of one named row: that row's number in the year's column
    const single = matched.filter((m) => m.score >= 0.5 * best).length === 1;
    if (op === 'count' && !measure && !bound && single) op = 'lookup';
    if (op === 'lookup' && !inYear(answer)) answer = pick;
    else if (measure && periods.years.has(measure.col) && !inYear(measure)) measure = pick;
  }
  const filter =
    op === 'lookup' || op === 'count' || op === 'first' || op === 'last'
      ? numericFilter(
          bound,
          table,
          hits.map((h) => h.col),
        )
      : undefined;
  if (filter) {
    if (op === 'count') measure = undefined;
    if (answer?.col === filter.col.col) {
      const not = new Set([filter.col.col]);
      answer = askedColumn(q, table, not, words) ?? whoColumn(q, table, not) ?? typedColumn(q, table, not, words);
    }
  }
  return {
    words,
    op,
    answer,
    measure,
    reading,
    filter,
    matched,
    comparing,
    totals,
    within,
    frequency,
    excluded,
    kept: op === 'next' || op === 'previous' ? keptCell(normal(question), table, matched[0], answer) : undefined,
    listOrder: LIST_ORDER.test(q),
    coverage: total === 0 ? 1 : held / total,
    focus: total === 0 ? 1 : focused / total,
    rowCoverage: total === 0 ? 0 : rowHeld / total,
    unseen: total === 0 ? 0 : unseen / total,
    headerCoverage: total === 0 ? 0 : headerHeld / total,
    missing: heaviest === 0 ? 0 : lacking / heaviest,
    periodFit: year === undefined ? 0 : yearCols.length > 0 ? 1 : -1,
  };
}
