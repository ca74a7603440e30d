import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { PageAnchor } from '@pinpoint/core';
import { PNG } from 'pngjs';
import { afterAll, describe, expect, it } from 'vitest';
import { detectFormat } from '../detect.js';
import { createTesseractOcr } from '../ocr/tesseract-cli.js';
import { parseTiff } from './parse-tiff.js';
import { readTiffPages } from './tiff-directory.js';

const ocrDev = new URL('../../../../../shared/eval/ocr-dev/files/', import.meta.url);
const path = (name: string) => new URL(name, ocrDev).pathname;
const read = (name: string) => new Uint8Array(readFileSync(path(name)));
const ocr = createTesseractOcr();
const work = mkdtempSync(join(tmpdir(), 'pp-tiff-test-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

/** Two Group 4 fax scans of ocr-dev (English prose, skewed about 1.3°) joined by libtiff's tiffcp into one file. */
function faxOfTwoPages(): Uint8Array {
  const out = join(work, 'fax.tif');
  execFileSync('tiffcp', [path('img-04.tif'), path('img-49.tif'), out]);
  return new Uint8Array(readFileSync(out));
}

/** A little-endian TIFF whose directories are `pages` tiny ones chained one after the other, each `w`×`h`, G4. */
function craftedTiff(pages: number, w: number, h: number): Uint8Array {
  const entries: Array<[number, number, number]> = [
    [256, 4, w],
    [257, 4, h],
    [259, 3, 4],
    [273, 4, 8],
    [279, 4, 1],
  ];
  const ifdSize = 2 + entries.length * 12 + 4;
  const bytes = new Uint8Array(8 + pages * ifdSize);
  const view = new DataView(bytes.buffer);
  bytes.set([0x49, 0x49, 42, 0]);
  view.setUint32(4, 8, true);
  for (let p = 0; p < pages; p++) {
    const at = 8 + p * ifdSize;
    view.setUint16(at, entries.length, true);
    entries.forEach(([tag, type, value], i) => {
      const e = at + 2 + i * 12;
      view.setUint16(e, tag, true);
      view.setUint16(e + 2, type, true);
      view.setUint32(e + 4, 1, true);
      if (type === 3) view.setUint16(e + 8, value, true);
      else view.setUint32(e + 8, value, true);
    });
    view.setUint32(at + 2 + entries.length * 12, p + 1 < pages ? at + ifdSize : 0, true);
  }
  return bytes;
}

describe('parseTiff', () => {
  it('reads a two-page Group 4 fax: each page OCR-ed, boxed in its own pixels and rendered to a PNG', async () => {
    const bytes = faxOfTwoPages();
    expect(detectFormat('fax.tif', bytes)).toBe('tiff');
    expect(readTiffPages(bytes, { maxPages: 10, maxPixels: 1e8 }).map((p) => p.compression)).toEqual([4, 4]);
    const out = await parseTiff(bytes, { fileName: 'fax.tif', format: 'tiff', ocr, pageConcurrency: 2 });
    expect(out.sourceMap.pages.map((p) => [p.page_index, p.width, p.height, p.unit])).toEqual([
      [0, 1654, 2339, 'px'],
      [1, 1654, 2339, 'px'],
    ]);
    const text = (page: number) =>
      out.elements
        .filter((e) => (e.anchor as PageAnchor).page_index === page)
        .map((e) => e.text)
        .join(' ');
    expect(text(0)).toContain('Tymnet was also connected to dozens of other public networks');
    expect(text(1)).toContain('In connectionless mode each packet includes complete addressing information');
    for (const e of out.elements) {
      const a = e.anchor as PageAnchor;
      for (const s of e.spans ?? []) expect(s.box[2] <= a.page_width && s.box[3] <= a.page_height).toBe(true);
    }
    expect(out.artifacts.map((a) => [a.kind, a.name, a.mime])).toEqual([
      ['page-image', '0', 'image/png'],
      ['page-image', '1', 'image/png'],
    ]);
    const png = PNG.sync.read(Buffer.from(out.artifacts[1]?.bytes ?? new Uint8Array()));
    expect([png.width, png.height]).toEqual([1654, 2339]);
    expect(out.diagnostics.filter((d) => d.rule_id === 'ocr/engine').map((d) => d.reason)).toEqual([
      'tesseract-cli with eng (script: Latin, straightened -1.25°)',
      'tesseract-cli with eng (script: Latin, straightened -1.3°)',
    ]);
  });

  it('settles a TIFF bomb from its directories, before decoding a pixel', async () => {
    const ctx = { fileName: 'bomb.tif', format: 'tiff' as const, ocr };
    await expect(parseTiff(craftedTiff(1, 100_000, 100_000), ctx)).rejects.toMatchObject({
      code: 'PP_IMAGE_TOO_LARGE',
      message: expect.stringContaining('Scan it at a lower resolution'),
    });
    await expect(parseTiff(craftedTiff(5000, 10, 10), ctx)).rejects.toMatchObject({
      code: 'PP_TOO_MANY_PAGES',
      message: expect.stringContaining('split it into files of at most 1000 pages'),
    });
  });

  it('refuses a truncated TIFF and a directory loop as damaged', async () => {
    const whole = read('img-04.tif');
    const ctx = { fileName: 'cut.tif', format: 'tiff' as const, ocr };
    await expect(parseTiff(whole.subarray(0, Math.floor(whole.length / 2)), ctx)).rejects.toMatchObject({
      code: 'PP_PARSE_CORRUPT',
      message: expect.stringContaining('may be truncated'),
    });
    const loop = craftedTiff(2, 10, 10);
    new DataView(loop.buffer).setUint32(8 + 2 + 5 * 12 + (2 + 5 * 12 + 4), 8, true);
    await expect(parseTiff(loop, ctx)).rejects.toMatchObject({ code: 'PP_PARSE_CORRUPT' });
  });
});
