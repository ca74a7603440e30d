import type { RecordEntry, TableCell, TableRow } from '@pinpoint/core';
import type { HtmlBlock } from '../html/blocks.js';
import { columnRef } from '../spreadsheet/header.js';
import { joinCells } from '../spreadsheet/records.js';

/** A record with the element facts the DOCX parser needs beside it. */
export interface DocxRecord {
  entry: RecordEntry;
  section_path: string[];
  cells?: TableCell[];
  table?: TableRow;
}

/**
 * Blocks of mammoth's HTML → records: headings, paragraphs and list items numbered by paragraph_index;
 * each table row one record with its cells and the first row's cells as headers. A cell is named as
 * a sheet's is ("C10"): its column on the table's grid (merged cells spanned) and its row among all
 * the table's rows — an empty row above it (a layout row of a report's table) still counts, so the
 * name points at the cell a reader of the document sees there.
 */
export function docxRecords(blocks: HtmlBlock[]): DocxRecord[] {
  const records: DocxRecord[] = [];
  const headings: Array<[number, string]> = [];
  const headerCells = new Map<number, string[]>();
  const rowsSeen = new Map<number, number>();
  const headerRow = headerRows(blocks);
  let paragraphIndex = 0;
  for (const block of blocks) {
    const path = headings.map(([, t]) => t);
    if (block.kind === 'row') {
      const table = block.table_index ?? 0;
      const row = rowsSeen.get(table) ?? 0;
      rowsSeen.set(table, row + 1);
      const cells = block.cells ?? [];
      const head = headerRow.get(table) ?? 0;
      if (row === head) headerCells.set(table, cells);
      const header = headerCells.get(table) ?? [];
      const { ranges } = joinCells((block.grid ?? []).map((g) => ({ ...g, value: g.text })));
      const gridRow = (block.grid_row ?? row) + 1;
      const cols = block.cell_cols ?? [];
      const title = path.at(-1);
      records.push({
        section_path: path,
        cells: ranges.map((g) => {
          const name = row > head ? header[g.index] : undefined;
          return { ref: columnRef(g.col, gridRow), col: g.col, start: g.start, end: g.end, ...(name ? { header: name } : {}) };
        }),
        table: { index: table, row, header: row === head, ...(title ? { title } : {}) },
        entry: {
          record_id: `t${table}r${row}`,
          kind: row === head ? 'header' : 'row',
          text: block.text,
          row,
          table_index: table,
          cells: cells.map((value, i) => {
            const name = header[i];
            const ref = columnRef(cols[i] ?? i, gridRow);
            return row > head && name ? { ref, value, header: name } : { ref, value };
          }),
        },
      });
      continue;
    }
    const kind = block.kind === 'heading' ? 'heading' : block.kind === 'list_item' ? 'list_item' : 'paragraph';
    if (kind === 'heading') {
      const level = block.level ?? 1;
      while (headings.length > 0 && (headings.at(-1) as [number, string])[0] >= level) headings.pop();
    }
    const entry: RecordEntry = { record_id: `p${paragraphIndex}`, kind, text: block.text, paragraph_index: paragraphIndex };
    if (kind === 'heading') entry.level = block.level ?? 1;
    records.push({ entry, section_path: kind === 'heading' ? headings.map(([, t]) => t) : path });
    if (kind === 'heading') headings.push([block.level ?? 1, block.text]);
    paragraphIndex++;
  }
  return records;
}

/**
 * The header row of each table: its first row of two cells or more. A row of one cell above it is a
 * note on the table (「（単位：百万円）」, 「（2020年3月31日現在）」, "For the Year Ended"), not the
 * names of its columns.
 */
function headerRows(blocks: HtmlBlock[]): Map<number, number> {
  const seen = new Map<number, number>();
  const head = new Map<number, number>();
  for (const b of blocks) {
    if (b.kind !== 'row') continue;
    const table = b.table_index ?? 0;
    const row = seen.get(table) ?? 0;
    seen.set(table, row + 1);
    if (!head.has(table) && (b.cells ?? []).filter((c) => c.trim() !== '').length >= 2) head.set(table, row);
  }
  return head;
}
