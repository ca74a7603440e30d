import type { ParseContext, ParseOutput } from '@pinpoint/core';
import { createError } from '@pinpoint/core';
import { piecesPerPage } from '../ocr/pieces.js';
import { assertPixelLimit, displayedSize, readImageInfo } from './image-info.js';
import { ocrPagesOutput, recognizePage, requireOcr } from './ocr-page.js';
import { prepareForOcr } from './prepare.js';

export interface ImageOptions {
  /** Largest accepted width × height, checked from the header before decoding. */
  maxPixels?: number;
  /** OCR languages; when absent the page's script chooses the model (../ocr/README.md). */
  ocrLangs?: readonly string[];
}

const DEFAULT_MAX_PIXELS = 60_000_000;

/**
 * .png/.jpeg → OCR lines with word boxes in displayed pixels (EXIF orientation applied), one page.
 * The pixel count is checked from the header first (PP_IMAGE_TOO_LARGE); needs ctx.ocr.
 */
export async function parseImage(bytes: Uint8Array, ctx: ParseContext, options: ImageOptions = {}): Promise<ParseOutput> {
  const info = readImageInfo(bytes);
  const maxPixels = options.maxPixels ?? DEFAULT_MAX_PIXELS;
  assertPixelLimit(info, maxPixels);
  requireOcr(ctx);
  const image = prepareForOcr(bytes, info, maxPixels);
  // stated to tesseract, which reads it from the file but not from a page straightened in memory (PGM)
  const hints = info.dpi === undefined ? {} : { dpi: info.dpi };
  const pieces = piecesPerPage(ctx.pageConcurrency ?? 1, 1);
  const page = await recognizePage(ctx, image, 0, displayedSize(info), options.ocrLangs, hints, pieces);
  if (page.lines.length === 0) throw createError('PP_PARSE_NO_TEXT', `No text was recognised in ${ctx.fileName}.`);
  return ocrPagesOutput(ctx, [page], []);
}
