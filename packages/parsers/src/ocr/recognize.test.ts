import { readFileSync } from 'node:fs';
import { PNG } from 'pngjs';
import { describe, expect, it } from 'vitest';
import { recognizeImage } from './recognize.js';
import { createTesseractOcr } from './tesseract-cli.js';

const ocrDev = new URL('../../../../../shared/eval/ocr-dev/files/', import.meta.url);
const read = (name: string) => new Uint8Array(readFileSync(new URL(name, ocrDev)));
const ocr = createTesseractOcr();

/** The top `share` of one grey PNG page of ocr-dev above the top `share` of another: a page in two scripts. */
function stacked(top: string, bottom: string, share: number): Uint8Array {
  const a = PNG.sync.read(Buffer.from(read(top)));
  const b = PNG.sync.read(Buffer.from(read(bottom)));
  const rowsA = Math.floor(a.height * share);
  const rowsB = Math.floor(b.height * share);
  const out = new PNG({ width: a.width, height: rowsA + rowsB });
  a.data.copy(out.data, 0, 0, rowsA * a.width * 4);
  b.data.copy(out.data, rowsA * a.width * 4, 0, rowsB * b.width * 4);
  return new Uint8Array(PNG.sync.write(out));
}

describe('recognizeImage: the page script chooses the model', () => {
  it.each([
    ['img-51.png', 'Latin', ['eng'], 'cumulative total shareholder return'],
    ['img-24.png', 'Japanese', ['jpn'], '日本の文部科学省'],
    ['img-25.png', 'Han', ['chi_sim'], '尤金袋鼠分布在澳洲南部岛屿'],
    ['img-61.png', 'Han', ['chi_tra'], '古羅馬的作家'],
  ])('%s: %s, read with %j', async (file, script, langs, sample) => {
    const r = await recognizeImage(ocr, read(file), undefined);
    expect(r.script).toBe(script);
    expect(r.langs).toEqual(langs);
    expect(r.lines.map((l) => l.text).join('')).toContain(sample);
  });

  it('reads a page of Traditional Chinese above English with both models', async () => {
    const r = await recognizeImage(ocr, stacked('img-61.png', 'img-05.png', 0.35), undefined);
    expect(r.langs).toEqual(['chi_tra', 'eng']);
    const text = r.lines.map((l) => l.text).join('\n');
    expect(text).toContain('the');
    expect(text).toMatch(/[\u4e00-\u9fff]{8}/u);
  });
});
