import { EN } from './lexicon/en.js';
import type { TableWords } from './lexicon/index.js';
import { JA } from './lexicon/ja.js';
import { ZH_HANS } from './lexicon/zh-hans.js';
import { ZH_HANT } from './lexicon/zh-hant.js';
import type { RowMatch } from './locate-rows.js';
import type { QaCell, QaColumn, QaTable } from './model.js';
import { termsOf } from './model.js';
import { askedTerms, howMany, MONTH } from './plan-op.js';
import { phraseAt, says } from './question-words.js';

/** A header that names a time: its year, date, season or period, in any of the lexicons' words. */
export const DATED = new RegExp(
  `\\b(?:${EN.timeHeaders.join('|')})\\b|${[JA, ZH_HANS, ZH_HANT].flatMap((w) => w.timeHeaders).join('|')}`,
  'iu',
);
/** A header that names a time, or the time of day. */
const TIMED = new RegExp(`${DATED.source}|\\b(?:time|when|period)\\b`, 'iu');

/** A header that names a place in an order: a position, rank, peak or finish. */
const RANKED = /\b(pos|position|positions|place|placing|rank|ranking|peak|chart|finish|finished|standing)\b/i;

/** A column of places in an order: its header names one, or most of its cells read "1st", "#77". */
export function ranked(table: QaTable, col: QaColumn): boolean {
  if (RANKED.test(col.name)) return true;
  const cells = table.rows.map((r) => r.cells.get(col.col)?.text.trim() ?? '').filter((t) => t !== '');
  const places = cells.filter((t) => /^(?:#\s*\d+|\d+(?:st|nd|rd|th))\b/i.test(t));
  return cells.length > 0 && places.length * 2 > cells.length;
}

/**
 * The numeric column the words right after a superlative name word for word, the last of them:
 * "the fewest participating nations" compares Nations, not Participants.
 */
export function superlativeColumn(
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

/** A column whose header words the question says: how well (their weight), and where it first says one. */
export interface HeaderHit {
  col: QaColumn;
  score: number;
  pos: number;
}

/** Column header words found in the question, with the position of the first one. */
export function headerHits(q: string, qTerms: Map<string, number>, columns: QaColumn[]): HeaderHit[] {
  const out: HeaderHit[] = [];
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

/** A column of amounts of money: its name says so, or its cells carry a currency sign. */
export function money(table: QaTable, col: QaColumn): boolean {
  if (/\b(gross|revenue|prize|purse|earnings?|sales|budget|cost)\b|[$€£]/i.test(col.name)) return true;
  const cells = table.rows.map((r) => r.cells.get(col.col)?.text ?? '').filter((t) => t !== '');
  return cells.length > 0 && cells.filter((t) => /[$€£¥]/.test(t)).length >= cells.length / 2;
}

/** A running number (1, 2, 3 … down the rows): it numbers rows, it measures nothing. */
export function ordinal(table: QaTable, col: QaColumn): boolean {
  const nums = table.rows.map((r) => r.cells.get(col.col)?.num).filter((n): n is number => n != null);
  return nums.length >= 3 && nums.every((n, i) => i === 0 || n === (nums[i - 1] as number) + 1);
}

/** A column some value of which two rows or more hold. */
export function repeats(table: QaTable, col: QaColumn): boolean {
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
export function typedColumn(q: string, table: QaTable, exclude: Set<number>, words: TableWords): QaColumn | undefined {
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
export function askedColumn(q: string, table: QaTable, exclude: Set<number>, words: TableWords): QaColumn | undefined {
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
export function unitColumn(q: string, table: QaTable): QaColumn | undefined {
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
export const totalColumn = (table: QaTable): QaColumn | undefined =>
  table.columns.find((c) => /^\s*total\s*$/i.test(c.name) && c.numeric >= 0.6);

/** "who …" asks for the row's name: its first text column. */
export function whoColumn(q: string, table: QaTable, exclude: Set<number>): QaColumn | undefined {
  if (!/^\s*who\b|\bwho\s+(is|was|were|had|has|did)\b/.test(q)) return undefined;
  return table.columns.find((c) => !exclude.has(c.col) && c.numeric < 0.5);
}

/**
 * "the same score as the game in Benin": the column the question names that the row it names holds
 * a value in but was not found by (the Score, not the Venue that says Benin).
 */
export function sharedColumn(hits: { col: QaColumn }[], anchor: RowMatch | undefined): QaColumn | undefined {
  if (!anchor) return undefined;
  const found = new Set(anchor.cells.map((c) => c.col));
  return hits.find((h) => !found.has(h.col.col) && anchor.row.cells.get(h.col.col)?.text)?.col;
}

/**
 * The year's column under the column the question names: "cash dividend per share in 2019" over a
 * header "Cash dividend per share" spanning the years 2018 and 2019 (the span's other columns have no
 * name of their own). The first year column the question names when none is under one.
 */
export function yearUnder(table: QaTable, yearCols: QaColumn[], hits: { col: QaColumn }[]): QaColumn | undefined {
  for (const { col } of hits) {
    for (const c of table.columns.filter((x) => x.col >= col.col)) {
      if (c.col > col.col && c.name.trim() !== '' && c.name !== col.name) break;
      if (yearCols.includes(c)) return c;
    }
  }
  return undefined;
}

/**
 * The columns the question's values were found in, in the rows matched well: conditions on rows, not
 * the answer. "which party won …": a cell "Australian Labor Party" that holds only the noun asked for
 * (a noun that names a column) is what is asked, not a condition.
 */
export function conditionColumns(q: string, table: QaTable, matched: RowMatch[], rowTerms: Map<string, number>): Set<number> {
  const best = matched[0]?.score ?? 0;
  const { terms: askedNoun } = askedTerms(q);
  const asked =
    askedNoun.size > 0 &&
    (table.columns.some((c) => [...askedNoun].some((t) => c.terms.has(t))) || holdingColumn(table, table.columns, askedNoun))
      ? askedNoun
      : new Set<string>();
  const onlyAsked = (c: QaCell): boolean =>
    asked.size > 0 && !matched[0]?.quoted && [...c.terms].filter((t) => rowTerms.has(t)).every((t) => asked.has(t));
  return new Set(
    matched
      .filter((m) => m.score >= 0.5 * best)
      .flatMap((m) => m.cells.filter((c) => c.element === m.row.element && !onlyAsked(c)).map((c) => c.col)),
  );
}
