import { readFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { documentIdentitySchema } from '@pinpoint/core';
import { detectFormat, parseDocument } from '@pinpoint/parsers';
import { describe, expect, it } from 'vitest';
import { readDocumentIdentity } from './document-identity.js';
import { coverPeriod } from './identity-periods.js';

const SHARED = join(import.meta.dirname, '../../../../shared');
const REPORTS = join(SHARED, 'eval/financebench-dev/docs');
const CORPUS = join(SHARED, 'corpus/formats');

/** The identity ingest reads: the real parser's output, its declared title, the periods reader on the cover. */
async function identityOf(path: string) {
  const bytes = new Uint8Array(readFileSync(path));
  const fileName = basename(path);
  const out = await parseDocument(bytes, { fileName, format: detectFormat(fileName, bytes) });
  const identity = readDocumentIdentity({ fileName, elements: out.elements, title: out.metadata?.title, coverPeriod });
  expect(documentIdentitySchema.parse(identity)).toEqual(identity);
  return identity;
}

const values = (names: { value: string; source: string }[]) => names.map((n) => `${n.value} (${n.source})`);

describe('document identity from real files', () => {
  it('an 8-K: the registrant above "Exact name of registrant", its symbol, the form, the report date', async () => {
    const id = await identityOf(join(REPORTS, 'AMCOR_2022_8K_dated-2022-07-01.pdf'));
    expect(values(id.names)).toEqual(['AMCOR PLC (cover_page)', 'AMCR (cover_page)']);
    expect(id.kind).toEqual({ value: '8-K', source: 'cover_page' });
    expect(id.period).toMatchObject({ fiscal_year: 2022, end_date: '2022-07-01' });
  }, 60_000);

  it('an 8-K whose symbols are a table on its cover: the registrant in its own case, the symbol beside its exchange', async () => {
    const id = await identityOf(join(REPORTS, 'JOHNSON_JOHNSON_2023_8K_dated-2023-08-30.pdf'));
    expect(values(id.names)).toEqual(expect.arrayContaining(['Johnson & Johnson (cover_page)', 'JNJ (cover_page)']));
    expect(id.kind).toEqual({ value: '8-K', source: 'cover_page' });
    expect(id.period).toMatchObject({ fiscal_year: 2023, end_date: '2023-08-30' });
  }, 60_000);

  it('an earnings release: the issuer and ticker of its dateline, the quarter its headline states', async () => {
    const id = await identityOf(join(REPORTS, 'JOHNSON_JOHNSON_2022Q4_EARNINGS.pdf'));
    expect(values(id.names)).toEqual(['Johnson & Johnson (cover_page)', 'JNJ (cover_page)']);
    expect(id.kind).toEqual({ value: 'earnings release', source: 'cover_page' });
    expect(id.period).toEqual({ fiscal_year: 2022, quarter: 4, source: 'cover_page' });
  }, 60_000);

  it("a 10-K: the registrant's name, the form and the fiscal year it ended", async () => {
    const id = await identityOf(join(REPORTS, 'LOCKHEEDMARTIN_2020_10K.pdf'));
    expect(id.names[0]).toEqual({ value: 'LOCKHEED MARTIN CORPORATION', source: 'cover_page' });
    expect(id.kind).toEqual({ value: '10-K', source: 'cover_page' });
    expect(id.period).toEqual({ fiscal_year: 2020, end_date: '2020-12-31', source: 'cover_page' });
  }, 120_000);

  it('DOCX and XLSX: the title of their core properties, beside the file name', async () => {
    const docx = await identityOf(join(CORPUS, 'docx/docling__textbox.docx'));
    expect(values(docx.names)).toEqual(['傳染病通報作業流程 (title_metadata)', 'docling textbox (file_name)']);
    const xlsx = await identityOf(join(CORPUS, 'xlsx/docling__xlsx_05_table_with_title.xlsx'));
    expect(values(xlsx.names)).toEqual(['Wild Duck Observations (title_metadata)', 'docling xlsx table with title (file_name)']);
    const half = await identityOf(join(CORPUS, 'xlsx/unstructured__2023-half-year-analyses-by-segment.xlsx'));
    expect(half.period).toEqual({ fiscal_year: 2023, source: 'file_name' });
  }, 60_000);

  it('a document without a cover page gets its identity from its file name alone', async () => {
    const paper = await identityOf(join(CORPUS, 'pdf/pdfjs__tracemonkey.pdf'));
    expect(paper).toEqual({ names: [{ value: 'pdfjs tracemonkey', source: 'file_name' }], kind: null, period: null });
    const csv = await identityOf(join(CORPUS, 'csv/easyexcel__demo.csv'));
    expect(csv).toEqual({ names: [{ value: 'easyexcel demo', source: 'file_name' }], kind: null, period: null });
    expect(readDocumentIdentity({ fileName: 'TOYOTA_2023_有価証券報告書.pdf', elements: [] })).toEqual({
      names: [{ value: 'TOYOTA', source: 'file_name' }],
      kind: { value: '有価証券報告書', source: 'file_name' },
      period: { fiscal_year: 2023, source: 'file_name' },
    });
    // words that name nothing are no name: a question "In 2019, …" is not about this file's company
    const table = await identityOf(join(SHARED, 'eval/tatqa-arith-dev/docs/120_In_2019_2018_and_2017_we_adopted.csv'));
    expect(table).toEqual({ names: [], kind: null, period: { fiscal_year: 2019, source: 'file_name' } });
  }, 60_000);
});
