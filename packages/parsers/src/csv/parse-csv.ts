import type { Diagnostic, ParseContext, ParseOutput } from '@pinpoint/core';
import { createError } from '@pinpoint/core';
import Papa from 'papaparse';
import type { ShownRow } from '../spreadsheet/header.js';
import { columnRef, detectTables } from '../spreadsheet/header.js';
import { finishRecords, tableRowRecord } from '../spreadsheet/records.js';
import { decodeText } from '../text/decode.js';

export interface CsvOptions {
  /** Records kept; the rest are dropped with a 'csv/truncated' diagnostic. */
  maxRecords?: number;
}

const DELIMITERS = [',', '\t', ';', '|'];
const NUMERIC = /^[-+]?(\d[\d,.]*|\.\d+)([eE][-+]?\d+)?%?$/;

/** UTF-16 offsets where each physical line starts (after \r\n, \n or \r). */
function lineStarts(text: string): number[] {
  const starts = [0];
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 10 || (c === 13 && text.charCodeAt(i + 1) !== 10)) starts.push(i + 1);
  }
  return starts;
}

/** 1-based line number of a UTF-16 offset. */
function lineOf(starts: number[], offset: number): number {
  let lo = 0;
  let hi = starts.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if ((starts[mid] as number) <= offset) lo = mid;
    else hi = mid - 1;
  }
  return lo + 1;
}

/** Last offset of a record's content, before its line break. */
function contentEnd(text: string, start: number, cursor: number): number {
  let end = cursor;
  while (end > start && (text[end - 1] === '\n' || text[end - 1] === '\r')) end--;
  return Math.max(start, end - 1);
}

interface CsvRow extends ShownRow {
  lines: [number, number];
}

function readRows(text: string, limit: number): { rows: CsvRow[]; delimiter: string; errors: number; dropped: number } {
  const starts = lineStarts(text);
  const rows: CsvRow[] = [];
  let prev = 0;
  let ordinal = 0;
  let errors = 0;
  let dropped = 0;
  let delimiter = ',';
  Papa.parse<string[]>(text, {
    delimiter: '',
    delimitersToGuess: DELIMITERS,
    skipEmptyLines: false,
    step: (result) => {
      const cursor = result.meta.cursor;
      delimiter = result.meta.delimiter;
      errors += result.errors.length;
      const cells: CsvRow['cells'] = [];
      result.data.forEach((value, col) => {
        const trimmed = value.trim();
        if (trimmed !== '') cells.push({ col, ref: columnRef(col, ordinal + 1), value, type: NUMERIC.test(trimmed) ? 'n' : 's' });
      });
      if (cells.length > 0 && rows.length >= limit) dropped++;
      else if (cells.length > 0) {
        rows.push({ row: ordinal + 1, cells, lines: [lineOf(starts, prev), lineOf(starts, contentEnd(text, prev, cursor))] });
      }
      prev = cursor;
      ordinal++;
    },
  });
  return { rows, delimiter, errors, dropped };
}

/**
 * .csv → one record per CSV record with content (`row` = 0-based index among all records, blank ones included), with the physical lines it spans
 * (a quoted cell may hold line breaks), cells as A1-style refs and header names when a header row is found.
 */
export async function parseCsv(bytes: Uint8Array, ctx: ParseContext, options: CsvOptions = {}): Promise<ParseOutput> {
  const decoded = decodeText(bytes);
  ctx.signal?.throwIfAborted();
  const { rows, delimiter, errors, dropped } = readRows(decoded.text, options.maxRecords ?? 500_000);
  if (rows.length === 0) throw createError('PP_PARSE_NO_TEXT', `${ctx.fileName} has no CSV records with content.`);
  const diagnostics: Diagnostic[] = [...decoded.diagnostics];
  diagnostics.push({
    rule_id: 'csv/dialect',
    reason: `Charset ${decoded.charset}; delimiter ${JSON.stringify(delimiter)}.`,
    severity: 'info',
  });
  if (errors > 0)
    diagnostics.push({
      rule_id: 'csv/malformed',
      reason: `${errors} malformed records (unbalanced quotes or ragged rows) were read as-is.`,
      severity: 'warning',
    });
  if (dropped > 0)
    diagnostics.push({
      rule_id: 'csv/truncated',
      reason: `${dropped} records past the limit were not kept.`,
      severity: 'warning',
    });
  const records = detectTables(rows).flatMap((block, t) =>
    block.rows.map((r) =>
      tableRowRecord(r, block, t, { record_id: `r${r.row - 1}`, row: r.row - 1, physical_lines: (r as CsvRow).lines }, []),
    ),
  );
  return finishRecords(ctx.format, records, diagnostics);
}
