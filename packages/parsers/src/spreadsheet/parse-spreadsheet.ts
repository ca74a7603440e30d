import type * as XLSX from '@e965/xlsx';
import type { Diagnostic, ParseContext, ParseOutput } from '@pinpoint/core';
import { createError } from '@pinpoint/core';
import { assertOfficeContainer } from '../archive/container.js';
import type { ZipLimits } from '../archive/zip-guard.js';
import type { ShownCell, ShownRow } from './header.js';
import { detectTables } from './header.js';
import type { PendingRecord } from './records.js';
import { finishRecords, tableRowRecord } from './records.js';

type SheetJs = typeof XLSX;
let sheetJsLoaded: Promise<SheetJs> | undefined;

/** SheetJS loads with the first workbook: a parse process that only reads PDFs never compiles it. */
function sheetJs(): Promise<SheetJs> {
  sheetJsLoaded ??= Promise.all([import('@e965/xlsx'), import('@e965/xlsx/dist/cpexcel')]).then(([xlsx, cptable]) => {
    // legacy .xls text in ANSI code pages (Shift_JIS, GBK, cp1252…) needs the code page tables
    xlsx.set_cptable(cptable);
    return xlsx;
  });
  return sheetJsLoaded;
}

export interface SpreadsheetOptions {
  /** Rows kept per workbook; the rest are dropped with a 'spreadsheet/truncated' diagnostic. */
  maxRows?: number;
  zipLimits?: Partial<ZipLimits>;
}

type Grid = (XLSX.CellObject | undefined)[][];

function readWorkbook(xlsx: SheetJs, bytes: Uint8Array): XLSX.WorkBook {
  try {
    return xlsx.read(bytes, { type: 'array', dense: true, cellText: true, cellNF: false, cellDates: false, cellHTML: false });
  } catch (err) {
    const message = err instanceof Error ? err.message : String(err);
    if (/password|encrypt/i.test(message)) {
      throw createError(
        'PP_PARSE_ENCRYPTED_OFFICE',
        'The workbook is password-protected; save an unprotected copy and upload that.',
        err,
      );
    }
    throw createError(
      'PP_PARSE_CORRUPT',
      'The workbook could not be read; it may be damaged. Open and re-save it, then upload it again.',
      err,
    );
  }
}

function shownValue(cell: XLSX.CellObject | undefined): string {
  if (!cell || cell.t === 'z') return '';
  if (typeof cell.w === 'string') return cell.w;
  return cell.v === undefined || cell.v === null ? '' : String(cell.v);
}

/**
 * A merged range shows its top-left value once. Rows below the first one inside a vertical merge
 * get that value in the merge's first column, so each row record reads as it looks.
 */
function spreadMerges(grid: Grid, merges: XLSX.Range[] | undefined): void {
  for (const m of merges ?? []) {
    const origin = grid[m.s.r]?.[m.s.c];
    if (!origin) continue;
    for (let r = m.s.r + 1; r <= m.e.r; r++) {
      const row = grid[r] ?? [];
      grid[r] = row;
      row[m.s.c] = { ...origin };
    }
  }
}

function shownRows(xlsx: SheetJs, grid: Grid): ShownRow[] {
  const rows: ShownRow[] = [];
  grid.forEach((cells, r) => {
    if (!cells) return;
    const shown: ShownCell[] = [];
    cells.forEach((cell, c) => {
      const value = shownValue(cell);
      if (value.trim() !== '') shown.push({ col: c, ref: xlsx.utils.encode_cell({ r, c }), value, type: cell?.t ?? 'z' });
    });
    if (shown.length > 0) rows.push({ row: r + 1, cells: shown });
  });
  return rows;
}

function sheetRecords(
  xlsx: SheetJs,
  wb: XLSX.WorkBook,
  sheetIndex: number,
  budget: number,
  tables: { next: number },
): { records: PendingRecord[]; dropped: number } {
  const name = wb.SheetNames[sheetIndex] as string;
  const ws = wb.Sheets[name];
  const grid: Grid = (ws?.['!data'] as Grid | undefined) ?? [];
  spreadMerges(grid, ws?.['!merges']);
  const rows = shownRows(xlsx, grid);
  const heading: PendingRecord = {
    entry: { record_id: `s${sheetIndex}`, kind: 'heading', text: name, level: 1, sheet: name },
    type: 'heading',
    sectionPath: [],
    level: 1,
  };
  const kept = new Set(rows.slice(0, Math.max(0, budget)));
  const records = detectTables(rows).flatMap((block) => {
    const t = tables.next++;
    return block.rows
      .filter((r) => kept.has(r))
      .map((r) => tableRowRecord(r, block, t, { record_id: `s${sheetIndex}r${r.row}`, sheet: name, row: r.row }, [name]));
  });
  return { records: [heading, ...records], dropped: rows.length - kept.size };
}

function workbookRecords(xlsx: SheetJs, wb: XLSX.WorkBook, maxRows: number, diagnostics: Diagnostic[]): PendingRecord[] {
  const pending: PendingRecord[] = [];
  let budget = maxRows;
  const tables = { next: 0 };
  for (let i = 0; i < wb.SheetNames.length; i++) {
    const { records, dropped } = sheetRecords(xlsx, wb, i, budget, tables);
    budget -= records.length - 1;
    pending.push(...records);
    if (dropped > 0) {
      const reason = `${dropped} rows of sheet "${wb.SheetNames[i]}" were not kept (row limit).`;
      diagnostics.push({ rule_id: 'spreadsheet/truncated', reason, severity: 'warning' });
    }
  }
  return pending;
}

/** SheetJS found no cells although a sheet declares a used range (e.g. some BIFF5 files). */
function declaresCells(wb: XLSX.WorkBook): boolean {
  return wb.SheetNames.some((name) => typeof wb.Sheets[name]?.['!ref'] === 'string');
}

/**
 * .xlsx/.xls → one record per non-empty row (sheet, 1-based row, cell range, cells as displayed),
 * one heading record per sheet; records.jsonl is the artifact the anchors point into. When SheetJS reads
 * no cells from a workbook that declares some, and ctx.convert exists, LibreOffice's .xlsx of it is read instead.
 */
export async function parseSpreadsheet(
  bytes: Uint8Array,
  ctx: ParseContext,
  options: SpreadsheetOptions = {},
): Promise<ParseOutput> {
  assertOfficeContainer(bytes, { allowCfb: true, what: 'workbook', ...(options.zipLimits ? { limits: options.zipLimits } : {}) });
  ctx.signal?.throwIfAborted();
  const maxRows = options.maxRows ?? 200_000;
  const diagnostics: Diagnostic[] = [];
  const xlsx = await sheetJs();
  let wb = readWorkbook(xlsx, bytes);
  let pending = workbookRecords(xlsx, wb, maxRows, diagnostics);
  if (!pending.some((p) => p.type === 'record') && declaresCells(wb) && ctx.convert) {
    wb = readWorkbook(xlsx, await ctx.convert.convert(bytes, ctx.format, 'xlsx', ctx.signal));
    pending = workbookRecords(xlsx, wb, maxRows, diagnostics);
    const reason = `SheetJS read no cells; the workbook was converted to .xlsx with ${ctx.convert.id} and read again.`;
    diagnostics.push({ rule_id: 'spreadsheet/converted', reason, severity: 'info' });
  }
  if (!pending.some((p) => p.type === 'record')) {
    diagnostics.push({ rule_id: 'spreadsheet/no-cells', reason: 'The workbook has no non-empty cells.', severity: 'warning' });
  }
  const out = finishRecords(ctx.format, pending, diagnostics);
  const title = wb.Props?.Title?.trim();
  return title ? { ...out, metadata: { title } } : out;
}
