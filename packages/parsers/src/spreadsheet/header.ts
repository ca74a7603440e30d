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

/** A table found in a run of rows: its header rows (none, one or two) and the header name of each column. */
export interface TableBlock {
  rows: ShownRow[];
  headers: ShownRow[];
  names: Map<number, string>;
}

const NUMBER = /^[-+]?\d[\d,.]*$/;
const isText = (c: ShownCell): boolean => c.type === 's' && c.value.trim() !== '' && !NUMBER.test(c.value.trim());

function looksLikeHeader(row: ShownRow, next: ShownRow | undefined): boolean {
  if (!next || row.cells.length < 2) return false;
  if (!row.cells.every(isText)) return false;
  // the row below must be data-like: a non-text cell, or a different shape of values
  const nextHasData = next.cells.some((c) => c.type !== 's' || NUMBER.test(c.value.trim()));
  // mostly distinct names ("Tenure | Tenure" over a start and an end date is still a header); over a
  // row of data, half will do ("Men | Sport | Women | Sport | …": each name with its sport)
  const values = new Set(row.cells.map((c) => c.value.trim().toLowerCase()));
  if (values.size < (nextHasData ? 0.5 : 0.75) * row.cells.length) return false;
  return nextHasData || next.cells.length >= Math.ceil(row.cells.length / 2);
}

/**
 * A second header row under a first one with gaps (a merged group heading such as "Sales" over
 * "Q1 | Q2"): all text, filling columns the first row leaves empty, above a data-like row.
 */
function isSubHeader(head: ShownRow, row: ShownRow | undefined, next: ShownRow | undefined): boolean {
  if (!row || !next || !row.cells.every(isText)) return false;
  const top = new Set(head.cells.map((c) => c.col));
  const first = Math.min(...top);
  const last = Math.max(...row.cells.map((c) => c.col), ...top);
  const gaps = last - first + 1 - top.size;
  return (
    gaps > 0 && row.cells.some((c) => !top.has(c.col)) && next.cells.some((c) => c.type !== 's' || NUMBER.test(c.value.trim()))
  );
}

/** Header name per column: the rows' texts joined with " / ", a group heading spread over the empty columns after it. */
function namesOf(headers: ShownRow[]): Map<number, string> {
  const names = new Map<number, string[]>();
  const cols = new Set(headers.flatMap((h) => h.cells.map((c) => c.col)));
  const maxCol = Math.max(-1, ...cols);
  headers.forEach((h, level) => {
    let carry: string | undefined;
    for (let col = 0; col <= maxCol; col++) {
      const cell = h.cells.find((c) => c.col === col);
      if (cell) carry = cell.value.trim();
      const below = headers.slice(level + 1).some((x) => x.cells.some((c) => c.col === col));
      const value = cell ? cell.value.trim() : level < headers.length - 1 && below ? carry : undefined;
      if (value !== undefined && cols.has(col)) names.set(col, [...(names.get(col) ?? []), value]);
    }
  });
  return new Map([...names].map(([col, parts]) => [col, [...new Set(parts)].join(' / ')]));
}

/**
 * Splits rows into blocks separated by blank rows (sub-tables) and finds each block's header rows:
 * the first (or, after a one-cell title row, the second) row whose cells are distinct non-numeric text
 * above a data-like row, and a second header row under it when the first has merged group headings.
 */
export function detectTables(rows: ShownRow[]): TableBlock[] {
  const blocks: TableBlock[] = [];
  let i = 0;
  while (i < rows.length) {
    let end = i + 1;
    while (end < rows.length && (rows[end]?.row ?? 0) === (rows[end - 1]?.row ?? 0) + 1) end++;
    const block = rows.slice(i, end);
    const candidates = block[0] && block[0].cells.length === 1 ? [1, 0] : [0];
    let found: TableBlock | undefined;
    for (const k of candidates) {
      const head = block[k];
      if (head && looksLikeHeader(head, block[k + 1])) {
        const headers = isSubHeader(head, block[k + 1], block[k + 2]) ? [head, block[k + 1] as ShownRow] : [head];
        if (k > 0) blocks.push({ rows: block.slice(0, k), headers: [], names: new Map() });
        found = { rows: block.slice(k), headers, names: namesOf(headers) };
        break;
      }
    }
    blocks.push(found ?? { rows: block, headers: [], names: new Map() });
    i = end;
  }
  return blocks;
}

/** A1 column letters of a 0-based column, with a 1-based row: (0, 1) → "A1". */
export function columnRef(col: number, row: number): string {
  let name = '';
  for (let n = col + 1; n > 0; n = Math.floor((n - 1) / 26)) name = String.fromCharCode(65 + ((n - 1) % 26)) + name;
  return `${name}${row}`;
}
