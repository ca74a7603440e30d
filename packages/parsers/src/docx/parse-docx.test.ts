import type { RecordEntry } from '@pinpoint/core';
import { describe, expect, it } from 'vitest';
import { expectRecordInvariants, parseShared, readShared, sharedFiles } from '../../test/test-support.js';
import { parseDocument } from '../parse.js';

describe('parseDocx on every corpus and eval DOCX file', () => {
  const files = [
    ...sharedFiles('corpus/formats/docx', ['docx']).filter((f) => !f.includes('handbook-872p')),
    ...sharedFiles('eval/jsquad-dev/docs', ['docx']).slice(0, 3),
    ...sharedFiles('eval/drcd-dev/docs', ['docx']).slice(0, 3),
    ...sharedFiles('eval/squad2-dev/docs', ['docx']),
  ];
  it.each(files)('%s: record anchors resolve to records.jsonl lines', async (file) => {
    const { format, out } = await parseShared(file);
    expect(format).toBe('docx');
    expect(out.elements.length).toBeGreaterThan(0);
    expectRecordInvariants(out);
  });
});

describe('parseDocx structure', () => {
  it('numbers paragraphs, keeps the heading trail and turns table rows into records with cells', async () => {
    const { out } = await parseShared('corpus/formats/docx/docling__word_tables.docx');
    const records = expectRecordInvariants(out);
    const [heading, intro, header, row] = out.elements;
    expect(heading).toMatchObject({ type: 'heading', level: 1, text: 'Test with tables', anchor: { paragraph_index: 0 } });
    expect(intro).toMatchObject({ type: 'paragraph', section_path: ['Test with tables'], anchor: { paragraph_index: 1 } });
    expect(header).toMatchObject({
      type: 'table',
      text: 'Header 0.0 | Header 0.1 | Header 0.2',
      anchor: { table_index: 0, record_id: 't0r0' },
    });
    expect(records.get('t0r1')).toMatchObject({
      kind: 'row',
      cells: [
        { ref: 'A2', value: 'Cell 1.0', header: 'Header 0.0' },
        { ref: 'B2', value: 'Cell 1.1', header: 'Header 0.1' },
        { ref: 'C2', value: 'Cell 1.2', header: 'Header 0.2' },
      ],
    });
    expect(row?.columns).toEqual(['Header 0.0', 'Header 0.1', 'Header 0.2']);
  });

  it('names a cell A1 on the table grid, counting the empty layout rows above it', async () => {
    // a securities report's table: an empty first row, then the unit, then the periods
    const { out } = await parseShared('eval/ja-table-dev/docs/059_三井不動産株式会社__連結包括利益計算書.docx');
    const records = [...expectRecordInvariants(out).values()] as RecordEntry[];
    const row = records.find((r) => r.cells?.[0]?.value === '持分法適用会社に対する持分相当額');
    expect(row?.cells?.map((c) => [c.ref, c.value])).toEqual([
      ['A10', '持分法適用会社に対する持分相当額'],
      ['B10', '△ 4,568'],
      ['C10', '1,707'],
    ]);
    const cited = out.elements.find((e) => e.anchor.kind === 'record' && e.anchor.record_id === row?.record_id);
    expect(cited?.cells?.map((c) => c.ref)).toEqual(['A10', 'B10', 'C10']);
  });

  it('takes the first row of two cells or more as the header, not a one-cell note above it', async () => {
    // 「2020年3月31日現在」 alone on the row above the column names
    const { out } = await parseShared('eval/ja-table-dev/docs/047_三井物産株式会社__2_提出会社の状況.docx');
    const rows = out.elements.filter((e) => e.table);
    expect(rows.find((e) => e.table?.header)?.text).toBe('従業員数（名） | 平均年齢（才） | 平均勤続年数 | 平均年間給与（千円）');
    const data = rows.find((e) => e.text.startsWith('5,676'));
    expect(data?.cells?.slice(0, 2).map((c) => [c.ref, c.header])).toEqual([
      ['A4', '従業員数（名）'],
      ['B4', '平均年齢（才）'],
    ]);
  });

  it('paragraph_index counts headings, paragraphs and list items in order', async () => {
    const { out } = await parseShared('eval/squad2-dev/docs/003_Steam_engine.docx');
    const indexes = out.elements.flatMap((e) =>
      e.anchor.kind === 'record' && e.anchor.paragraph_index !== undefined ? [e.anchor.paragraph_index] : [],
    );
    expect(indexes).toEqual(indexes.map((_, i) => i));
  });

  it('a zip that is not a Word document fails as corrupt', async () => {
    const xlsx = readShared(sharedFiles('corpus/formats/xlsx', ['xlsx'])[0] as string);
    await expect(parseDocument(xlsx, { fileName: 'renamed.docx', format: 'docx' })).rejects.toMatchObject({
      code: 'PP_PARSE_CORRUPT',
    });
  });
});
