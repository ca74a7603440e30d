import { createError } from '@pinpoint/core';
import jpeg from 'jpeg-js';
import { PNG } from 'pngjs';
import type { ImageInfo } from './image-info.js';

/** Stored pixel (sx, sy) shown at displayed (x, y), per EXIF orientation; w/h are the stored size. */
function sourceOf(orientation: number, x: number, y: number, w: number, h: number): [number, number] {
  switch (orientation) {
    case 2:
      return [w - 1 - x, y];
    case 3:
      return [w - 1 - x, h - 1 - y];
    case 4:
      return [x, h - 1 - y];
    case 5:
      return [y, x];
    case 6:
      return [y, h - 1 - x];
    case 7:
      return [w - 1 - y, h - 1 - x];
    case 8:
      return [w - 1 - y, x];
    default:
      return [x, y];
  }
}

export interface Rgba {
  width: number;
  height: number;
  data: Uint8Array;
}

/** RGBA → binary PPM (P6), upright per `orientation`, transparent pixels composited onto white. */
export function toPpm(img: Rgba, orientation: number): Uint8Array {
  const { width: w, height: h, data } = img;
  const turned = orientation >= 5;
  const dw = turned ? h : w;
  const dh = turned ? w : h;
  const header = new TextEncoder().encode(`P6\n${dw} ${dh}\n255\n`);
  const out = new Uint8Array(header.length + dw * dh * 3);
  out.set(header);
  let o = header.length;
  for (let y = 0; y < dh; y++) {
    for (let x = 0; x < dw; x++) {
      const [sx, sy] = sourceOf(orientation, x, y, w, h);
      const i = (sy * w + sx) * 4;
      const a = (data[i + 3] as number) / 255;
      for (let c = 0; c < 3; c++) out[o++] = Math.round((data[i + c] as number) * a + 255 * (1 - a));
    }
  }
  return out;
}

/** Binary PPM (P6, colour) or PGM (P5, grey), 8 bits. */
function readPnm(bytes: Uint8Array): Rgba {
  const head = new TextDecoder('latin1').decode(bytes.subarray(0, 64));
  const m = /^P([56])\s+(\d+)\s+(\d+)\s+255\s/.exec(head);
  if (!m) throw new Error('not a binary PPM or PGM');
  const channels = m[1] === '6' ? 3 : 1;
  const width = Number(m[2]);
  const height = Number(m[3]);
  const px = bytes.subarray(m[0].length);
  const data = new Uint8Array(width * height * 4);
  for (let i = 0, j = 0; i < width * height; i++, j += channels) {
    const r = px[j] as number;
    data.set(channels === 3 ? [r, px[j + 1] as number, px[j + 2] as number, 255] : [r, r, r, 255], i * 4);
  }
  return { width, height, data };
}

/** Decodes PNG, JPEG or binary PPM/PGM to RGBA. Callers check the pixel count from the header first. */
export function decodeRaster(bytes: Uint8Array, maxPixels: number): Rgba {
  try {
    if (bytes[0] === 0xff && bytes[1] === 0xd8) {
      return jpeg.decode(bytes, {
        useTArray: true,
        formatAsRGBA: true,
        maxResolutionInMP: maxPixels / 1e6,
        maxMemoryUsageInMB: 2048,
      });
    }
    if (bytes[0] === 0x50 && (bytes[1] === 0x36 || bytes[1] === 0x35)) return readPnm(bytes);
    const png = PNG.sync.read(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength));
    return { width: png.width, height: png.height, data: png.data };
  } catch (err) {
    throw createError('PP_PARSE_CORRUPT', 'The image could not be decoded; it may be truncated or damaged.', err);
  }
}

/**
 * The bytes handed to OCR: the file itself when it can be read as is, else (EXIF orientation other
 * than 1, or a PNG with transparency) the decoded image turned upright on a white background, as PPM.
 * Boxes found on it are in displayed pixels. The caller checks the pixel limit from the header first.
 */
export function prepareForOcr(bytes: Uint8Array, info: ImageInfo, maxPixels: number): Uint8Array {
  if (info.orientation === 1 && !info.alpha) return bytes;
  return toPpm(decodeRaster(bytes, maxPixels), info.orientation);
}
