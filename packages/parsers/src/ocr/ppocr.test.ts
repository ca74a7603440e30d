import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { buildContext } from '../capabilities.js';
import { greyOf } from './deskew.js';
import { createPpOcrReader } from './ppocr.js';
import { recognizeImage } from './recognize.js';
import { createTesseractOcr } from './tesseract-cli.js';

const ocrDev = new URL('../../../../../shared/eval/ocr-dev/files/', import.meta.url);
const read = (name: string) => new Uint8Array(readFileSync(new URL(name, ocrDev)));

describe('PP-OCRv4 page reader', () => {
  it('reads a page of Simplified Chinese line by line, each character boxed inside its line', async () => {
    const page = greyOf(read('img-25.png'), 60_000_000);
    const out = await createPpOcrReader().read(page);
    const text = out.lines.map((l) => l.text).join('');
    expect(text).toContain('尤金袋鼠分布在澳洲南部岛屿');
    expect(text).toContain('Macropus');
    for (const line of out.lines)
      for (const word of line.words) {
        expect(word.box[0]).toBeGreaterThanOrEqual(line.box[0]);
        expect(word.box[2]).toBeLessThanOrEqual(line.box[2] + 1);
        expect(word.box[0]).toBeLessThan(word.box[2]);
      }
    // a CJK character is a word of its own; a Latin run is one word
    const words = out.lines.flatMap((l) => l.words.map((w) => w.text));
    expect(words).toContain('袋');
    expect(words.some((w) => w.includes('Macropus'))).toBe(true);
    // lines in reading order: top to bottom
    const tops = out.lines.map((l) => l.box[1]);
    expect(tops).toEqual([...tops].sort((a, b) => a - b));
  });

  it('is the reader of pages chosen as Simplified; Traditional pages stay with chi_tra', async () => {
    const ocr = createTesseractOcr({ simplifiedChinese: createPpOcrReader() });
    const sim = await recognizeImage(ocr, read('img-25.png'), undefined);
    expect(sim.langs).toEqual(['chi_sim']);
    expect(sim.engine).toBe('ppocr-v4');
    const tra = await recognizeImage(ocr, read('img-61.png'), undefined);
    expect(tra.langs).toEqual(['chi_tra']);
    expect(tra.engine).toBeUndefined();
  });

  it('is on by default and off when the spec asks for tesseract', () => {
    const on = buildContext({ fileName: 'a.png', format: 'png', capabilities: { ocr: { engine: 'tesseract-cli' } } });
    expect(on.ocr?.simplifiedChinese?.id).toBe('ppocr-v4');
    const off = buildContext({
      fileName: 'a.png',
      format: 'png',
      capabilities: { ocr: { engine: 'tesseract-cli', simplifiedChinese: 'tesseract' } },
    });
    expect(off.ocr?.simplifiedChinese).toBeUndefined();
  });
});
