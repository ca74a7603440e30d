import type { ParseOutput } from '@pinpoint/core';
import { sha256Hex } from '@pinpoint/core';
import { describe, expect, it } from 'vitest';
import { parseShared } from '../test/test-support.js';

/** Golden outputs of small real files: regenerate with `npx vitest run packages/parsers/src/golden.test.ts -u`, never by hand. */
const fixtures = [
  'corpus/formats/pdf/pdfjs__rotation.pdf',
  'corpus/formats/pdf/pdfminer__pagelabels.pdf',
  'corpus/formats/txt/unstructured__fake-text-utf-16-be.txt',
  'corpus/formats/md/docling__nested.md',
  'corpus/formats/markdown/kreuzberg__tables.markdown',
  'corpus/formats/html/docling__table_06.html',
  'corpus/formats/html/tika__testHTML_charset_utf16le.html',
  'corpus/formats/docx/docling__word_tables.docx',
];

function golden(out: ParseOutput): string {
  const artifacts = out.artifacts.map((a) => ({
    kind: a.kind,
    name: a.name,
    mime: a.mime,
    sha256: sha256Hex(a.bytes),
    size: a.bytes.byteLength,
  }));
  const round = (_key: string, value: unknown) =>
    typeof value === 'number' && !Number.isInteger(value) ? Math.round(value * 100) / 100 : value;
  return `${JSON.stringify({ diagnostics: out.diagnostics, artifacts, sourceMap: out.sourceMap }, round, 1)}\n`;
}

describe('golden parse outputs', () => {
  it.each(fixtures)('%s', async (file) => {
    const { out } = await parseShared(file);
    await expect(golden(out)).toMatchFileSnapshot(`./__golden__/${file.split('/').at(-1)}.json`);
  });
});
