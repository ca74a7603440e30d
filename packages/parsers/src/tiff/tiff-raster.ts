import { createError } from '@pinpoint/core';
import { PNG } from 'pngjs';
import UTIF from 'utif2';

/** One page in 8-bit grey, row by row. */
export interface GreyPage {
  width: number;
  height: number;
  grey: Uint8Array;
}

type Ifd = UTIF.IFD;

function corrupt(page: number, why: string, cause?: unknown): Error {
  return createError(
    'PP_PARSE_CORRUPT',
    `Page ${page + 1} of the TIFF cannot be decoded (${why}); the file may be truncated. Export or scan it again.`,
    cause,
  );
}

function numbers(ifd: Ifd, tag: string): number[] {
  const v = ifd[tag];
  return Array.isArray(v) ? (v as number[]) : [];
}

/** Every strip (or tile) of the page must lie inside the file: a truncated TIFF is refused, not read as blank. */
function checkData(ifd: Ifd, size: number, page: number): void {
  const tiled = ifd.t322 !== undefined;
  const offsets = numbers(ifd, tiled ? 't324' : 't273');
  const counts = numbers(ifd, tiled ? 't325' : 't279');
  if (offsets.length === 0) throw corrupt(page, 'no image data');
  offsets.forEach((offset, i) => {
    if (offset + (counts[i] ?? 0) > size) throw corrupt(page, `image data past the end of the file at byte ${offset}`);
  });
}

function toGrey(rgba: Uint8Array, width: number, height: number): Uint8Array {
  const grey = new Uint8Array(width * height);
  for (let i = 0, j = 0; i < grey.length; i++, j += 4) {
    const a = (rgba[j + 3] as number) / 255;
    const luma = 0.299 * (rgba[j] as number) + 0.587 * (rgba[j + 1] as number) + 0.114 * (rgba[j + 2] as number);
    grey[i] = Math.round(luma * a + 255 * (1 - a));
  }
  return grey;
}

/** The decoder's directories of a TIFF whose chain readTiffPages has already checked. */
export function tiffDirectories(bytes: Uint8Array): Ifd[] {
  const buffer = bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer;
  try {
    return UTIF.decode(buffer);
  } catch (err) {
    throw corrupt(0, 'unreadable directory', err);
  }
}

/** Page `index` decoded (uncompressed, LZW, Deflate, JPEG, PackBits, CCITT G3/G4) to 8-bit grey. */
export function decodeTiffPage(bytes: Uint8Array, ifds: Ifd[], index: number): GreyPage {
  const ifd = ifds[index];
  if (!ifd) throw corrupt(index, 'no such page');
  checkData(ifd, bytes.byteLength, index);
  const buffer = bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer;
  try {
    UTIF.decodeImage(buffer, ifd);
    const rgba = UTIF.toRGBA8(ifd);
    if (rgba.length < ifd.width * ifd.height * 4) throw new Error('short pixel data');
    return { width: ifd.width, height: ifd.height, grey: toGrey(rgba, ifd.width, ifd.height) };
  } catch (err) {
    throw corrupt(index, err instanceof Error ? err.message : 'bad image data', err);
  } finally {
    // the decoded pixels stay on the directory object otherwise: a long fax would hold every page
    (ifd as { data?: Uint8Array }).data = new Uint8Array(0);
  }
}

/** Binary PGM (P5): what tesseract reads without any decoding of its own. */
export function greyToPgm(page: GreyPage): Uint8Array {
  const header = new TextEncoder().encode(`P5\n${page.width} ${page.height}\n255\n`);
  const out = new Uint8Array(header.length + page.grey.length);
  out.set(header);
  out.set(page.grey, header.length);
  return out;
}

/** An 8-bit grey PNG of the page: what the reader shows for a TIFF page. */
export function greyToPng(page: GreyPage): Uint8Array {
  const png = new PNG({ width: page.width, height: page.height, colorType: 0, inputColorType: 0, inputHasAlpha: false });
  png.data = Buffer.from(page.grey.buffer, page.grey.byteOffset, page.grey.byteLength);
  return new Uint8Array(PNG.sync.write(png, { colorType: 0, inputColorType: 0, inputHasAlpha: false }));
}
