/** One non-empty cell of a row, as shown. */
export interface ShownCell {
  col: number;
  ref: string;
  value: string;
  /** SheetJS cell type: s(tring) n(umber) b(oolean) d(ate) e(rror) z(stub). */
  type: string;
}

export interface ShownRow {
  /** 1-based row number in the sheet (or CSV record index + 1). */
  row: number;
  cells: ShownCell[];
}

function looksLikeHeader(row: ShownRow, next: ShownRow | undefined): boolean {
  if (!next || row.cells.length < 2) return false;
  if (!row.cells.every((c) => c.type === 's' && c.value.trim() !== '' && !/^[-+]?\d[\d,.]*$/.test(c.value.trim()))) return false;
  const values = new Set(row.cells.map((c) => c.value.trim().toLowerCase()));
  if (values.size !== row.cells.length) return false;
  // the row below must be data-like: a non-text cell, or a different shape of values
  const nextHasData = next.cells.some((c) => c.type !== 's' || /^[-+]?\d[\d,.]*$/.test(c.value.trim()));
  return nextHasData || next.cells.length >= Math.ceil(row.cells.length / 2);
}

/**
 * Splits rows into blocks separated by blank rows (sub-tables) and finds each block's header row:
 * the first (or, after a one-cell title row, the second) row whose cells are distinct non-numeric text
 * above a data-like row. Returns, per row number, the header row that applies to it.
 */
export function detectHeaders(rows: ShownRow[]): Map<number, ShownRow> {
  const headerOf = new Map<number, ShownRow>();
  let i = 0;
  while (i < rows.length) {
    let end = i + 1;
    while (end < rows.length && (rows[end]?.row ?? 0) === (rows[end - 1]?.row ?? 0) + 1) end++;
    const block = rows.slice(i, end);
    const candidates = block[0] && block[0].cells.length === 1 ? [1, 0] : [0];
    for (const k of candidates) {
      const head = block[k];
      if (head && looksLikeHeader(head, block[k + 1])) {
        for (const r of block.slice(k)) headerOf.set(r.row, head);
        break;
      }
    }
    i = end;
  }
  return headerOf;
}

/** Header text per column for a data row, '' where the header has no cell. */
export function headerNames(header: ShownRow): Map<number, string> {
  return new Map(header.cells.map((c) => [c.col, c.value.trim()]));
}
