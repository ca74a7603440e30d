import { readFileSync } from 'node:fs';
import type { Element, RecordAnchor, RecordEntry } from '@pinpoint/core';
import { recordEntrySchema } from '@pinpoint/core';
import Papa from 'papaparse';
import { describe, expect, it } from 'vitest';
import { expectRecordInvariants, parseShared, sharedFiles } from '../../test/test-support.js';
import { parseCsv } from './parse-csv.js';

const corpus = new URL('../../../../../shared/corpus/formats/csv/', import.meta.url);
const read = (name: string) => new Uint8Array(readFileSync(new URL(name, corpus)));

function anchorOf(e: Element): RecordAnchor {
  if (e.anchor.kind !== 'record') throw new Error('not a record anchor');
  return e.anchor;
}

function entries(out: { artifacts: { kind: string; bytes: Uint8Array }[] }): RecordEntry[] {
  const bytes = out.artifacts.find((a) => a.kind === 'records.jsonl')?.bytes as Uint8Array;
  return new TextDecoder()
    .decode(bytes)
    .trimEnd()
    .split('\n')
    .map((l) => recordEntrySchema.parse(JSON.parse(l)));
}

describe('parseCsv', () => {
  it('holds the record invariants on every corpus CSV, each record on lines in order', async () => {
    for (const path of sharedFiles('corpus/formats/csv')) {
      const { out } = await parseShared(path);
      expectRecordInvariants(out);
      let last = 0;
      for (const e of out.elements) {
        const [first, end] = anchorOf(e).physical_lines as [number, number];
        expect(first).toBeGreaterThan(last);
        expect(end).toBeGreaterThanOrEqual(first);
        last = end;
      }
    }
  });

  it('maps records with quoted newlines to the physical lines they occupy in the raw file', async () => {
    const bytes = read('unstructured__wiki_movie_plots_small.csv');
    const out = await parseCsv(bytes, { fileName: 'plots.csv', format: 'csv' });
    const rawLines = new TextDecoder().decode(bytes).split(/\r\n|\n|\r/);
    const multi = out.elements.filter((e) => {
      const [first, last] = anchorOf(e).physical_lines as [number, number];
      return last > first;
    });
    expect(multi.length).toBeGreaterThanOrEqual(5);
    for (const [i, e] of out.elements.entries()) {
      const [first, last] = anchorOf(e).physical_lines as [number, number];
      const slice = rawLines.slice(first - 1, last).join('\n');
      const reparsed = Papa.parse<string[]>(slice, { delimiter: ',' }).data;
      expect(reparsed).toHaveLength(1);
      const values = (reparsed[0] as string[]).filter((v) => v.trim() !== '');
      expect(values.map((v) => v.replace(/\r\n|\r/g, '\n'))).toEqual(
        entries(out)[i]?.cells?.map((c) => c.value.replace(/\r\n|\r/g, '\n')),
      );
    }
    expect(out.elements[1]?.columns?.slice(0, 2)).toEqual(['Release Year', 'Title']);
  });

  it('decodes Shift_JIS and UTF-16 files', async () => {
    const sjis = await parseCsv(read('markitdown__test_mskanji.csv'), { fileName: 'k.csv', format: 'csv' });
    expect(sjis.elements[1]?.text).toBe('佐藤太郎 | 30 | 東京');
    expect(sjis.elements[1]?.columns).toEqual(['名前', '年齢', '住所']);
    const utf16 = await parseCsv(read('unstructured__stanley-cups-utf-16.csv'), { fileName: 'u.csv', format: 'csv' });
    expect(utf16.elements.map((e) => e.text)).toContain('Team | Location | Stanley Cups');
    expect(utf16.diagnostics.find((d) => d.rule_id === 'csv/dialect')?.reason).toMatch(/utf-16be/);
  });

  it('sniffs the delimiter', async () => {
    for (const [name, delimiter] of [
      ['docling__csv-pipe.csv', '|'],
      ['docling__csv-semicolon.csv', ';'],
      ['docling__csv-tab.csv', '\t'],
    ] as const) {
      const out = await parseCsv(read(name), { fileName: name, format: 'csv' });
      expect(out.diagnostics.find((d) => d.rule_id === 'csv/dialect')?.reason).toContain(JSON.stringify(delimiter));
      expect(out.elements[0]?.columns?.[1]).toBe('Customer Id');
      expect(anchorOf(out.elements[1] as Element)).toMatchObject({ row: 1, physical_lines: [2, 2], cell_range: 'A2:L2' });
    }
  });

  it('keeps a title row apart from the header row below it', async () => {
    const out = await parseCsv(read('unstructured__stanley-cups-with-emoji.csv'), { fileName: 's.csv', format: 'csv' });
    expect(out.elements[0]?.columns).toBeUndefined();
    expect(out.elements[2]?.columns).toEqual(['Team', 'Location', 'Stanley Cups']);
  });
});
