import type { QaCell, QaColumn, QaRow, QaTable } from './model.js';

/** A text as matched against the question: NFKC, lower case, words parted by one space, brackets and punctuation dropped. */
const plain = (s: string): string =>
  s
    .normalize('NFKC')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim();

/** Does the question (plain) say the text whole: anywhere where words are not spaced, as whole words where they are? */
const quotes = (q: string, text: string, unspaced: boolean): boolean =>
  text.length >= 2 && (unspaced ? q.includes(text) : ` ${q} `.includes(` ${text} `));

/**
 * A table that lays its facts out as labels and values side by side in its rows (a spec sheet, a
 * company's profile: 「屏幕尺寸 | 1.75英寸 | 防水 | 50米」, "Founded | 1998"): the question names a
 * label the row holds, and the value is the cell to its right. The column of that value, when the
 * question names no column of the table whole and the row it is about holds a label it quotes whose
 * right neighbour it does not quote — in the best-matched row that has one — the rightmost such label (a row's name comes first). Where
 * spaces part words, only in a table whose columns have no names of their own (a list with named
 * columns — "Title | Publisher | Notes" — is read by its columns: a quoted publisher is a condition).
 */
export function labelValue(
  question: string,
  table: QaTable,
  rows: QaRow[],
  unspaced: boolean,
): { row: QaRow; col: QaColumn } | undefined {
  const q = plain(question);
  if (table.columns.some((c) => quotes(q, plain(c.name), unspaced))) return undefined;
  if (!unspaced && new Set(table.columns.map((c) => plain(c.name)).filter((n) => n !== '')).size >= 2) return undefined;
  const isLabel = (c: QaCell): boolean => c.num === null && quotes(q, plain(c.text), unspaced);
  // the rows the question matches best first: 「臺北青禾服飾股份有限公司的董事長」 matches the company's row
  // (no value beside the name) before the row of its label 董事長
  for (const row of rows.slice(0, LABEL_ROWS)) {
    const cells = [...new Set(row.cells.values())].sort((a, b) => b.col - a.col);
    for (const key of cells.filter(isLabel)) {
      const value = row.cells.get(key.col + 1);
      if (!value || value === key || plain(value.text) === '' || plain(value.text) === plain(key.text)) continue;
      if (quotes(q, plain(value.text), unspaced)) continue;
      const col = table.columns.find((c) => c.col === key.col + 1);
      if (col) return { row, col };
    }
  }
  return undefined;
}

/** The best-matched rows a label is looked for in. */
const LABEL_ROWS = 3;
