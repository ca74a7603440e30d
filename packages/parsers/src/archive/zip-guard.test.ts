import { readFileSync } from 'node:fs';
import { craftZip } from '@pinpoint/testing';
import { describe, expect, it } from 'vitest';
import { assertOfficeContainer, isEncryptedOoxml } from './container.js';
import { assertZipWithinLimits, readZipDirectory } from './zip-guard.js';

const corpus = new URL('../../../../../shared/corpus/formats/', import.meta.url);
const read = (rel: string) => new Uint8Array(readFileSync(new URL(rel, corpus)));

describe('zip guard', () => {
  it('reads the central directory of a real docx', () => {
    const summary = readZipDirectory(read('docx/markitdown__test.docx'));
    expect(summary.names).toContain('word/document.xml');
    expect(summary.totalUncompressed).toBeGreaterThan(summary.totalCompressed);
    expect(() => assertZipWithinLimits(read('docx/unstructured__handbook-872p.docx'))).not.toThrow();
  });

  it('rejects a docx whose entries declare gigabytes, before unpacking', () => {
    const bomb = craftZip([
      { name: '[Content_Types].xml', declared: 100 },
      { name: 'word/document.xml', declared: 0xfffffff0 },
    ]);
    expect(bomb.byteLength).toBeLessThan(1024);
    expect(() => assertOfficeContainer(bomb)).toThrow(expect.objectContaining({ code: 'PP_ZIP_BOMB' }));
  });

  it('rejects an archive with too many entries', () => {
    const many = craftZip(Array.from({ length: 300 }, (_, i) => ({ name: `f${i}`, declared: 1 })));
    expect(() => assertZipWithinLimits(many, { maxEntries: 200 })).toThrow(expect.objectContaining({ code: 'PP_ZIP_BOMB' }));
  });

  it('reports a truncated zip as corrupt', () => {
    const pptx = read('pptx/markitdown__test.pptx');
    expect(() => assertOfficeContainer(pptx.subarray(0, Math.floor(pptx.byteLength / 2)))).toThrow(
      expect.objectContaining({ code: 'PP_PARSE_CORRUPT' }),
    );
  });

  it('recognises an encrypted OOXML package (OLE file with EncryptedPackage)', () => {
    expect(isEncryptedOoxml(read('xlsx/unstructured__password_protected.xlsx'))).toBe(true);
    expect(isEncryptedOoxml(read('xls/markitdown__test.xls'))).toBe(false);
    const crafted = new Uint8Array(2048);
    crafted.set([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]);
    const name = (s: string) => Uint8Array.from([...s].flatMap((c) => [c.charCodeAt(0), 0]));
    crafted.set(name('EncryptionInfo'), 1024);
    crafted.set(name('EncryptedPackage'), 1152);
    expect(() => assertOfficeContainer(crafted)).toThrow(expect.objectContaining({ code: 'PP_PARSE_ENCRYPTED_OFFICE' }));
  });
});
