import type { CellReading } from './cell-measure.js';
import { groupExtreme, measureOf } from './cell-measure.js';
import { EN } from './lexicon/en.js';
import type { TableWords } from './lexicon/index.js';
import { said } from './lexicon/index.js';
import { JA } from './lexicon/ja.js';
import { ZH_HANS } from './lexicon/zh-hans.js';
import { ZH_HANT } from './lexicon/zh-hant.js';
import { DATED } from './locate-columns.js';
import { excludedCell } from './locate-rows.js';
import type { QaCell, QaColumn, QaRow, QaTable } from './model.js';
import { folded, valued } from './model.js';
import type { TablePlan } from './question.js';
import { sectionRows } from './sections.js';

/** A plan's answer on its table: the cells it used, the one that answers (none when computed), the value and how it was found. */
export interface Result {
  cells: QaCell[];
  answerCell?: QaCell;
  value: string;
  how: string;
}

/** A totals row's label, in any of the lexicons' words ("Total", 「合計」, 「合计」). */
const TOTAL_ROW = new RegExp(`\\b(?:${EN.sum.join('|')})s?\\b|${[JA, ZH_HANS, ZH_HANT].flatMap((w) => w.sum).join('|')}`, 'iu');

/** Data rows that are not a totals row ("Total", 「合計」), which superlatives and counts leave out. */
export function bodyRows(table: QaTable): QaRow[] {
  return table.rows.filter((r) => ![...r.cells.values()].some((c) => c.col === [...r.cells.keys()][0] && TOTAL_ROW.test(c.text)));
}

const fmt = (n: number): string => (Number.isInteger(n) ? String(n) : String(Math.round(n * 1000) / 1000));

function pickExtreme(rows: QaRow[], col: number, op: 'max' | 'min', reading: CellReading): QaRow | undefined {
  let best: QaRow | undefined;
  let value = op === 'max' ? -Infinity : Infinity;
  for (const r of rows) {
    const n = measureOf(r.cells.get(col), reading);
    if (n === null || n === undefined) continue;
    if (op === 'max' ? n > value : n < value) {
      value = n;
      best = r;
    }
  }
  return best;
}

function answerOf(row: QaRow | undefined, col: number | undefined, how: string, extra: QaCell[] = []): Result | undefined {
  if (!row) return undefined;
  const cell = (col !== undefined ? row.cells.get(col) : undefined) ?? [...row.cells.values()][0];
  if (!cell) return undefined;
  return { cells: [cell, ...extra.filter((c) => c !== cell)], answerCell: cell, value: cell.text, how };
}

/** "the same score as the game in Benin": the first other row whose cell in the column reads as the named row's. */
function sameAs(
  table: QaTable,
  anchor: QaRow,
  col: { col: number; name: string },
  answer: { col: number } | undefined,
  name: (c: { name: string }) => string,
  say: TableWords['say'],
): Result | undefined {
  const own = anchor.cells.get(col.col);
  if (!own || own.text.trim() === '') return undefined;
  const row = bodyRows(table).find((r) => r !== anchor && folded(r.cells.get(col.col)?.text ?? '') === folded(own.text));
  const same = row?.cells.get(col.col);
  return answerOf(row, answer?.col, said(say.same, { col: name(col), a: own.text }), [...(same ? [same] : []), own]);
}

/** "from where did it receive the most accolades?": the value of a column the most (or fewest) rows hold, citing each. */
function mostHeld(rows: QaRow[], col: QaColumn, op: 'max' | 'min', saying: string): Result | undefined {
  const groups = new Map<string, QaCell[]>();
  for (const r of rows) {
    const c = r.cells.get(col.col);
    if (!c || c.text.trim() === '') continue;
    const key = folded(c.text);
    groups.set(key, [...(groups.get(key) ?? []), c]);
  }
  let best: QaCell[] | undefined;
  for (const g of groups.values()) if (!best || (op === 'max' ? g.length > best.length : g.length < best.length)) best = g;
  const [first, ...rest] = best ?? [];
  if (!first) return undefined;
  return {
    cells: [first, ...rest],
    answerCell: first,
    value: first.text,
    how: said(saying, { col: col.name || 'value', n: best?.length ?? 0, b: rows.length }),
  };
}

/** A year a cell starts with ("2013", "2009–10", "March 28, 2009" ends with one). */
const YEAR = /^\s*(\d{4})\b|\b(\d{4})\s*$/;

/**
 * A table that lists its newest rows first: its first dated column (year, date, season) reads, down
 * the rows, years that never rise and fall from the first row to the last.
 */
function newestFirst(table: QaTable): boolean {
  const col = table.columns.find((c) => DATED.test(c.name));
  if (!col) return false;
  const years = table.rows
    .map((r) => YEAR.exec(r.cells.get(col.col)?.text ?? ''))
    .filter((m): m is RegExpExecArray => m !== null)
    .map((m) => Number(m[1] ?? m[2]));
  const first = years[0];
  const last = years.at(-1);
  if (years.length < 3 || first === undefined || last === undefined || first <= last) return false;
  return years.every((y, i) => i === 0 || y <= (years[i - 1] as number));
}

/** A row holding a cell that is all of the value the question leaves out. */
const holdsExcluded = (r: QaRow, excluded: Set<string>): boolean => [...r.cells.values()].some((c) => excludedCell(c, excluded));

/** Runs a plan on its table. */
export function execute(table: QaTable, plan: TablePlan): Result | undefined {
  const { op, answer, measure, matched } = plan;
  const best = matched[0];
  const strong = matched.filter((m) => best && m.score >= 0.5 * best.score);
  const say = plan.words.say;
  const name = (c: { name: string } | undefined): string => c?.name || say.value;
  if (plan.filter) {
    const f = plan.filter;
    const passes = (n: number): boolean =>
      f.above ? n > f.value || (f.inclusive && n === f.value) : n < f.value || (f.inclusive && n === f.value);
    const rows = bodyRows(table).filter((r) => {
      const n = r.cells.get(f.col.col)?.num;
      return n != null && passes(n);
    });
    const bound = `${name(f.col)} ${f.above ? (f.inclusive ? '≥' : '>') : f.inclusive ? '≤' : '<'} ${fmt(f.value)}`;
    const used = rows.map((r) => r.cells.get(f.col.col)).filter((c): c is QaCell => c !== undefined);
    if (op === 'count') return { cells: used, value: String(rows.length), how: said(say.countBound, { n: rows.length, bound }) };
    if (rows.length === 0) return undefined;
    const row = op === 'last' ? rows.at(-1) : rows[0];
    const m = row?.cells.get(f.col.col);
    return answerOf(row, answer?.col, said(op === 'last' ? say.lastBound : say.firstBound, { bound }), m ? [m] : []);
  }
  if (op === 'same' && measure && best) return sameAs(table, best.row, measure, answer, name, say);
  if (op === 'lookup' || (op === 'count' && measure && best)) {
    const col = op === 'count' ? measure?.col : answer?.col;
    // "name one that is not in the Tikamgarh district": with no other row named, the first row without the value
    const free = (r: QaRow): boolean => !plan.excluded || !holdsExcluded(r, plan.excluded);
    const row =
      matched.find((m) => col === undefined || m.row.cells.has(col))?.row ??
      (plan.excluded && op === 'lookup' ? bodyRows(table).find(free) : undefined);
    return answerOf(row, col, said(say.lookup, { col: name(op === 'count' ? measure : answer) }));
  }
  if (op === 'next' || op === 'previous') {
    if (!best) return undefined;
    // "the winner before X" in a table that lists the newest first: the row before in time is the one below
    const step = (op === 'next' ? 1 : -1) * (!plan.listOrder && newestFirst(table) ? -1 : 1);
    const col = answer?.col ?? best.cells[0]?.col;
    const own = col === undefined ? undefined : best.row.cells.get(col)?.text;
    // the next row with another value in the answer column (a coach over several seasons is one step)
    let i = best.row.index + step;
    const same = (r: QaRow | undefined): boolean =>
      r !== undefined && col !== undefined && (!r.cells.has(col) || r.cells.get(col)?.text === own);
    while (same(table.rows[i])) i += step;
    // no other value that way: the next row itself ("the competition after Paris" is World Championships again)
    if (!table.rows[i] && table.rows[best.row.index + step]) i = best.row.index + step;
    // "the previous Asian Championships": on to the row that holds the same value the question quotes
    const kept = plan.kept;
    if (kept) {
      const holds = (r: QaRow | undefined): boolean => folded(r?.cells.get(kept.col)?.text ?? '') === folded(kept.text);
      while (table.rows[i] && !holds(table.rows[i])) i += step;
    }
    const target = table.rows[i];
    return answerOf(target, col, op === 'next' ? say.after : say.before, best.cells);
  }
  if ((op === 'max' || op === 'min') && plan.frequency && answer)
    return mostHeld(bodyRows(table), answer, op, op === 'max' ? say.mostRows : say.fewestRows);
  if (op === 'max' || op === 'min') {
    if (!measure) return undefined;
    const compared = plan.comparing && strong.length >= 2 && strong.length < table.rows.length;
    // "of the members of the third incarnation, who served the longest": the rows under the heading named
    const section = best ? sectionRows(table, best.row) : undefined;
    const pool = compared || (plan.within && strong.length > 0) ? strong.map((m) => m.row) : (section ?? bodyRows(table));
    const counted = { value: '', items: say.items, length: say.lasted }[plan.reading];
    const group = compared && plan.totals ? groupExtreme(strong, measure, plan.reading, op) : undefined;
    if (group) {
      return {
        cells: [group.key, ...group.cells],
        answerCell: group.key,
        value: group.key.text,
        how: said(op === 'max' ? say.largestTotal : say.smallestTotal, {
          col: `${counted}${name(measure)}`,
          a: fmt(group.total),
          n: group.cells.length,
        }),
      };
    }
    // "other than Beijing, which city is the largest": rows holding the value left out are no answer
    const kept = plan.excluded ? pool.filter((r) => !holdsExcluded(r, plan.excluded as Set<string>)) : pool;
    const row = pickExtreme(valued(kept, answer?.col), measure.col, op, plan.reading);
    const m = row?.cells.get(measure.col);
    return answerOf(
      row,
      answer?.col,
      said(op === 'max' ? say.largest : say.smallest, { col: `${counted}${name(measure)}`, n: pool.length }),
      m ? [m] : [],
    );
  }
  if (op === 'first' || op === 'last') {
    // rows the question names (not rows that merely repeat a header word: "the last yacht's skipper")
    const pool =
      best && best.score >= 1.5 && best.own > 0 ? strong.map((m) => m.row).sort((a, b) => a.index - b.index) : table.rows;
    const rows = valued(pool, answer?.col);
    const row = op === 'first' ? rows[0] : rows.at(-1);
    const matching = pool !== table.rows;
    return answerOf(
      row,
      answer?.col,
      op === 'first' ? (matching ? say.firstMatching : say.first) : matching ? say.lastMatching : say.last,
    );
  }
  if (op === 'count' || op === 'sum') {
    const pool =
      strong.length > 0 ? strong : bodyRows(table).map((row) => ({ row, score: 0, cells: [...row.cells.values()].slice(0, 1) }));
    if (op === 'sum' && measure) {
      const cells = pool.map((m) => m.row.cells.get(measure.col)).filter((c): c is QaCell => c?.num != null);
      if (cells.length === 0) return undefined;
      // the total of one row is that row's cell: a lookup, never phrased as a sum
      const [only] = cells;
      if (cells.length === 1 && only)
        return { cells, answerCell: only, value: only.text, how: said(say.lookup, { col: name(measure) }) };
      const total = cells.reduce((s, c) => s + (c.num as number), 0);
      return { cells, value: fmt(total), how: said(say.sum, { col: name(measure), n: cells.length }) };
    }
    const cells = pool.map((m) => m.cells[0]).filter((c): c is QaCell => c !== undefined);
    return {
      cells,
      value: String(pool.length),
      how: said(strong.length > 0 ? say.countMatching : say.count, { n: pool.length }),
    };
  }
  if (op === 'difference' && measure && strong.length >= 2) {
    const [a, b] = strong.map((m) => m.row.cells.get(measure.col)).filter((c): c is QaCell => c?.num != null);
    if (!a || !b) return undefined;
    return {
      cells: [a, b],
      value: fmt(Math.abs((a.num as number) - (b.num as number))),
      how: said(say.difference, { col: name(measure), a: a.text, b: b.text }),
    };
  }
  return undefined;
}
