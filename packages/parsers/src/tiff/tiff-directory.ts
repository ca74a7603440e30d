import { createError } from '@pinpoint/core';

/** One page of a TIFF as its directory (IFD) describes it, read without decoding any pixels. */
export interface TiffPageInfo {
  width: number;
  height: number;
  /** Compression tag 259: 1 none, 2/3/4 CCITT (fax), 5 LZW, 6/7 JPEG, 8/32946 Deflate, 32773 PackBits. */
  compression: number;
  /** Horizontal resolution in dots per inch, when the page states it (tags 282 and 296). */
  dpi?: number;
}

export interface TiffLimits {
  maxPages: number;
  /** Largest width × height of one page. */
  maxPixels: number;
}

const SUPPORTED_COMPRESSION = new Set([1, 2, 3, 4, 5, 6, 7, 8, 32773, 32946]);

function corrupt(why: string): Error {
  return createError('PP_PARSE_CORRUPT', `The TIFF file is damaged (${why}); it may be truncated. Export or scan it again.`);
}

function tagValue(view: DataView, entry: number, little: boolean): number {
  const type = view.getUint16(entry + 2, little);
  return type === 3 ? view.getUint16(entry + 8, little) : view.getUint32(entry + 8, little);
}

/** A RATIONAL tag's value (numerator / denominator at the offset it holds), or undefined when it lies outside the file. */
function rationalValue(view: DataView, entry: number, little: boolean): number | undefined {
  const at = view.getUint32(entry + 8, little);
  if (view.getUint16(entry + 2, little) !== 5 || at + 8 > view.byteLength) return undefined;
  const denominator = view.getUint32(at + 4, little);
  return denominator === 0 ? undefined : view.getUint32(at, little) / denominator;
}

/** Resolution 282 in the unit of tag 296 (1 none, 2 inch — the default —, 3 centimetre) as dots per inch. */
function dpiOf(resolution: number | undefined, unit: number): number | undefined {
  if (resolution === undefined || unit === 1) return undefined;
  return unit === 3 ? resolution * 2.54 : resolution;
}

function readPage(view: DataView, at: number, little: boolean): { page: TiffPageInfo; next: number } {
  if (at + 2 > view.byteLength) throw corrupt(`page directory at byte ${at} lies past the end of the file`);
  const count = view.getUint16(at, little);
  if (at + 2 + count * 12 + 4 > view.byteLength) throw corrupt(`page directory at byte ${at} is cut short`);
  const page: TiffPageInfo = { width: 0, height: 0, compression: 1 };
  let resolution: number | undefined;
  let unit = 2;
  for (let i = 0; i < count; i++) {
    const entry = at + 2 + i * 12;
    const tag = view.getUint16(entry, little);
    if (tag === 256) page.width = tagValue(view, entry, little);
    else if (tag === 257) page.height = tagValue(view, entry, little);
    else if (tag === 259) page.compression = tagValue(view, entry, little);
    else if (tag === 282) resolution = rationalValue(view, entry, little);
    else if (tag === 296) unit = tagValue(view, entry, little);
  }
  const dpi = dpiOf(resolution, unit);
  return { page: dpi === undefined ? page : { ...page, dpi }, next: view.getUint32(at + 2 + count * 12, little) };
}

function checkPage(page: TiffPageInfo, index: number, limits: TiffLimits): void {
  if (page.width === 0 || page.height === 0) throw corrupt(`page ${index + 1} has no width or height`);
  if (!SUPPORTED_COMPRESSION.has(page.compression))
    throw createError(
      'PP_UNSUPPORTED_FORMAT',
      `Page ${index + 1} of the TIFF uses compression ${page.compression}, which is not supported; save it with LZW, Deflate, JPEG, PackBits or CCITT fax compression.`,
    );
  const pixels = page.width * page.height;
  if (pixels > limits.maxPixels)
    throw createError(
      'PP_IMAGE_TOO_LARGE',
      `Page ${index + 1} of the TIFF is ${page.width}×${page.height} (${(pixels / 1e6).toFixed(0)} megapixels); the limit is ${(limits.maxPixels / 1e6).toFixed(0)} megapixels. Scan it at a lower resolution and upload again.`,
    );
}

/**
 * The pages of a TIFF (classic, not BigTIFF) from its chain of directories, checked against the limits
 * before any pixel is decoded: PP_PARSE_CORRUPT (bad header, a directory past the end or in a loop),
 * PP_TOO_MANY_PAGES, PP_IMAGE_TOO_LARGE, PP_UNSUPPORTED_FORMAT (BigTIFF, an unknown compression).
 */
export function readTiffPages(bytes: Uint8Array, limits: TiffLimits): TiffPageInfo[] {
  if (bytes.byteLength < 8) throw corrupt('the header is cut short');
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const order = view.getUint16(0);
  if (order !== 0x4949 && order !== 0x4d4d) throw corrupt('no byte-order mark');
  const little = order === 0x4949;
  const magic = view.getUint16(2, little);
  if (magic === 43)
    throw createError('PP_UNSUPPORTED_FORMAT', 'BigTIFF files are not supported; save the scan as a classic TIFF or PDF.');
  if (magic !== 42) throw corrupt('the header has no TIFF mark');
  const pages: TiffPageInfo[] = [];
  const seen = new Set<number>();
  for (let at = view.getUint32(4, little); at !== 0; ) {
    if (seen.has(at)) throw corrupt('its page directories form a loop');
    seen.add(at);
    if (pages.length >= limits.maxPages)
      throw createError(
        'PP_TOO_MANY_PAGES',
        `The TIFF has more than ${limits.maxPages} pages; split it into files of at most ${limits.maxPages} pages and upload them.`,
      );
    const { page, next } = readPage(view, at, little);
    checkPage(page, pages.length, limits);
    pages.push(page);
    at = next;
  }
  if (pages.length === 0) throw corrupt('it holds no page');
  return pages;
}
