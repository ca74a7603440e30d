import { createError } from '@pinpoint/core';

/** What the file header says about an image, read without decoding any pixels. */
export interface ImageInfo {
  kind: 'png' | 'jpeg';
  /** Stored (encoded) size in pixels. */
  width: number;
  height: number;
  /** EXIF orientation 1..8 (1 = as stored). */
  orientation: number;
  /** PNG with an alpha channel (colour type 4 or 6): transparent pixels must be flattened before OCR. */
  alpha: boolean;
  /** Resolution the file states (PNG pHYs in pixels per metre, JPEG JFIF density), when it states one. */
  dpi?: number;
}

const METRES_PER_INCH = 0.0254;
const CM_PER_INCH = 2.54;

const PNG_SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
const SOF_MARKERS = new Set([0xc0, 0xc1, 0xc2, 0xc3, 0xc5, 0xc6, 0xc7, 0xc9, 0xca, 0xcb, 0xcd, 0xce, 0xcf]);

function corrupt(kind: string, why: string): Error {
  return createError(
    'PP_PARSE_CORRUPT',
    `The ${kind} image header is unreadable (${why}); the file may be truncated or damaged.`,
  );
}

function pngInfo(view: DataView): ImageInfo {
  if (view.byteLength < 33 || view.getUint32(12) !== 0x49484452) throw corrupt('PNG', 'no IHDR chunk');
  let orientation = 1;
  let dpi: number | undefined;
  // an eXIf chunk (rare) carries the same TIFF structure as JPEG's APP1
  for (let p = 8; p + 8 <= view.byteLength; ) {
    const len = view.getUint32(p);
    const type = view.getUint32(p + 4);
    if (type === 0x65584966 && p + 8 + len <= view.byteLength) orientation = tiffOrientation(view, p + 8, len);
    if (type === 0x70485973 && len >= 9 && p + 17 <= view.byteLength && view.getUint8(p + 16) === 1)
      dpi = Math.round(view.getUint32(p + 8) * METRES_PER_INCH);
    if (type === 0x49444154 || type === 0x49454e44) break; // IDAT/IEND: no metadata after pixels matters here
    p += 12 + len;
  }
  const colourType = view.getUint8(25);
  return {
    kind: 'png',
    width: view.getUint32(16),
    height: view.getUint32(20),
    orientation,
    alpha: colourType === 4 || colourType === 6,
    ...(dpi ? { dpi } : {}),
  };
}

/** Orientation tag (0x0112) of IFD0 in a TIFF structure starting at `start`. */
function tiffOrientation(view: DataView, start: number, length: number): number {
  if (length < 8) return 1;
  const little = view.getUint16(start) === 0x4949;
  const ifd = start + view.getUint32(start + 4, little);
  if (ifd + 2 > view.byteLength) return 1;
  const count = view.getUint16(ifd, little);
  for (let i = 0; i < count; i++) {
    const entry = ifd + 2 + i * 12;
    if (entry + 12 > view.byteLength) return 1;
    if (view.getUint16(entry, little) === 0x0112) {
      const value = view.getUint16(entry + 8, little);
      return value >= 1 && value <= 8 ? value : 1;
    }
  }
  return 1;
}

/** The density of a JFIF APP0 segment at `p` in dots per inch (units 1: per inch, 2: per cm); undefined when it states none. */
function jfifDpi(view: DataView, p: number): number | undefined {
  if (p + 14 > view.byteLength || view.getUint32(p + 4) !== 0x4a464946) return undefined;
  const units = view.getUint8(p + 11);
  const density = view.getUint16(p + 12);
  if (density === 0) return undefined;
  if (units === 1) return density;
  return units === 2 ? Math.round(density * CM_PER_INCH) : undefined;
}

function jpegInfo(view: DataView): ImageInfo {
  let orientation = 1;
  let dpi: number | undefined;
  let p = 2;
  while (p + 4 <= view.byteLength) {
    if (view.getUint8(p) !== 0xff) throw corrupt('JPEG', `no marker at byte ${p}`);
    const marker = view.getUint8(p + 1);
    if (marker === 0xff) {
      p++;
      continue;
    }
    const len = view.getUint16(p + 2);
    if (marker === 0xe0) dpi = jfifDpi(view, p) ?? dpi;
    if (marker === 0xe1 && p + 10 <= view.byteLength && view.getUint32(p + 4) === 0x45786966) {
      orientation = tiffOrientation(view, p + 10, len - 8);
    }
    if (SOF_MARKERS.has(marker)) {
      if (p + 9 > view.byteLength) break;
      const size = { height: view.getUint16(p + 5), width: view.getUint16(p + 7) };
      return { kind: 'jpeg', ...size, orientation, alpha: false, ...(dpi ? { dpi } : {}) };
    }
    if (marker === 0xda) break;
    p += 2 + len;
  }
  throw corrupt('JPEG', 'no frame header before the image data');
}

/** Reads kind, size and EXIF orientation from the header. Throws PP_UNSUPPORTED_FORMAT / PP_PARSE_CORRUPT. */
export function readImageInfo(bytes: Uint8Array): ImageInfo {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (PNG_SIGNATURE.every((b, i) => bytes[i] === b)) return pngInfo(view);
  if (bytes[0] === 0xff && bytes[1] === 0xd8) return jpegInfo(view);
  throw createError('PP_UNSUPPORTED_FORMAT', 'Only PNG and JPEG images are supported.');
}

/** Orientations 5..8 turn the image by 90°: its displayed width is its stored height. */
export function displayedSize(info: ImageInfo): { width: number; height: number } {
  return info.orientation >= 5 ? { width: info.height, height: info.width } : { width: info.width, height: info.height };
}

/** Throws PP_IMAGE_TOO_LARGE before any pixel is decoded. */
export function assertPixelLimit(info: ImageInfo, maxPixels: number): void {
  const pixels = info.width * info.height;
  if (info.width === 0 || info.height === 0) throw corrupt(info.kind.toUpperCase(), 'zero width or height');
  if (pixels > maxPixels) {
    const mp = (pixels / 1e6).toFixed(0);
    throw createError(
      'PP_IMAGE_TOO_LARGE',
      `The image is ${info.width}×${info.height} (${mp} megapixels); the limit is ${(maxPixels / 1e6).toFixed(0)} megapixels. Downscale it and upload again.`,
    );
  }
}
