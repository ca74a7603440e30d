import type { Diagnostic, Element, ElementType, Format, ParseOutput, RecordAnchor, RecordEntry } from '@pinpoint/core';
import { elementId, SOURCE_MAP_SCHEMA_VERSION, sha256Hex } from '@pinpoint/core';

/** A record before the records.jsonl hash is known. */
export interface PendingRecord {
  entry: RecordEntry;
  type: ElementType;
  sectionPath: string[];
  columns?: string[];
  level?: number;
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
