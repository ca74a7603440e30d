import { readFileSync } from 'node:fs';
import { basename } from 'node:path';
import type { Box, Element } from '@pinpoint/core';
import { sliceCodepoints } from '@pinpoint/core';
import type { CapabilitySpec, PdfTable } from '@pinpoint/parsers';
import { buildContext, detectFormat, parseDocument, readPdfTables, tableGrid } from '@pinpoint/parsers';

/** One table as `pinpoint tables --json` prints it (boxes: PDF points, top-left origin, unrotated page). */
export interface TableLine {
  file: string;
  page_index: number | null;
  table_index: number;
  bbox: Box | null;
  rows: string[][];
  cells: Array<{ row: number; col: number; row_span: number; col_span: number; text: string; bbox: Box | null }>;
  title?: string;
  header_rows: number;
  flavor?: string;
}

const round = (b: Box): Box => b.map((v) => Math.round(v * 100) / 100) as Box;

function pdfLines(file: string, tables: PdfTable[]): TableLine[] {
  const perPage = new Map<number, number>();
  return tables.map((t) => {
    const index = perPage.get(t.page_index) ?? 0;
    perPage.set(t.page_index, index + 1);
    return {
      file,
      page_index: t.page_index,
      table_index: index,
      bbox: round(t.box),
      rows: tableGrid(t),
      cells: t.cells.map((c) => ({
        row: c.row,
        col: c.col,
        row_span: c.rowSpan,
        col_span: c.colSpan,
        text: c.text,
        bbox: round(c.box),
      })),
      ...(t.title ? { title: t.title } : {}),
      header_rows: t.headerRows,
      flavor: t.flavor,
    };
  });
}

/** Other formats: the table row elements their parser made, back into grids (one cell per column, no spans). */
function elementLines(file: string, elements: Element[]): TableLine[] {
  const tables = new Map<number, Element[]>();
  for (const e of elements) if (e.table) tables.set(e.table.index, [...(tables.get(e.table.index) ?? []), e]);
  return [...tables.values()].map((rows, i) => {
    const first = rows[0] as Element;
    const page = first.anchor.kind === 'page' ? first.anchor.page_index : null;
    const cells = rows.flatMap((e) =>
      (e.cells ?? []).map((c) => {
        const span = e.spans?.find((s) => s.start === c.start && s.end === c.end);
        return {
          row: e.table?.row ?? 0,
          col: c.col,
          row_span: 1,
          col_span: 1,
          text: sliceCodepoints(e.text, c.start, c.end),
          bbox: span ? round(span.box) : null,
        };
      }),
    );
    const base = Math.min(...cells.map((c) => c.row));
    const width = Math.max(0, ...cells.map((c) => c.col + 1));
    const grid = Array.from({ length: Math.max(0, ...cells.map((c) => c.row - base + 1)) }, () =>
      Array.from({ length: width }, () => ''),
    );
    for (const c of cells) {
      c.row -= base;
      const row = grid[c.row];
      if (row) row[c.col] = c.text;
    }
    const boxes = cells.flatMap((c) => (c.bbox ? [c.bbox] : []));
    const bbox: Box | null =
      boxes.length > 0
        ? round([
            Math.min(...boxes.map((b) => b[0])),
            Math.min(...boxes.map((b) => b[1])),
            Math.max(...boxes.map((b) => b[2])),
            Math.max(...boxes.map((b) => b[3])),
          ])
        : null;
    const title = first.table?.title;
    return {
      file,
      page_index: page,
      table_index: i,
      bbox,
      rows: grid,
      cells,
      ...(title ? { title } : {}),
      header_rows: rows.filter((e) => e.table?.header).length,
    };
  });
}

/** The tables found in one file: PDFs read page by page for tables; other formats through their table elements. */
export async function tablesOf(path: string, capabilities?: CapabilitySpec): Promise<TableLine[]> {
  const bytes = new Uint8Array(readFileSync(path));
  const fileName = basename(path);
  const format = detectFormat(fileName, bytes);
  const ctx = buildContext({ fileName, format, ...(capabilities ? { capabilities } : {}) });
  if (format === 'pdf') return pdfLines(fileName, await readPdfTables(bytes, ctx));
  return elementLines(fileName, (await parseDocument(bytes, ctx)).elements);
}

/** A table as readable text: where it is, its title, then its grid in aligned columns. */
export function humanTable(t: TableLine): string {
  const widths = (t.rows[0] ?? []).map((_, c) => Math.min(40, Math.max(...t.rows.map((r) => (r[c] ?? '').length))));
  const cut = (s: string, w: number): string => (s.length > w ? `${s.slice(0, w - 1)}…` : s.padEnd(w));
  const where = t.page_index === null ? '' : ` page ${t.page_index + 1}`;
  const lines = [
    `${t.file}${where} table ${t.table_index + 1}${t.title ? ` — ${t.title}` : ''} (${t.rows.length}×${widths.length})`,
  ];
  t.rows.forEach((r, i) => {
    lines.push(`  ${r.map((v, c) => cut(v, widths[c] ?? 0)).join(' │ ')}`);
    if (i === t.header_rows - 1) lines.push(`  ${widths.map((w) => '─'.repeat(w)).join('─┼─')}`);
  });
  return lines.join('\n');
}
