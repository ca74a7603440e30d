import type { RecordEntry } from '@pinpoint/core';
import { describe, expect, it } from 'vitest';
import {
  cellInRange,
  columnIndex,
  columnLetters,
  gridRows,
  groupBySheet,
  parseCellRange,
  recordLayout,
  usedColumns,
} from './records.js';

describe('column letters', () => {
  it('converts both ways', () => {
    for (const [i, s] of [
      [0, 'A'],
      [25, 'Z'],
      [26, 'AA'],
      [51, 'AZ'],
      [52, 'BA'],
      [701, 'ZZ'],
      [702, 'AAA'],
    ] as const) {
      expect(columnLetters(i)).toBe(s);
      expect(columnIndex(s)).toBe(i);
    }
  });
});

describe('cell ranges', () => {
  it('highlights exactly the cells of the cited range', () => {
    const r = parseCellRange('B4:D4');
    expect(cellInRange('B4', r)).toBe(true);
    expect(cellInRange('D4', r)).toBe(true);
    expect(cellInRange('E4', r)).toBe(false);
    expect(cellInRange('C5', r)).toBe(false);
    expect(cellInRange('A4', r)).toBe(false);
  });

  it('accepts single cells, absolute refs and reversed corners', () => {
    expect(cellInRange('C7', parseCellRange('C7'))).toBe(true);
    expect(cellInRange('C7', parseCellRange('$D$8:$B$6'))).toBe(true);
    expect(parseCellRange('not a range')).toBeNull();
    expect(cellInRange('C7', null)).toBe(false);
  });
});

describe('record layouts', () => {
  const row = (sheet: string, n: number, refs: string[]): RecordEntry => ({
    record_id: `${sheet}!${n}`,
    kind: 'row',
    text: '',
    sheet,
    row: n,
    cells: refs.map((ref) => ({ ref, value: ref })),
  });

  it('groups sheets in order and finds their columns', () => {
    const recs = [row('S1', 1, ['A1', 'C1']), row('S2', 1, ['B1']), row('S1', 2, ['A2', 'D2'])];
    const groups = groupBySheet(recs);
    expect([...groups.keys()]).toEqual(['S1', 'S2']);
    expect(usedColumns(groups.get('S1') ?? [])).toEqual([0, 1, 2, 3]);
    expect(gridRows([{ record_id: 't', kind: 'heading', text: 'S1', sheet: 'S1' }, ...recs]).length).toBe(3);
    expect(gridRows([{ record_id: 't', kind: 'heading', text: 'S1', sheet: 'S1' }, ...recs], 't').length).toBe(4);
    expect(recordLayout(recs)).toBe('sheet');
  });

  it('recognises CSV and Word records', () => {
    expect(recordLayout([{ record_id: 'r0', kind: 'row', text: 'a,b', physical_lines: [2, 3] }])).toBe('csv');
    expect(recordLayout([{ record_id: 'p0', kind: 'paragraph', text: 'Hello', paragraph_index: 0 }])).toBe('document');
  });
});
