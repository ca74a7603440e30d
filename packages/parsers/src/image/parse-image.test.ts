import { readFileSync } from 'node:fs';
import type { Element, PageAnchor } from '@pinpoint/core';
import { codepointLength } from '@pinpoint/core';
import { pngHeader } from '@pinpoint/testing';
import jpeg from 'jpeg-js';
import { PNG } from 'pngjs';
import { describe, expect, it } from 'vitest';
import { createTesseractOcr } from '../ocr/tesseract-cli.js';
import { parseImage } from './parse-image.js';

const corpus = new URL('../../../../../shared/corpus/formats/', import.meta.url);
const read = (rel: string) => new Uint8Array(readFileSync(new URL(rel, corpus)));
const ocr = createTesseractOcr();

function expectInside(e: Element): void {
  const a = e.anchor as PageAnchor;
  for (const box of [...a.boxes, ...(e.spans ?? []).map((s) => s.box)]) {
    expect(box[0]).toBeGreaterThanOrEqual(0);
    expect(box[1]).toBeGreaterThanOrEqual(0);
    expect(box[2]).toBeLessThanOrEqual(a.page_width);
    expect(box[3]).toBeLessThanOrEqual(a.page_height);
    expect(box[2]).toBeGreaterThan(box[0]);
    expect(box[3]).toBeGreaterThan(box[1]);
  }
  for (const s of e.spans ?? []) {
    expect(s.end).toBeLessThanOrEqual(codepointLength(e.text));
    // a cited word's box is drawn as part of its element
    expect(a.boxes.some((b) => s.box[0] >= b[0] && s.box[1] >= b[1] && s.box[2] <= b[2] && s.box[3] <= b[3])).toBe(true);
  }
}

/** The upright JPEG turned 90° counter-clockwise on disk, with EXIF orientation 6 telling viewers to turn it back. */
function sidewaysWithExif(upright: Uint8Array): Uint8Array {
  const img = jpeg.decode(upright, { useTArray: true, formatAsRGBA: true });
  const { width: w, height: h } = img;
  const turned = new Uint8Array(w * h * 4);
  for (let y = 0; y < w; y++) {
    for (let x = 0; x < h; x++) {
      const from = (x * w + (w - 1 - y)) * 4;
      turned.set(img.data.subarray(from, from + 4), (y * h + x) * 4);
    }
  }
  const encoded = jpeg.encode({ width: h, height: w, data: turned }, 95).data;
  const tiff = [0x49, 0x49, 0x2a, 0, 8, 0, 0, 0, 1, 0, 0x12, 0x01, 3, 0, 1, 0, 0, 0, 6, 0, 0, 0, 0, 0, 0, 0];
  const payload = [0x45, 0x78, 0x69, 0x66, 0, 0, ...tiff];
  const app1 = [0xff, 0xe1, (payload.length + 2) >> 8, (payload.length + 2) & 0xff, ...payload];
  return Uint8Array.from([0xff, 0xd8, ...app1, ...encoded.subarray(2)]);
}

/** A grey PNG page of ocr-dev turned 90° clockwise, as a scanner fed sideways writes it. */
function turnedClockwise(png: Uint8Array): Uint8Array {
  const img = PNG.sync.read(Buffer.from(png));
  const out = new PNG({ width: img.height, height: img.width });
  for (let y = 0; y < img.height; y++)
    for (let x = 0; x < img.width; x++) {
      const to = (x * out.width + (img.height - 1 - y)) * 4;
      img.data.copy(out.data, to, (y * img.width + x) * 4, (y * img.width + x) * 4 + 4);
    }
  return new Uint8Array(PNG.sync.write(out));
}

describe('parseImage', () => {
  it('reads the words of tika__testOCR.jpg with boxes inside the image', async () => {
    const out = await parseImage(read('jpg/tika__testOCR.jpg'), { fileName: 'testOCR.jpg', format: 'jpeg', ocr });
    expect(out.elements.map((e) => e.text).join(' ')).toContain('Apache Tika OCR Testing');
    expect(out.sourceMap.pages[0]).toMatchObject({ width: 136, height: 66, unit: 'px', text_source: 'ocr' });
    expect(out.sourceMap.pages[0]?.ocr_confidence).toBeGreaterThan(80);
    for (const e of out.elements) {
      expectInside(e);
      expect(e.confidence).toBeGreaterThan(60);
    }
  });

  it('reads vertical Japanese', async () => {
    const out = await parseImage(
      read('jpeg/unstructured__jpn-vert.jpeg'),
      { fileName: 'v.jpeg', format: 'jpeg', ocr },
      { ocrLangs: ['jpn_vert'] },
    );
    expect(out.elements.map((e) => e.text).join('')).toContain('日本語は漢文');
    for (const e of out.elements) expectInside(e);
  });

  it('picks the Simplified Chinese model by confidence when no language is given', async () => {
    const out = await parseImage(read('jpeg/unstructured__chi_sim_image.jpeg'), { fileName: 'zh.jpeg', format: 'jpeg', ocr });
    expect(out.diagnostics.find((d) => d.rule_id === 'ocr/engine')?.reason).toContain('chi_sim');
    expect(out.elements.map((e) => e.text).join('')).toContain('甘草');
  });

  it('applies EXIF orientation before OCR and reports the displayed size', async () => {
    const out = await parseImage(
      sidewaysWithExif(read('jpg/tika__testOCR.jpg')),
      { fileName: 'side.jpg', format: 'jpeg', ocr },
      { ocrLangs: ['eng'] },
    );
    expect(out.sourceMap.pages[0]).toMatchObject({ width: 136, height: 66 });
    expect(out.elements.map((e) => e.text).join(' ')).toContain('Apache Tika OCR Testing');
    for (const e of out.elements) expectInside(e);
  });

  it('rejects a 30000×30000 PNG from its header, without decoding', async () => {
    const header = pngHeader(30000, 30000);
    await expect(parseImage(header, { fileName: 'huge.png', format: 'png', ocr })).rejects.toMatchObject({
      code: 'PP_IMAGE_TOO_LARGE',
    });
  });

  it('fails a photo without text with PP_PARSE_NO_TEXT and without an engine with PP_DEPENDENCY_MISSING', async () => {
    const bytes = read('jpg/tika__testOCR.jpg');
    await expect(parseImage(bytes, { fileName: 'x.jpg', format: 'jpeg' })).rejects.toMatchObject({
      code: 'PP_DEPENDENCY_MISSING',
    });
    await expect(
      parseImage(read('jpeg/r2r__jpeg.jpeg'), { fileName: 'p.jpeg', format: 'jpeg', ocr }, { ocrLangs: ['eng'] }),
    ).rejects.toMatchObject({
      code: 'PP_PARSE_NO_TEXT',
    });
  });

  it('reads a scan turned 90° upright, its boxes on the image as given', async () => {
    const page = new URL('../../../../../shared/eval/ocr-dev/files/img-51.png', import.meta.url);
    const upright = PNG.sync.read(readFileSync(page));
    const sideways = turnedClockwise(new Uint8Array(readFileSync(page)));
    const out = await parseImage(sideways, { fileName: 'sideways.png', format: 'png', ocr });
    expect(out.sourceMap.pages[0]).toMatchObject({ width: upright.height, height: upright.width });
    expect(out.elements.map((e) => e.text).join(' ')).toContain('cumulative total shareholder return');
    for (const e of out.elements) expectInside(e);
    // the text runs down the sideways page: its lines are tall and narrow there
    const tall = out.elements.filter((e) => {
      const [x0, y0, x1, y1] = (e.anchor as PageAnchor).boxes[0] ?? [0, 0, 0, 0];
      return y1 - y0 > 3 * (x1 - x0);
    });
    expect(tall.length).toBeGreaterThan(out.elements.length / 2);
    expect(out.diagnostics.find((d) => d.rule_id === 'ocr/engine')?.reason).toBe('tesseract-cli with eng (script: Latin)');
  }, 180_000);

  it('fails a JPEG whose header is broken with PP_PARSE_CORRUPT and a sentence to act on', async () => {
    const bytes = read('jpg/tika__testOCR.jpg').slice();
    // the first segment's length points past the end of the file: no frame header can be found
    bytes[4] = 0xff;
    bytes[5] = 0xf0;
    const failure = parseImage(bytes, { fileName: 'broken.jpg', format: 'jpeg', ocr });
    await expect(failure).rejects.toMatchObject({ code: 'PP_PARSE_CORRUPT' });
    await expect(failure).rejects.toThrow(/may be truncated or damaged/);
  });
});
