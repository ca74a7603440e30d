import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ocrPdfPage, renderDpi } from './pdf-page.js';
import { createPdfRasterizer } from './pdftoppm.js';
import { createTesseractOcr } from './tesseract-cli.js';
import { joinWords } from './tsv.js';

const corpus = new URL('../../../../../shared/corpus/formats/pdf/', import.meta.url);
const read = (name: string) => new Uint8Array(readFileSync(new URL(name, corpus)));
const ctx = { fileName: 'scan.pdf', format: 'pdf' as const, ocr: createTesseractOcr(), rasterize: createPdfRasterizer() };
const A4 = { page_index: 0, width: 595.201, height: 841.922 };

describe('ocrPdfPage', () => {
  it('reads a scanned page and maps boxes to points in the unrotated page, also for a page shown upside down', async () => {
    const upright = await ocrPdfPage(read('docling__ocr_test.pdf'), { ...A4, rotation: 0 }, ctx, ['eng']);
    const turned = await ocrPdfPage(read('docling__ocr_test_rotated_180.pdf'), { ...A4, rotation: 180 }, ctx, ['eng']);
    expect(upright?.lines[0]?.text).toMatch(/^Docling bundles PDF document/);
    expect(turned?.lines.map((l) => l.text)).toEqual(upright?.lines.map((l) => l.text));
    expect(turned?.confidence).toBeGreaterThan(80);
    upright?.lines.forEach((line, i) => {
      const other = turned?.lines[i]?.box ?? [0, 0, 0, 0];
      line.box.forEach((v, k) => {
        expect(Math.abs(v - (other[k] as number))).toBeLessThan(3);
      });
      for (const w of line.words) {
        expect(w.box[0]).toBeGreaterThanOrEqual(0);
        expect(w.box[2]).toBeLessThanOrEqual(A4.width);
        expect(w.box[3]).toBeLessThanOrEqual(A4.height);
      }
    });
  });

  it('returns null without the OCR capabilities', async () => {
    expect(await ocrPdfPage(new Uint8Array(), { ...A4, rotation: 0 }, { fileName: 'x.pdf', format: 'pdf' })).toBeNull();
  });

  it('renders huge pages at a lower dpi', () => {
    expect(renderDpi({ ...A4, rotation: 0 })).toBe(200);
    expect(renderDpi({ page_index: 0, width: 14400, height: 14400, rotation: 0 })).toBeLessThan(50);
  });

  it('joins CJK words without spaces and Latin words with them', () => {
    expect(joinWords(['新鲜', '甘草', '“', '清道夫', '”', 'OK'])).toBe('新鲜甘草“清道夫” OK');
    expect(joinWords(['Apache', 'Tika'])).toBe('Apache Tika');
  });
});
