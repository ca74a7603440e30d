import type { QaCell, QaColumn, QaRow, QaTable } from './model.js';
import { folded, ownCells, termsOf, unaccented } from './model.js';
import { WORDED } from './named-items.js';
import { datedRows } from './period-columns.js';
import type { Exclusion } from './plan-op.js';
import { daysOf, yearSpan } from './plan-op.js';

/** A row the question's values pick, with how well they pick it and the cells they were found in. */
export interface RowMatch {
  row: QaRow;
  score: number;
  /** The part of the score from words no header holds and from quoted cells: what names this row rather than a column. */
  own: number;
  cells: QaCell[];
  quoted: boolean;
}

/** A cell that reads as a year (or starts with one: "1990–91") inside a span. */
const inSpan = (cell: QaCell, span: [number, number]): boolean =>
  cell.num !== null && Number.isInteger(cell.num) && /^\s*\d{4}\b/.test(cell.text) && cell.num >= span[0] && cell.num < span[1];

/** A cell that holds a named month and day. */
function holdsDay(text: string, days: { month: string; day: string }[]): boolean {
  const words = text.split(' ');
  return days.some((d) => words.includes(d.day) && words.some((w) => w.startsWith(d.month)));
}

/** A text as matched against the question: NFKC, lower case, words parted by one space. */
export const normal = (s: string): string =>
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
export const termsOfRows = (table: QaTable): Set<string>[] => rowStats(table).rows;

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
export const rowFrequencies = (table: QaTable): Map<string, number> => rowStats(table).df;

/** Rows whose cells carry the question's values: rarer terms count more, a whole cell quoted counts most. */
export function matchRows(
  table: QaTable,
  qNorm: string,
  qTerms: Map<string, number>,
  headerTerms: Set<string>,
  namedCols: Map<number, number>,
  unspacedQuestion: boolean,
): RowMatch[] {
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
export function excluding(table: QaTable, exclusion: Exclusion | undefined, matched: RowMatch[]): RowMatch[] {
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

/** A cell of the named row the question quotes whole, not in the answer column, whose value other rows hold too. */
export function keptCell(
  qNorm: string,
  table: QaTable,
  anchor: RowMatch | undefined,
  answer: QaColumn | undefined,
): QaCell | undefined {
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
 * The terms rows are matched by: "vigerbo university", a word no document holds, one letter off a
 * word of this table, finds that word's rows (it still counts as missing when the table's fit and the
 * refusal read the question).
 */
export function nearTerms(qTerms: Map<string, number>, table: QaTable, weights: Map<string, number>): Map<string, number> {
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
  return rowTerms;
}

/**
 * 「2019年時点における「建設仮勘定」」, "as of December 31, 2019": what stood at a time, in a table
 * whose rows are balances on dates, is read from the row of that year's last date — the rows dated in
 * the year, the last first, each matched by its label (none when no row is dated in it).
 */
export function balanceRows(table: QaTable, year: number): RowMatch[] {
  const label = table.columns[0]?.col ?? 0;
  const onDate = [...datedRows(table)].filter(([, y]) => y === year).map(([r]) => r);
  return onDate.reverse().map((row) => {
    const cell = row.cells.get(label);
    return { row, score: 1, own: 1, cells: cell ? [cell] : [], quoted: true };
  });
}

/** 「電話番号、本店の所在の場所」: the row a quoted name says whole, under the part of the table it names, leads. */
export function leadingRow(saidRow: QaRow | undefined, matched: RowMatch[]): RowMatch[] {
  if (!saidRow || matched[0]?.row === saidRow) return matched;
  const found = matched.find((m) => m.row === saidRow);
  // its label: the first cell of its own that is words
  const label = ownCells(saidRow)
    .filter((c) => WORDED.test(c.text))
    .sort((a, b) => a.col - b.col)
    .slice(0, 1);
  return [
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
