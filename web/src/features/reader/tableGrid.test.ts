import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type { Element, RecordEntry } from '@pinpoint/core';
import { describe, expect, it } from 'vitest';
import { documentBlocks, parseCellRange } from './records.js';
import { elementTableGrid, type GridRow, headRowCount, recordTableGrid } from './tableGrid.js';

/**
 * Real parser output, as the API serves it: the records.jsonl of docling's word_tables.docx (its
 * sha256 is the one the parser's golden file records) and the elements of a TAT-QA report table.
 */
const fixture = (name: string) => readFileSync(new URL(`./__fixtures__/${name}`, import.meta.url), 'utf8');
const recordsText = fixture('docling__word_tables.records.jsonl');
const records = recordsText
  .trim()
  .split('\n')
  .map((line) => JSON.parse(line) as RecordEntry);
const { elements } = JSON.parse(fixture('054_Summary_of_Cash_Flows.html.elements.json')) as { elements: Element[] };
const golden = JSON.parse(
  readFileSync(new URL('../../../../packages/parsers/src/__golden__/docling__word_tables.docx.json', import.meta.url), 'utf8'),
) as { artifacts: { kind: string; sha256: string }[] };
const html = readFileSync(
  new URL('../../../../../shared/eval/tatqa-arith-dev/docs/054_Summary_of_Cash_Flows.html', import.meta.url),
  'utf8',
);

const texts = (row: GridRow | undefined) => row?.cells.map((c) => c?.text ?? null);
const marked = (rows: GridRow[]) => rows.flatMap((r) => r.cells.filter((c) => c?.mark).map((c) => ({ row: r.number, ...c })));

describe('the records fixture', () => {
  it('is the parser’s own records.jsonl of word_tables.docx', () => {
    const sha = createHash('sha256').update(recordsText).digest('hex');
    expect(golden.artifacts.find((a) => a.kind === 'records.jsonl')?.sha256).toBe(sha);
  });
});

describe('documentBlocks (a Word document’s flow)', () => {
  it('keeps paragraphs apart and each table’s rows together, in order', () => {
    const blocks = documentBlocks(records);
    expect(blocks.map((b) => (b.kind === 'table' ? `t${b.tableIndex}:${b.records.length}` : b.record.record_id))).toEqual([
      'p0',
      'p1',
      't0:3',
      'p2',
      't1:3',
      'p3',
      't2:3',
      'p4',
      't3:5',
      'p5',
      't4:6',
      'p6',
      't5:2',
      'p7',
      't6:1',
    ]);
  });
});

describe('recordTableGrid (Word tables)', () => {
  const table = (index: number) => records.filter((r) => r.table_index === index);

  it('draws rows and columns, the header row marked, numbered as the cell references', () => {
    const grid = recordTableGrid(table(0), { recordId: null, range: null });
    expect(grid.columns).toBe(3);
    expect(grid.rows.map((r) => [r.number, r.header])).toEqual([
      [1, true],
      [2, false],
      [3, false],
    ]);
    expect(texts(grid.rows[1])).toEqual(['Cell 1.0', 'Cell 1.1', 'Cell 1.2']);
    expect(marked(grid.rows)).toEqual([]);
  });

  it('marks exactly the cited cell inside the cited row', () => {
    const grid = recordTableGrid(table(0), { recordId: 't0r2', range: parseCellRange('B3') });
    expect(grid.rows.map((r) => r.cited)).toEqual([false, false, true]);
    expect(marked(grid.rows)).toEqual([
      { row: 3, ref: 'B3', text: 'Cell 2.1', mark: { before: '', marked: 'Cell 2.1', after: '' } },
    ]);
  });

  it('marks the row alone when the citation names no cell, and every cell of a range', () => {
    expect(marked(recordTableGrid(table(0), { recordId: 't0r1', range: null }).rows)).toEqual([]);
    const range = recordTableGrid(table(0), { recordId: 't0r1', range: parseCellRange('A2:B2') });
    expect(marked(range.rows).map((c) => c.ref)).toEqual(['A2', 'B2']);
  });

  it('leaves the columns a merged or missing cell does not fill empty, and numbers rows by their references', () => {
    const grid = recordTableGrid(table(4), { recordId: 't4r4', range: parseCellRange('E5') });
    expect(grid.columns).toBe(5);
    expect(texts(grid.rows[4])).toEqual(['Cell 4.0', null, 'Cell 4.2', null, 'Merged Cell 4.4 5.4']);
    expect(grid.rows.map((r) => r.number)).toEqual([1, 2, 3, 4, 5, 9]);
    expect(marked(grid.rows).map((c) => c.ref)).toEqual(['E5']);
  });
});

describe('elementTableGrid (HTML tables)', () => {
  const investing = elements.find((e) => e.text.startsWith('Net cash provided by (used in) investing'));
  const anchorStart = investing?.anchor.kind === 'text' ? investing.anchor.start : -1;
  const cell = (ref: string) => investing?.cells?.find((c) => c.ref === ref);

  it('the elements fixture is the report’s table: each cell’s raw range holds its text', () => {
    const d4 = cell('D4');
    expect(d4?.raw).toBeDefined();
    expect(html.slice(d4?.raw?.start, d4?.raw?.end)).toContain('(71)');
  });

  it('draws the cited element’s table, header row marked, empty cells left empty', () => {
    const grid = elementTableGrid(elements, investing?.element_id ?? '', null);
    expect(grid?.columns).toBe(4);
    expect(grid?.rows.map((r) => [r.number, r.header, r.cited])).toEqual([
      [1, true, false],
      [2, false, false],
      [3, false, false],
      [4, false, true],
      [5, false, false],
      [6, false, false],
    ]);
    expect(texts(grid?.rows[0])).toEqual([null, 'January 3, 2020', 'December 28, 2018', 'December 29, 2017']);
    expect(texts(grid?.rows[3])).toEqual(['Net cash provided by (used in) investing activities', '65', '(114)', '(71)']);
    expect(marked(grid?.rows ?? [])).toEqual([]);
  });

  it('marks the cell that holds the cited range, at exactly the cited codepoints', () => {
    const d4 = cell('D4');
    const whole = { start: anchorStart + (d4?.start ?? 0), end: anchorStart + (d4?.end ?? 0) };
    expect(marked(elementTableGrid(elements, investing?.element_id ?? '', whole)?.rows ?? [])).toEqual([
      { row: 4, ref: 'D4', text: '(71)', mark: { before: '', marked: '(71)', after: '' } },
    ]);
    const inner = { start: whole.start + 1, end: whole.end - 1 };
    expect(marked(elementTableGrid(elements, investing?.element_id ?? '', inner)?.rows ?? [])[0]?.mark).toEqual({
      before: '(',
      marked: '71',
      after: ')',
    });
  });

  it('marks no cell for a range across cells, and draws nothing for an element outside a table', () => {
    const across = { start: anchorStart, end: anchorStart + (investing?.text.length ?? 0) };
    expect(marked(elementTableGrid(elements, investing?.element_id ?? '', across)?.rows ?? [])).toEqual([]);
    const paragraph = elements.find((e) => e.type === 'paragraph');
    expect(elementTableGrid(elements, paragraph?.element_id ?? '', null)).toBeNull();
  });
});

describe('headRowCount (the rows kept in view with the column letters)', () => {
  it('runs through the last header row near the top, and is 0 when the header is further down', () => {
    const word = recordTableGrid(
      records.filter((r) => r.table_index === 0),
      { recordId: null, range: null },
    );
    expect(headRowCount(word.rows)).toBe(1);
    expect(headRowCount(elementTableGrid(elements, 'e000005', null)?.rows ?? [])).toBe(1);
    const late = word.rows.map((r, i) => ({ ...r, header: i === 2 }));
    expect(headRowCount(late)).toBe(3);
    expect(headRowCount(late, 2)).toBe(0);
  });
});
