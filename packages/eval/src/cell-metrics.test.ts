import { fileURLToPath } from 'node:url';
import type { Anchor } from '@pinpoint/core';
import { describe, expect, it } from 'vitest';
import { computeCellMetrics } from './cell-metrics.js';

const docs = fileURLToPath(new URL('../../../../shared/eval/wtq-dev/docs', import.meta.url));
const Z = '0'.repeat(64);
const record = (extra: Partial<Extract<Anchor, { kind: 'record' }>>): Anchor => ({
  kind: 'record',
  artifact: 'records.jsonl',
  record_id: 'r',
  records_sha256: Z,
  ...extra,
});

describe('cell metrics of a table set', () => {
  it('scores cell@1 on single gold cells and counts header rows cited first', () => {
    const csv = '099_1999_South_Asian_Games.csv';
    const html = '002_Lorenzo_Civallero.html';
    const gold = [{ file: csv, cells: ['C2'], quote: '102' }];
    const htmlGold = [{ file: html, cells: ['B3'], quote: 'European Race Walking Cup' }];
    const text: Anchor = { kind: 'text', artifact: 'original', unit: 'codepoint', start: 0, end: 1, text_sha256: Z };
    const m = computeCellMetrics(
      [
        {
          answerable: true,
          refused: false,
          gold,
          first: { file: csv, quote: '102', anchor: record({ row: 1, cell_range: 'C2', physical_lines: [2, 2] }) },
        },
        {
          answerable: true,
          refused: false,
          gold,
          first: { file: csv, quote: 'India | 102', anchor: record({ row: 1, cell_range: 'A2:D2', physical_lines: [2, 2] }) },
        },
        {
          answerable: true,
          refused: false,
          gold,
          first: { file: csv, quote: 'Rank | Nation', anchor: record({ row: 0, cell_range: 'A1:F1', physical_lines: [1, 1] }) },
        },
        {
          answerable: true,
          refused: false,
          gold: htmlGold,
          first: { file: html, quote: 'European Race Walking Cup', anchor: text },
        },
        {
          answerable: true,
          refused: false,
          gold: htmlGold,
          first: { file: html, quote: 'Year | Competition | Venue | Position | Event | Notes', anchor: text },
        },
        { answerable: false, refused: true, gold: [], first: undefined },
      ],
      docs,
    );
    expect(m).toEqual({ 'cell@1': 0.4, header_cited_first: 0.4 });
  });

  it('reports nothing for a set without gold cells', () => {
    expect(
      computeCellMetrics([{ answerable: true, refused: false, gold: [{ file: 'a.md', cells: [] }], first: undefined }], docs),
    ).toBeUndefined();
  });
});
