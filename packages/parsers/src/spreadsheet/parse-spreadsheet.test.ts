import { readFileSync } from 'node:fs';
import * as XLSX from '@e965/xlsx';
import type { Element, ParseOutput, RecordAnchor, RecordEntry } from '@pinpoint/core';
import { recordEntrySchema, sha256Hex, sourceMapSchema } from '@pinpoint/core';
import { describe, expect, it } from 'vitest';
import { expectRecordInvariants, parseShared, sharedFiles } from '../../test/test-support.js';
import { createLibreOfficeConverter } from '../office/libreoffice.js';
import { parseSpreadsheet } from './parse-spreadsheet.js';

const corpus = new URL('../../../../../shared/corpus/formats/', import.meta.url);
const read = (rel: string) => new Uint8Array(readFileSync(new URL(rel, corpus)));

function recordAnchor(e: Element): RecordAnchor {
  if (e.anchor.kind !== 'record') throw new Error('not a record anchor');
  return e.anchor;
}

function rows(out: ParseOutput): Element[] {
  return out.elements.filter((e) => e.type === 'record');
}

describe('parseSpreadsheet', () => {
  it('holds the record invariants on every corpus workbook (the encrypted one refused)', async () => {
    for (const path of [...sharedFiles('corpus/formats/xlsx'), ...sharedFiles('corpus/formats/xls')]) {
      if (path.includes('password_protected')) continue;
      const { out } = await parseShared(path);
      const records = expectRecordInvariants(out);
      for (const e of out.elements)
        expect((records.get(recordAnchor(e).record_id) as RecordEntry | undefined)?.sheet).toBe(recordAnchor(e).sheet);
    }
  });

  it('points every row record at the sheet, row and cells SheetJS reads directly', async () => {
    const bytes = read('xlsx/paperqa__dummy.xlsx');
    const out = await parseSpreadsheet(bytes, { fileName: 'dummy.xlsx', format: 'xlsx' });
    const wb = XLSX.read(bytes, { type: 'array' });
    expect(rows(out).length).toBeGreaterThan(100);
    for (const e of rows(out)) {
      const a = recordAnchor(e);
      const ws = wb.Sheets[a.sheet as string] as XLSX.WorkSheet;
      const range = XLSX.utils.decode_range(a.cell_range as string);
      expect(range.s.r + 1).toBe(a.row);
      expect(range.e.r + 1).toBe(a.row);
      const shown: string[] = [];
      for (let c = range.s.c; c <= range.e.c; c++) {
        const cell = ws[XLSX.utils.encode_cell({ r: range.s.r, c })] as XLSX.CellObject | undefined;
        if (cell?.w?.trim()) shown.push(cell.w);
      }
      expect(e.text).toBe(shown.join(' | '));
    }
    expect(rows(out)[1]?.columns).toEqual(['日付', '商品名', 'カテゴリ', '数量', '単価', '売上金額', '担当者']);
    expect(recordAnchor(rows(out)[1] as Element)).toMatchObject({ sheet: '2024年売上', row: 2, cell_range: 'A2:G2' });
  });

  it('writes records.jsonl whose hash every anchor carries, one line per element', async () => {
    const out = await parseSpreadsheet(read('xlsx/docling__xlsx_01.xlsx'), { fileName: 'x.xlsx', format: 'xlsx' });
    const artifact = out.artifacts.find((a) => a.kind === 'records.jsonl');
    expect(artifact).toBeDefined();
    const sha = sha256Hex(artifact?.bytes as Uint8Array);
    const lines = new TextDecoder().decode(artifact?.bytes).trimEnd().split('\n');
    expect(lines).toHaveLength(out.elements.length);
    out.elements.forEach((e, i) => {
      const entry = recordEntrySchema.parse(JSON.parse(lines[i] as string));
      expect(recordAnchor(e)).toMatchObject({ records_sha256: sha, record_id: entry.record_id });
      expect(entry.text).toBe(e.text);
    });
    expect(sourceMapSchema.parse(out.sourceMap).records_sha256).toBe(sha);
    expect(new Set(out.elements.map((e) => recordAnchor(e).sheet))).toEqual(new Set(['Sheet1', 'Sheet2', 'Sheet3', 'Sheet4']));
  });

  it('keeps cached formula values and dates as the sheet displays them', async () => {
    const formulas = await parseSpreadsheet(read('xlsx/unstructured__2023-half-year-analyses-by-segment.xlsx'), {
      fileName: 'f.xlsx',
      format: 'xlsx',
    });
    const b18 = rows(formulas).find((e) => recordAnchor(e).row === 18 && recordAnchor(e).cell_range?.startsWith('A18'));
    expect(b18?.text).toContain('46,293');
    const dates = await parseSpreadsheet(read('xlsx/tika__testEXCEL_dateFormats.xlsx'), { fileName: 'd.xlsx', format: 'xlsx' });
    expect(rows(dates).map((e) => e.text)).toContain('9/20/18');
  });

  it('repeats a vertically merged value on each row it covers', async () => {
    const ws = XLSX.utils.aoa_to_sheet([
      ['Region', 'City', 'Sales'],
      ['North', 'Oslo', 10],
      [null, 'Bergen', 20],
    ]);
    ws['!merges'] = [{ s: { r: 1, c: 0 }, e: { r: 2, c: 0 } }];
    const wb = XLSX.utils.book_new();
    XLSX.utils.book_append_sheet(wb, ws, 'Merged');
    const bytes = new Uint8Array(XLSX.write(wb, { type: 'array', bookType: 'xlsx' }) as ArrayBuffer);
    const out = await parseSpreadsheet(bytes, { fileName: 'm.xlsx', format: 'xlsx' });
    const bergen = rows(out).find((e) => e.text.includes('Bergen'));
    expect(bergen?.text).toBe('North | Bergen | 20');
    expect(recordAnchor(bergen as Element)).toMatchObject({ row: 3, cell_range: 'A3:C3' });
    expect(bergen?.columns).toEqual(['Region', 'City', 'Sales']);
  });

  it('reads legacy .xls workbooks', async () => {
    const out = await parseSpreadsheet(read('xls/markitdown__test.xls'), { fileName: 't.xls', format: 'xls' });
    expect(rows(out)[1]?.text).toBe('89 | 82 | 100 | 12');
  });

  it('asks LibreOffice for a second reading when SheetJS finds no cells in a sheet that declares a range', async () => {
    const convert = createLibreOfficeConverter();
    const out = await parseSpreadsheet(read('xls/tika__testEXCEL_95.xls'), { fileName: 'x95.xls', format: 'xls', convert });
    // LibreOffice finds no cell text in this BIFF5 file either: both readings are reported, nothing is invented
    expect(out.diagnostics.map((d) => d.rule_id)).toEqual(['spreadsheet/converted', 'spreadsheet/no-cells']);
    expect(out.elements.map((e) => e.type)).toEqual(['heading']);
  });

  it('fails an encrypted workbook with PP_PARSE_ENCRYPTED_OFFICE', async () => {
    await expect(
      parseSpreadsheet(read('xlsx/unstructured__password_protected.xlsx'), { fileName: 'p.xlsx', format: 'xlsx' }),
    ).rejects.toMatchObject({
      code: 'PP_PARSE_ENCRYPTED_OFFICE',
    });
  });

  it('leaves Object.prototype untouched by a workbook whose names try __proto__ pollution', async () => {
    const before = Object.getOwnPropertyNames(Object.prototype).sort();
    const ws = XLSX.utils.aoa_to_sheet([
      ['__proto__', 'constructor', 'prototype'],
      ['polluted', 'yes', 'toString'],
    ]);
    const wb = XLSX.utils.book_new();
    XLSX.utils.book_append_sheet(wb, ws, '__proto__');
    XLSX.utils.book_append_sheet(wb, XLSX.utils.aoa_to_sheet([['x']]), 'constructor');
    wb.Workbook = { Names: [{ Name: '__proto__', Ref: "'__proto__'!$A$1" }] };
    wb.Custprops = { ['__proto__']: 'polluted', constructor: 'x' };
    const bytes = new Uint8Array(XLSX.write(wb, { type: 'array', bookType: 'xlsx' }) as ArrayBuffer);
    const out = await parseSpreadsheet(bytes, { fileName: 'proto.xlsx', format: 'xlsx' });
    expect(Object.getOwnPropertyNames(Object.prototype).sort()).toEqual(before);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(rows(out).map((e) => e.text)).toEqual(['__proto__ | constructor | prototype', 'polluted | yes | toString', 'x']);
    expect(recordAnchor(rows(out)[0] as Element).sheet).toBe('__proto__');
  });
});
