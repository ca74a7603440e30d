import JSZip from 'jszip';
import { describe, expect, it } from 'vitest';
import { readShared } from '../../test/test-support.js';
import { assertOfficeContainer } from './container.js';
import { xmlProblem } from './xml-depth.js';

const enc = new TextEncoder();

async function zipOf(files: Record<string, string>, compression: 'STORE' | 'DEFLATE'): Promise<Uint8Array> {
  const zip = new JSZip();
  for (const [name, text] of Object.entries(files)) zip.file(name, text);
  return zip.generateAsync({ type: 'uint8array', compression });
}

/** Offset of the first local file header's data (name and extra fields skipped). */
function firstDataOffset(bytes: Uint8Array): number {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  return 30 + view.getUint16(26, true) + view.getUint16(28, true);
}

function flip(bytes: Uint8Array, at: number, mask: number): void {
  bytes[at] = (bytes[at] ?? 0) ^ mask;
}

const parts = { '[Content_Types].xml': '<Types><Default Extension="xml"/></Types>', 'word/document.xml': '<w:document/>' };

describe('zip entry checks before a library unpacks', () => {
  it('passes real packages', () => {
    for (const path of [
      'formats/docx/markitdown__test.docx',
      'formats/xlsx/easyexcel__converter07.xlsx',
      'formats/pptx/markitdown__test.pptx',
    ]) {
      expect(assertOfficeContainer(readShared(`corpus/${path}`))).toBe('zip');
    }
  });

  it('refuses an entry whose bytes do not match its CRC-32', async () => {
    const bytes = await zipOf(parts, 'STORE');
    flip(bytes, firstDataOffset(bytes) + 2, 0x20);
    expect(() => assertOfficeContainer(bytes, { what: 'workbook' })).toThrow(
      expect.objectContaining({
        code: 'PP_PARSE_CORRUPT',
        message: 'The workbook is damaged: a compressed part ([Content_Types].xml) does not match its checksum.',
      }),
    );
  });

  it('refuses a damaged deflate stream with our sentence and keeps zlib text as the detail', async () => {
    const bytes = await zipOf(
      { ...parts, 'word/document.xml': `<w:document>${'<w:p>text</w:p>'.repeat(400)}</w:document>` },
      'DEFLATE',
    );
    const at = firstDataOffset(bytes);
    for (let i = 0; i < 8; i++) flip(bytes, at + i, 0xff);
    let caught: unknown;
    try {
      assertOfficeContainer(bytes, { what: 'Word document' });
    } catch (err) {
      caught = err;
    }
    expect(caught).toMatchObject({ code: 'PP_PARSE_CORRUPT', message: expect.stringMatching(/^The Word document is damaged: /) });
    expect((caught as { detail?: string }).detail).toBeTruthy();
  });

  it('refuses an unknown compression method', async () => {
    const bytes = await zipOf(parts, 'STORE');
    new DataView(bytes.buffer, bytes.byteOffset).setUint16(8, 99, true);
    const view = new DataView(bytes.buffer, bytes.byteOffset);
    const central = bytes.findLastIndex((_, i) => i + 4 <= bytes.length && view.getUint32(i, true) === 0x02014b50);
    for (let p = central; p !== -1 && p < bytes.length - 4; p++) {
      if (view.getUint32(p, true) === 0x02014b50) view.setUint16(p + 10, 99, true);
    }
    expect(() => assertOfficeContainer(bytes)).toThrow(
      expect.objectContaining({ message: expect.stringMatching(/unknown compression method/) }),
    );
  });

  it('refuses XML nested deeper than the limit, before any parser recurses into it', async () => {
    const deep = `<w:document>${'<w:p>'.repeat(5000)}${'</w:p>'.repeat(5000)}</w:document>`;
    const bytes = await zipOf({ ...parts, 'word/document.xml': deep }, 'DEFLATE');
    expect(() => assertOfficeContainer(bytes, { what: 'Word document' })).toThrow(
      expect.objectContaining({
        code: 'PP_PARSE_CORRUPT',
        message: 'The Word document cannot be read: word/document.xml nests its markup more than 1000 levels deep.',
      }),
    );
  });

  it('measures XML depth without counting self-closing elements or comments, and finds a declaration after the start', () => {
    const xml = (s: string) => enc.encode(s);
    expect(xmlProblem(xml('<?xml version="1.0"?><a><!-- <b> --><c/><d><e/></d></a>'), 2)).toBeUndefined();
    expect(xmlProblem(xml('<a><b><c>x</c></b></a>'), 2)).toBe('too-deep');
    expect(xmlProblem(xml(`${'<a>'.repeat(3)}${'</a>'.repeat(3)}${'<b>'.repeat(3)}`), 3)).toBeUndefined();
    expect(xmlProblem(xml('<?xml version="1.0"?><a><?xml version="1.0"?><b/></a>'), 9)).toBe('misplaced-declaration');
    expect(xmlProblem(xml('<?xml version="1.0"?><a><?xml-stylesheet href="x"?></a>'), 9)).toBeUndefined();
  });
});
