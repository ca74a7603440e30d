import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { GreyPage } from '../tiff/tiff-raster.js';
import { greyOf } from './deskew.js';
import { hasColumns, linesOnPage, pageCuts, piecesPerPage } from './pieces.js';
import { recognizeImage } from './recognize.js';
import { createTesseractOcr } from './tesseract-cli.js';

const shared = new URL('../../../../../shared/', import.meta.url);
const read = (path: string) => new Uint8Array(readFileSync(new URL(path, shared)));
const grey = (path: string) => greyOf(read(path), 60_000_000);

/**
 * A white 1200 × 1600 page of text lines drawn as runs of black "words" (20 px high, 16 px apart), in one
 * column or in two with a 60 px gutter; the lines of the two columns are level with each other, so every
 * gap between lines crosses the whole page.
 */
function drawnPage(columns: 1 | 2): GreyPage {
  const width = 1200;
  const height = 1600;
  const page = new Uint8Array(width * height).fill(255);
  const spans: Array<[number, number]> =
    columns === 1
      ? [[100, 1100]]
      : [
          [100, 570],
          [630, 1100],
        ];
  for (let top = 100; top + 20 < 1500; top += 36)
    for (const [left, right] of spans)
      for (let x = left; x < right; x += 70)
        for (let y = top; y < top + 20; y++) page.fill(0, y * width + x, y * width + Math.min(x + 55, right));
  return { width, height, grey: page };
}

function inkBetween(page: GreyPage, top: number, end: number): number {
  let n = 0;
  for (let i = top * page.width; i < end * page.width; i++) if ((page.grey[i] as number) < 128) n++;
  return n;
}

describe('pageCuts', () => {
  it('cuts a page of one column between two lines, near the middle of its ink', () => {
    const page = drawnPage(1);
    const cuts = pageCuts(page, 2);
    expect(cuts).toHaveLength(1);
    const cut = cuts[0] as number;
    expect(inkBetween(page, cut, cut + 1)).toBe(0);
    const top = inkBetween(page, 0, cut);
    const bottom = inkBetween(page, cut, page.height);
    expect(Math.min(top, bottom) / (top + bottom)).toBeGreaterThan(0.4);
  });

  it('does not cut across two columns, which are read one after the other', () => {
    expect(pageCuts(drawnPage(2), 2)).toEqual([]);
    expect(pageCuts(grey('corpus/formats/jpg/unstructured__double-column-A.jpg'), 2)).toEqual([]);
  });

  it('reads a page of one piece, or a small one, whole', () => {
    expect(pageCuts(drawnPage(1), 1)).toEqual([]);
    expect(pageCuts(grey('corpus/formats/png/kreuzberg__invoice_image.png'), 2)).toEqual([]);
  });

  it('cuts a scanned page of prose in a blank band', () => {
    const page = grey('eval/ocr-dev/files/img-05.png');
    const [cut] = pageCuts(page, 2);
    expect(cut).toBeDefined();
    expect(inkBetween(page, cut as number, (cut as number) + 1)).toBe(0);
  });

  it('moves the lines of a lower piece down to their place on the page', () => {
    const line = { text: 'a', confidence: 90, box: [1, 2, 3, 4] as [number, number, number, number], words: [] };
    const word = { text: 'a', confidence: 90, box: [1, 2, 3, 4] as [number, number, number, number] };
    expect(linesOnPage([{ ...line, words: [word] }], 100)).toEqual([
      { ...line, box: [1, 102, 3, 104], words: [{ ...word, box: [1, 102, 3, 104] }] },
    ]);
  });
});

describe('piecesPerPage', () => {
  it('gives a page the cores the other pages leave it', () => {
    expect(piecesPerPage(2, 1)).toBe(2);
    expect(piecesPerPage(2, 3)).toBe(1);
    expect(piecesPerPage(4, 2)).toBe(2);
    expect(piecesPerPage(1, 1)).toBe(1);
    expect(piecesPerPage(0, 0)).toBe(1);
  });
});

describe('hasColumns', () => {
  it('tells a page of two columns or a table from a page of one column', () => {
    expect(hasColumns(drawnPage(1))).toBe(false);
    expect(hasColumns(drawnPage(2))).toBe(true);
    expect(hasColumns(grey('corpus/formats/jpg/unstructured__double-column-A.jpg'))).toBe(true);
    expect(hasColumns(grey('eval/ocr-dev/files/img-59.png'))).toBe(true);
    expect(hasColumns(grey('eval/ocr-dev/files/img-25.png'))).toBe(false);
  });
});

describe('a page read in two pieces at once', () => {
  it('reads the same words, in the same order and boxes, as the page read whole', async () => {
    const image = read('eval/ocr-dev/files/img-05.png');
    const ocr = createTesseractOcr();
    const whole = await recognizeImage(ocr, image, ['eng']);
    const halves = await recognizeImage(ocr, image, ['eng'], undefined, {}, { pieces: 2 });
    const words = (r: typeof whole) => r.lines.flatMap((l) => l.words.map((w) => w.text));
    expect(words(halves)).toEqual(words(whole));
    const boxes = (r: typeof whole) => r.lines.flatMap((l) => l.words.map((w) => w.box));
    const moved = boxes(halves).filter((b, i) =>
      b.some((v, k) => Math.abs(v - ((boxes(whole)[i] as number[])[k] as number)) > 2),
    );
    expect(moved).toEqual([]);
  });
});
