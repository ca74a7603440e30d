import type {
  Diagnostic,
  Element,
  ElementType,
  Format,
  ParseOutput,
  RecordAnchor,
  RecordEntry,
  TableCell,
  TableRow,
} from '@pinpoint/core';
import { codepointLength, elementId, SOURCE_MAP_SCHEMA_VERSION, sha256Hex } from '@pinpoint/core';
import type { ShownRow, TableBlock } from './header.js';

/** A record before the records.jsonl hash is known. */
export interface PendingRecord {
  entry: RecordEntry;
  type: ElementType;
  sectionPath: string[];
  columns?: string[];
  level?: number;
  cells?: TableCell[];
  table?: TableRow;
}

const CELL_SEPARATOR = ' | ';

/** The codepoint ranges of cells joined with " | " (a row's text), in one array of [start, end) pairs. */
function cellOffsets(cells: readonly { value: string }[]): Uint32Array {
  const offsets = new Uint32Array(cells.length * 2);
  let at = 0;
  cells.forEach((c, i) => {
    if (i > 0) at += CELL_SEPARATOR.length;
    offsets[2 * i] = at;
    at += codepointLength(c.value);
    offsets[2 * i + 1] = at;
  });
  return offsets;
}

/** A row's text (cells joined with " | ") and each cell's codepoint range in it. */
export function joinCells<T extends { value: string }>(
  cells: T[],
): { text: string; ranges: (T & { start: number; end: number })[] } {
  const offsets = cellOffsets(cells);
  const ranges = cells.map((c, i) => ({ ...c, start: offsets[2 * i] as number, end: offsets[2 * i + 1] as number }));
  return { text: cells.map((c) => c.value).join(CELL_SEPARATOR), ranges };
}

/** A row of a sheet or CSV table as a record: its cells with header names, its table position. */
export function tableRowRecord(
  row: ShownRow,
  block: TableBlock,
  table: number,
  fields: Pick<RecordEntry, 'record_id' | 'row' | 'sheet' | 'physical_lines'>,
  sectionPath: string[],
): PendingRecord {
  const isHeader = block.headers.includes(row);
  // offsets in a typed array, not an object per cell: a one-line CSV can be one row of a million cells
  const offsets = cellOffsets(row.cells);
  const text = row.cells.map((c) => c.value).join(CELL_SEPARATOR);
  const header = (col: number): string | undefined => (isHeader ? undefined : block.names.get(col) || undefined);
  const entry: RecordEntry = {
    record_id: fields.record_id,
    kind: isHeader ? 'header' : 'row',
    text,
    ...(fields.sheet !== undefined ? { sheet: fields.sheet } : {}),
    ...(fields.row !== undefined ? { row: fields.row } : {}),
    cells: row.cells.map((c) => {
      const h = header(c.col);
      return h ? { ref: c.ref, value: c.value, header: h } : { ref: c.ref, value: c.value };
    }),
    ...(fields.physical_lines !== undefined ? { physical_lines: fields.physical_lines } : {}),
  };
  const record: PendingRecord = {
    entry,
    type: 'record',
    sectionPath,
    cells: row.cells.map((c, i) => {
      const h = header(c.col);
      const start = offsets[2 * i] as number;
      const end = offsets[2 * i + 1] as number;
      return h ? { ref: c.ref, col: c.col, start, end, header: h } : { ref: c.ref, col: c.col, start, end };
    }),
    table: { index: table, row: block.rows.indexOf(row), header: isHeader },
  };
  if (block.headers.length > 0) record.columns = [...block.names.values()];
  return record;
}

const ANCHOR_FIELDS = ['sheet', 'row', 'paragraph_index', 'table_index', 'physical_lines'] as const;

function anchorFor(entry: RecordEntry, recordsSha256: string, cellRange: string | undefined): RecordAnchor {
  const anchor: RecordAnchor = {
    kind: 'record',
    artifact: 'records.jsonl',
    record_id: entry.record_id,
    records_sha256: recordsSha256,
  };
  for (const key of ANCHOR_FIELDS) {
    if (entry[key] !== undefined) Object.assign(anchor, { [key]: entry[key] });
  }
  if (cellRange !== undefined) anchor.cell_range = cellRange;
  return anchor;
}

/** "B4:D4" from the first and last cell refs of an entry. */
function cellRangeOf(entry: RecordEntry): string | undefined {
  const cells = entry.cells;
  if (!cells || cells.length === 0) return undefined;
  const first = cells[0]?.ref as string;
  const last = cells[cells.length - 1]?.ref as string;
  return first === last ? first : `${first}:${last}`;
}

/** Serialises records.jsonl, hashes it, and returns elements whose anchors carry that hash. */
export function finishRecords(format: Format, pending: PendingRecord[], diagnostics: Diagnostic[]): ParseOutput {
  const jsonl = pending.map((p) => JSON.stringify(p.entry)).join('\n') + (pending.length > 0 ? '\n' : '');
  const bytes = new TextEncoder().encode(jsonl);
  const recordsSha256 = sha256Hex(bytes);
  const elements: Element[] = pending.map((p, i) => {
    const element: Element = {
      element_id: elementId(i),
      type: p.type,
      section_path: p.sectionPath,
      text: p.entry.text,
      anchor: anchorFor(p.entry, recordsSha256, cellRangeOf(p.entry)),
    };
    if (p.columns) element.columns = p.columns;
    if (p.cells) element.cells = p.cells;
    if (p.table) element.table = p.table;
    if (p.level !== undefined) element.level = p.level;
    return element;
  });
  return {
    elements,
    diagnostics,
    sourceMap: {
      schemaVersion: SOURCE_MAP_SCHEMA_VERSION,
      format,
      anchor_kind: 'record',
      pages: [],
      records_sha256: recordsSha256,
      elements,
    },
    artifacts: [{ kind: 'records.jsonl', name: 'records.jsonl', mime: 'application/x-ndjson', bytes }],
  };
}
