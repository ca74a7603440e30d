import type { Element } from '@pinpoint/core';
import type { QaTable } from '../table/model.js';
import { buildTable } from '../table/model.js';

const Z = '0'.repeat(64);

/**
 * A report table as the CSV parser shapes it, for tests: one record per row (the first row the
 * header), each cell with its ref and column.
 */
export function reportTable(file: string, title: string, rows: string[][]): QaTable {
  const elements: Element[] = rows.map((values, i) => {
    let at = -3;
    const cells = values.map((value, col) => {
      const start = at + 3;
      at = start + Array.from(value).length;
      return { ref: `${String.fromCharCode(65 + col)}${i + 1}`, col, start, end: at };
    });
    return {
      element_id: `e${i}`,
      type: 'record',
      section_path: [],
      text: values.join(' | '),
      anchor: { kind: 'record', artifact: 'records.jsonl', record_id: `r${i}`, records_sha256: Z, row: i + 1 },
      cells,
      table: { index: 0, row: i, header: i === 0 },
    };
  });
  return buildTable(file, title, elements);
}
