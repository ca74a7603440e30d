import { readFileSync } from 'node:fs';
import type { OcrLine } from '@pinpoint/core';
import { describe, expect, it } from 'vitest';
import { decodeTiffPage, tiffDirectories } from '../tiff/tiff-raster.js';
import { greyOf, linesUnskewed, skewOf, straightened } from './deskew.js';

const ocrDev = new URL('../../../../../shared/eval/ocr-dev/files/', import.meta.url);
const read = (name: string) => new Uint8Array(readFileSync(new URL(name, ocrDev)));
const tiffPage = (name: string) => {
  const bytes = read(name);
  return decodeTiffPage(bytes, tiffDirectories(bytes), 0);
};

describe('deskew', () => {
  it("finds a scanner's skew either way and none on a clean page", () => {
    // ocr-dev's scanner TIFFs are turned 1.41° (a table page, Group 4) and -1.04° (prose, LZW grey)
    expect(skewOf(tiffPage('img-34.tif'))).toBeCloseTo(1.41, 0);
    expect(skewOf(tiffPage('img-57.tif'))).toBeCloseTo(-1.04, 1);
    expect(skewOf(greyOf(read('img-59.png'), 60e6))).toBe(0);
    expect(skewOf(greyOf(read('img-21.jpg'), 60e6))).toBe(0);
  });

  const darkness = (p: { width: number; grey: Uint8Array }, b: number[]) => {
    let sum = 0;
    for (let y = b[1] as number; y < (b[3] as number); y++)
      for (let x = b[0] as number; x < (b[2] as number); x++) sum += 255 - (p.grey[y * p.width + x] as number);
    return sum;
  };

  it('levels the lines of a skewed page, and a box found on it lands back on the ink of the page as given', () => {
    const page = tiffPage('img-57.tif');
    const deg = skewOf(page);
    const level = straightened(page, deg);
    expect([level.width, level.height]).toEqual([page.width, page.height]);
    expect(skewOf(level)).toBe(0);
    // a word-sized box on the level page, where its ink is densest (far from the centre, where a turn moves
    // points most), maps back to where the same ink is on the skewed page
    let box: [number, number, number, number] = [0, 0, 100, 30];
    for (let y = 100; y < 700; y += 10)
      for (let x = 100; x < 500; x += 20)
        if (darkness(level, [x, y, x + 100, y + 30]) > darkness(level, box)) box = [x, y, x + 100, y + 30];
    const line: OcrLine = { text: 'x', box, confidence: 90, words: [{ text: 'x', box, confidence: 90 }] };
    const [back] = linesUnskewed([line], deg, page.width, page.height);
    const backBox = back?.words[0]?.box ?? box;
    expect(darkness(level, box)).toBeGreaterThan(100 * 30 * 20);
    expect(backBox[2] - backBox[0]).toBeGreaterThanOrEqual(100);
    expect(box[0]).toBeGreaterThan(0);
    expect(Math.abs(darkness(page, backBox) - darkness(level, box)) / Math.max(1, darkness(level, box))).toBeLessThan(0.35);
  });
});
