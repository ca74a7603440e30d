import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ErrorCode, Format } from '@pinpoint/core';

/** A stored-method zip whose central directory declares `declared` uncompressed bytes per entry (no data). */
export function craftZip(entries: Array<{ name: string; declared: number }>): Uint8Array {
  const enc = new TextEncoder();
  const parts: Uint8Array[] = [];
  const centrals: Uint8Array[] = [];
  let offset = 0;
  for (const e of entries) {
    const name = enc.encode(e.name);
    const local = new DataView(new ArrayBuffer(30 + name.length));
    local.setUint32(0, 0x04034b50, true);
    local.setUint16(26, name.length, true);
    new Uint8Array(local.buffer).set(name, 30);
    const central = new DataView(new ArrayBuffer(46 + name.length));
    central.setUint32(0, 0x02014b50, true);
    central.setUint32(20, 1, true);
    central.setUint32(24, Math.min(e.declared, 0xffffffff), true);
    central.setUint16(28, name.length, true);
    central.setUint32(42, offset, true);
    new Uint8Array(central.buffer).set(name, 46);
    parts.push(new Uint8Array(local.buffer));
    centrals.push(new Uint8Array(central.buffer));
    offset += local.byteLength;
  }
  const eocd = new DataView(new ArrayBuffer(22));
  eocd.setUint32(0, 0x06054b50, true);
  eocd.setUint16(8, Math.min(entries.length, 0xffff), true);
  eocd.setUint16(10, Math.min(entries.length, 0xffff), true);
  eocd.setUint32(
    12,
    centrals.reduce((n, c) => n + c.byteLength, 0),
    true,
  );
  eocd.setUint32(16, offset, true);
  return Buffer.concat([...parts, ...centrals, new Uint8Array(eocd.buffer)]);
}

/** The first 33 bytes of a PNG (signature + IHDR) declaring width × height; no pixel data. */
export function pngHeader(width: number, height: number): Uint8Array {
  const header = new Uint8Array(33);
  header.set([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52]);
  const view = new DataView(header.buffer);
  view.setUint32(16, width);
  view.setUint32(20, height);
  header.set([8, 2, 0, 0, 0], 24);
  return header;
}

export interface CraftedInput {
  fileName: string;
  format: Format;
  bytes: Uint8Array;
  expected: ErrorCode;
}

/** The bad uploads every build must refuse cleanly: zip bomb, huge image, encrypted workbook, truncated deck. */
export function craftedInputs(corpusDir: string): CraftedInput[] {
  const pptx = new Uint8Array(readFileSync(join(corpusDir, 'pptx/markitdown__test.pptx')));
  return [
    {
      fileName: 'zip-bomb.docx',
      format: 'docx',
      bytes: craftZip([
        { name: '[Content_Types].xml', declared: 400 },
        { name: 'word/document.xml', declared: 0xfffffff0 },
      ]),
      expected: 'PP_ZIP_BOMB',
    },
    { fileName: 'huge-30000x30000.png', format: 'png', bytes: pngHeader(30000, 30000), expected: 'PP_IMAGE_TOO_LARGE' },
    {
      fileName: 'password_protected.xlsx',
      format: 'xlsx',
      bytes: new Uint8Array(readFileSync(join(corpusDir, 'xlsx/unstructured__password_protected.xlsx'))),
      expected: 'PP_PARSE_ENCRYPTED_OFFICE',
    },
    {
      fileName: 'truncated.pptx',
      format: 'pptx',
      bytes: pptx.subarray(0, Math.floor(pptx.byteLength / 2)),
      expected: 'PP_PARSE_CORRUPT',
    },
  ];
}
