import type { RecordEntry } from '@pinpoint/core';

/** 0 → "A", 25 → "Z", 26 → "AA". */
export function columnLetters(index: number): string {
  let n = index + 1;
  let s = '';
  while (n > 0) {
    const r = (n - 1) % 26;
    s = String.fromCharCode(65 + r) + s;
    n = Math.floor((n - 1) / 26);
  }
  return s;
}

/** "A" → 0, "AA" → 26. */
export function columnIndex(letters: string): number {
  let n = 0;
  for (const ch of letters.toUpperCase()) n = n * 26 + (ch.charCodeAt(0) - 64);
  return n - 1;
}

export interface CellRef {
  col: number;
  /** 1-based row as written in the reference. */
  row: number;
}

export function parseCellRef(ref: string): CellRef | null {
  const m = /^\$?([A-Za-z]{1,3})\$?(\d+)$/.exec(ref.trim());
  if (!m) return null;
  return { col: columnIndex(m[1] as string), row: Number(m[2]) };
}

export interface CellRange {
  from: CellRef;
  to: CellRef;
}

/** "B4:D4" or "C7" → inclusive bounds; null when the text is not a cell range. */
export function parseCellRange(range: string): CellRange | null {
  const [a = '', b] = range.split(':');
  const from = parseCellRef(a);
  const to = b === undefined ? from : parseCellRef(b);
  if (!from || !to) return null;
  return {
    from: { col: Math.min(from.col, to.col), row: Math.min(from.row, to.row) },
    to: { col: Math.max(from.col, to.col), row: Math.max(from.row, to.row) },
  };
}

export function cellInRange(ref: string, range: CellRange | null): boolean {
  const c = parseCellRef(ref);
  if (!c || !range) return false;
  return c.col >= range.from.col && c.col <= range.to.col && c.row >= range.from.row && c.row <= range.to.row;
}

/** Records grouped by sheet, in first-seen order (records without a sheet share the '' group). */
export function groupBySheet(records: readonly RecordEntry[]): Map<string, RecordEntry[]> {
  const groups = new Map<string, RecordEntry[]>();
  for (const r of records) {
    const key = r.sheet ?? '';
    const list = groups.get(key);
    if (list) list.push(r);
    else groups.set(key, [r]);
  }
  return groups;
}

/** Column indexes A..the last used column, contiguous as in the spreadsheet: the table's column letters. */
export function usedColumns(records: readonly RecordEntry[]): number[] {
  let max = -1;
  for (const r of records) {
    for (const cell of r.cells ?? []) {
      const c = parseCellRef(cell.ref);
      if (c && c.col > max) max = c.col;
    }
  }
  return Array.from({ length: max + 1 }, (_, i) => i);
}

/** The records that are grid rows (sheet titles and other cell-less records are not, unless cited). */
export function gridRows(records: readonly RecordEntry[], citedId?: string): RecordEntry[] {
  return records.filter((r) => (r.cells?.length ?? 0) > 0 || r.record_id === citedId);
}

export type RecordLayout = 'sheet' | 'csv' | 'document';

/** How to show a records.jsonl: spreadsheet grid, CSV lines, or a Word document's flow. */
export function recordLayout(records: readonly RecordEntry[]): RecordLayout {
  if (records.some((r) => r.physical_lines)) return 'csv';
  if (records.some((r) => r.sheet !== undefined && r.cells?.some((c) => parseCellRef(c.ref)))) return 'sheet';
  return 'document';
}

/** A Word document's records in order: paragraphs one by one, each table's rows together. */
export type DocumentBlock =
  | { kind: 'record'; record: RecordEntry }
  | { kind: 'table'; tableIndex: number; records: RecordEntry[] };

/** Groups each run of rows of one table (`table_index` with cells) into a table block. */
export function documentBlocks(records: readonly RecordEntry[]): DocumentBlock[] {
  const blocks: DocumentBlock[] = [];
  for (const record of records) {
    const tableIndex = record.table_index;
    if (tableIndex === undefined || !record.cells?.length) {
      blocks.push({ kind: 'record', record });
      continue;
    }
    const last = blocks.at(-1);
    if (last?.kind === 'table' && last.tableIndex === tableIndex) last.records.push(record);
    else blocks.push({ kind: 'table', tableIndex, records: [record] });
  }
  return blocks;
}
