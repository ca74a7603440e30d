import type { RecordEntry, TableCell, TableRow } from '@pinpoint/core';
import type { HtmlBlock } from '../html/blocks.js';
import { joinCells } from '../spreadsheet/records.js';

/** A record with the element facts the DOCX parser needs beside it. */
export interface DocxRecord {
  entry: RecordEntry;
  section_path: string[];
  cells?: TableCell[];
  table?: TableRow;
}

const headerless = (i: number, row: number): string => `R${row + 1}C${i + 1}`;

/**
 * Blocks of mammoth's HTML → records: headings, paragraphs and list items numbered by paragraph_index;
 * each table row one record with its cells ("R2C3" refs) and the first row's cells as headers.
 */
export function docxRecords(blocks: HtmlBlock[]): DocxRecord[] {
  const records: DocxRecord[] = [];
  const headings: Array<[number, string]> = [];
  const headerCells = new Map<number, string[]>();
  const rowsSeen = new Map<number, number>();
  let paragraphIndex = 0;
  for (const block of blocks) {
    const path = headings.map(([, t]) => t);
    if (block.kind === 'row') {
      const table = block.table_index ?? 0;
      const row = rowsSeen.get(table) ?? 0;
      rowsSeen.set(table, row + 1);
      const cells = block.cells ?? [];
      if (row === 0) headerCells.set(table, cells);
      const header = headerCells.get(table) ?? [];
      const { ranges } = joinCells((block.grid ?? []).map((g) => ({ ...g, value: g.text })));
      const title = path.at(-1);
      records.push({
        section_path: path,
        cells: ranges.map((g) => {
          const name = row > 0 ? header[g.index] : undefined;
          return { ref: headerless(g.index, row), col: g.col, start: g.start, end: g.end, ...(name ? { header: name } : {}) };
        }),
        table: { index: table, row, header: row === 0, ...(title ? { title } : {}) },
        entry: {
          record_id: `t${table}r${row}`,
          kind: row === 0 ? 'header' : 'row',
          text: block.text,
          row,
          table_index: table,
          cells: cells.map((value, i) => {
            const name = header[i];
            return row > 0 && name ? { ref: headerless(i, row), value, header: name } : { ref: headerless(i, row), value };
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
