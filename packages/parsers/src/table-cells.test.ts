import type { Element, ParseOutput } from '@pinpoint/core';
import { CodepointIndex, recordEntrySchema, sliceCodepoints } from '@pinpoint/core';
import type { DefaultTreeAdapterTypes } from 'parse5';
import { parseFragment } from 'parse5';
import { describe, expect, it } from 'vitest';
import { parseShared, readShared, sharedFiles } from '../test/test-support.js';
import { createLibreOfficeConverter } from './office/libreoffice.js';
import { parseLegacyDoc } from './office/parse-office.js';

/** Every format that holds tables, read from the shared corpus (the encrypted workbook is refused elsewhere). */
const files = [
  ...sharedFiles('corpus/formats/xlsx', ['xlsx']),
  ...sharedFiles('corpus/formats/xls', ['xls']),
  ...sharedFiles('corpus/formats/csv', ['csv']),
  ...sharedFiles('corpus/formats/docx', ['docx']),
  ...sharedFiles('corpus/formats/html', ['html']),
  ...sharedFiles('eval/wtq-dev/docs', ['csv', 'xlsx', 'html']).slice(0, 12),
].filter((f) => !/encrypt|password|handbook-872p/i.test(f));

function artifact(out: ParseOutput, name: string): string {
  const a = out.artifacts.find((x) => x.name === name);
  return a ? new TextDecoder().decode(a.bytes) : '';
}

const SKIPPED = new Set(['script', 'style', 'noscript', 'template']);

/** The text of a raw HTML slice: tags stripped and entities decoded by an HTML parser, scripts and styles dropped. */
function visible(raw: string): string {
  const out: string[] = [];
  const walk = (node: DefaultTreeAdapterTypes.Node): void => {
    if (node.nodeName === '#text' && 'value' in node) out.push(node.value);
    if ('tagName' in node && SKIPPED.has(node.tagName)) return;
    if ('childNodes' in node) for (const child of node.childNodes) walk(child);
  };
  walk(parseFragment(`<table><tr>${raw}</tr></table>`));
  return out.join('');
}

/** Is `part` (whitespace and the " | " of nested table rows ignored) read in order inside `whole`? Hidden text may sit between. */
function readsInOrder(part: string, whole: string): boolean {
  const p = Array.from(part.replace(/[\s|]+/g, ''));
  let i = 0;
  for (const ch of whole.replace(/[\s|]+/g, '')) if (ch === p[i]) i++;
  return i === p.length;
}

function checkRecordCells(out: ParseOutput, rows: Element[]): void {
  const records = new Map(
    artifact(out, 'records.jsonl')
      .split('\n')
      .filter((l) => l !== '')
      .map((l) => recordEntrySchema.parse(JSON.parse(l)))
      .map((r) => [r.record_id, r] as const),
  );
  for (const e of rows) {
    if (e.anchor.kind !== 'record') throw new Error(`${e.element_id}: a table row of a record format has a record anchor`);
    const record = records.get(e.anchor.record_id);
    for (const c of e.cells ?? []) {
      const value = record?.cells?.find((x) => x.ref === c.ref)?.value;
      expect(sliceCodepoints(e.text, c.start, c.end), `${e.anchor.record_id} ${c.ref}`).toBe(value);
      if (e.anchor.sheet !== undefined)
        expect(Number(/\d+$/.exec(c.ref)?.[0]), `${c.ref} in row ${e.anchor.row}`).toBe(e.anchor.row);
      else if (e.anchor.physical_lines) expect(Number(/\d+$/.exec(c.ref)?.[0])).toBe((e.anchor.row ?? 0) + 1);
    }
  }
}

function checkHtmlCells(out: ParseOutput, rows: Element[]): void {
  const decoded = artifact(out, 'decoded.txt');
  const source = artifact(out, 'source.html');
  const di = new CodepointIndex(decoded);
  const si = new CodepointIndex(source);
  for (const e of rows) {
    if (e.anchor.kind !== 'text') throw new Error(`${e.element_id}: an HTML table row has a text anchor`);
    for (const c of e.cells ?? []) {
      const text = sliceCodepoints(e.text, c.start, c.end);
      const start = e.anchor.start + c.start;
      expect(decoded.slice(di.toUtf16(start), di.toUtf16(start + c.end - c.start))).toBe(text);
      expect(c.raw).toBeDefined();
      const raw = source.slice(si.toUtf16(c.raw?.start ?? 0), si.toUtf16(c.raw?.end ?? 0));
      expect(raw).toMatch(/^<t[dh]\b/i);
      expect(readsInOrder(text, visible(raw)), `${e.element_id} ${c.ref}: ${text}`).toBe(true);
    }
  }
}

describe('table cells on every corpus file that holds tables', () => {
  it.each(files)('%s: every cell anchor resolves to exactly that cell', async (path) => {
    const { out } = await parseShared(path);
    const rows = out.elements.filter((e) => e.table);
    for (const e of rows) {
      const cells = e.cells ?? [];
      for (const c of cells) expect(c.start < c.end && c.end <= Array.from(e.text).length).toBe(true);
      // a data cell under a header cell carries that header's name (a one-cell header row is the table's title)
      const named = new Set(
        rows
          .filter((r) => r.table?.index === e.table?.index && r.table?.header && (r.cells ?? []).length > 1)
          .flatMap((r) => (r.cells ?? []).map((c) => c.col)),
      );
      if (!e.table?.header && !path.endsWith('.docx'))
        for (const c of cells) if (named.has(c.col)) expect(c.header, `${e.element_id} ${c.ref} names its column`).toBeTruthy();
    }
    if (out.sourceMap.anchor_kind === 'record') checkRecordCells(out, rows);
    else checkHtmlCells(out, rows);
  });

  it.each(sharedFiles('corpus/formats/doc', ['doc']))(
    '%s: a .doc (through LibreOffice to .docx) gets the same table model and cell records',
    async (path) => {
      const fileName = path.split('/').at(-1) as string;
      const out = await parseLegacyDoc(readShared(path), { fileName, format: 'doc', convert: createLibreOfficeConverter() });
      const rows = out.elements.filter((e) => e.table);
      checkRecordCells(out, rows);
      if (fileName === 'tika__testWORD_various.doc') {
        expect(rows.length).toBeGreaterThan(1);
        expect(rows.some((e) => (e.cells ?? []).length > 1)).toBe(true);
      }
    },
    120_000,
  );

  it('finds the header row of a CSV and names each data cell by it', async () => {
    const { out } = await parseShared('eval/wtq-dev/docs/000_MXR_Yorkshire.csv');
    const header = out.elements.find((e) => e.table?.header);
    expect(header?.text).toContain('Service | Service ID');
    const row = out.elements.find((e) => e.text.startsWith('Choice FM'));
    expect(row?.cells?.[1]).toMatchObject({ ref: 'B3', header: 'Service ID' });
    expect(row?.anchor).toMatchObject({ kind: 'record', row: 2, physical_lines: [5, 5] });
  });

  it('finds a header row whose names repeat ("Men | Sport | Women | Sport | …") over a row of data', async () => {
    const { out } = await parseShared('eval/wtq-dev/docs/081_Belgian_Sportsman_of_the_year.csv');
    const header = out.elements.find((e) => e.table?.header);
    expect(header?.text).toMatch(/^Year \| Men \| Sport \| Women \| Sport/);
    const row = out.elements.find((e) => e.text.startsWith('2013 |'));
    expect(row?.cells?.[9]).toMatchObject({ ref: 'J2', header: 'Paralympic' });
  });

  it('places HTML cells on the grid with rowspans carried to the rows below', async () => {
    const { out } = await parseShared('eval/wtq-dev/docs/002_Lorenzo_Civallero.html');
    const rows = out.elements.filter((e) => e.table && !e.table.header);
    const second2001 = rows[2];
    expect(second2001?.table?.carried).toEqual([{ col: 0, header: 'Year', value: '2001' }]);
    expect(second2001?.cells?.[0]).toMatchObject({ col: 1, header: 'Competition' });
  });
});
