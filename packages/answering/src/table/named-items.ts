import type { QaRow, QaTable } from './model.js';
import { ownCells } from './model.js';

/** A name as a row's label says it: NFKC, no spaces, no lenticular or corner brackets (【電話番号】 is 電話番号). */
const bare = (s: string): string => s.normalize('NFKC').replace(/[\s【】「」『』〔〕]+/gu, '');

/** The items of a name the question quotes, joined by 「、」 or 「，」. */
function quotedItems(question: string): string[] {
  const quoted = /「([^」]+)」|『([^』]+)』/u.exec(question);
  const text = quoted?.[1] ?? quoted?.[2];
  if (!text) return [];
  return text.split(/[、，]/u).map((s) => s.trim());
}

/** A cell of words, not an amount (「１株当たり純資産額」 starts with a digit and is a label). */
export const WORDED = /\p{L}{2}/u;

/** A name without the note in brackets it ends with: 「為替換算調整勘定（税引後）」 is 為替換算調整勘定. */
const unnoted = (s: string): string => s.replace(/[(（][^()（）]*[)）]$/u, '');

/**
 * The rows that have a cell of their own (of words, not an amount) saying the name whole, in table
 * order; when none does, those saying it with the note in brackets either ends with left out.
 */
function rowsSaying(table: QaTable, name: string): QaRow[] {
  const want = bare(name);
  if (want.length < 2) return [];
  const saying = (same: (text: string) => boolean): QaRow[] =>
    table.rows.filter((r) => ownCells(r).some((c) => WORDED.test(c.text) && same(bare(c.text))));
  const exact = saying((t) => t === want);
  if (exact.length > 0 || unnoted(want).length < 2) return exact;
  return saying((t) => unnoted(t) === unnoted(want));
}

/**
 * The rows that give the name a value: those saying it with a value beside it; for a heading row
 * that says it alone (「流動資産」 over its items), the row of its total below (「流動資産合計」).
 */
function valuedRows(table: QaTable, name: string, totals: string[]): QaRow[] {
  const saying = rowsSaying(table, name);
  const valued = saying.filter((r) => ownCells(r).length >= 2);
  if (valued.length > 0 || saying.length === 0) return valued;
  const want = bare(name);
  const total = (r: QaRow): boolean =>
    ownCells(r).length >= 2 && ownCells(r).some((c) => WORDED.test(c.text) && totals.some((t) => bare(c.text) === want + t));
  return saying.flatMap((h) => table.rows.slice(h.index + 1).find(total) ?? []);
}

/**
 * 「電話番号、本店の所在の場所、表紙」, 「その他、無形固定資産」, 「引当金、非流動負債」: a quoted name
 * of several items joined by 、 says the row asked about and then where it sits — the part of the
 * table a heading row above it opens, a group, the table itself. The row is the first item (or run
 * of items: 「工具、器具及び備品」) that a row's label says whole; when several rows say it, the one
 * under the nearest row another item names (the 電話番号 under 本店の所在の場所, not the one under
 * 最寄りの連絡場所). A heading row that says the name with no value answers by its total row
 * (`totals`: the language's words of a total, 「合計」). Undefined when the question quotes no name
 * that a row says whole.
 */
export function namedRow(question: string, table: QaTable, totals: string[]): QaRow | undefined {
  const items = quotedItems(question);
  for (let i = 0; i < items.length; i++) {
    for (let j = items.length - 1; j >= i; j--) {
      const rows = valuedRows(table, items.slice(i, j + 1).join('、'), totals);
      if (rows.length === 0) continue;
      if (rows.length === 1) return rows[0];
      const others = [...items.slice(0, i), ...items.slice(j + 1)];
      const marks = others.flatMap((o) => rowsSaying(table, o)).map((r) => r.index);
      let best: { row: QaRow; gap: number } | undefined;
      for (const row of rows) {
        const above = Math.max(-1, ...marks.filter((m) => m < row.index));
        if (above < 0) continue;
        if (!best || row.index - above < best.gap) best = { row, gap: row.index - above };
      }
      return best?.row ?? rows[0];
    }
  }
  return undefined;
}
