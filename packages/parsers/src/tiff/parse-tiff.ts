import type { DerivedArtifact, ParseContext, ParseOutput } from '@pinpoint/core';
import { createError } from '@pinpoint/core';
import { type OcrPage, ocrPagesOutput, recognizePage, requireOcr } from '../image/ocr-page.js';
import { piecesPerPage } from '../ocr/pieces.js';
import { readTiffPages, type TiffLimits } from './tiff-directory.js';
import { decodeTiffPage, greyToPgm, greyToPng, tiffDirectories } from './tiff-raster.js';

export interface TiffOptions extends Partial<TiffLimits> {
  /** OCR languages; when absent each page's script chooses the model (../ocr/README.md). */
  ocrLangs?: readonly string[];
}

const DEFAULT_LIMITS: TiffLimits = { maxPages: 1000, maxPixels: 60_000_000 };

interface TiffPageResult {
  page: OcrPage;
  png: DerivedArtifact;
}

/** Runs `read` over pages [0, count) with at most `concurrency` at once; results in page order. */
async function eachPage<T>(count: number, concurrency: number, read: (i: number) => Promise<T>): Promise<T[]> {
  const out: T[] = [];
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < count) {
      const i = next++;
      out[i] = await read(i);
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(concurrency, count)) }, worker));
  return out;
}

/**
 * .tif/.tiff (single or multi-page; uncompressed, LZW, Deflate, JPEG, PackBits, CCITT G3/G4) → per page an
 * 8-bit grey PNG artifact (`page-image`, named by the page index) for the reader, and OCR lines whose boxes
 * are in the page's own pixels. Page count and size are checked from the directories before any pixel is
 * decoded (PP_TOO_MANY_PAGES, PP_IMAGE_TOO_LARGE); pages are read as many at once as the parse has cores.
 */
export async function parseTiff(bytes: Uint8Array, ctx: ParseContext, options: TiffOptions = {}): Promise<ParseOutput> {
  const limits = { ...DEFAULT_LIMITS, ...options };
  const infos = readTiffPages(bytes, limits);
  const count = infos.length;
  requireOcr(ctx);
  const ifds = tiffDirectories(bytes);
  const concurrency = Math.max(1, Math.floor(ctx.pageConcurrency ?? 1));
  // cores the pages leave: a single page is read in pieces at once
  const pieces = piecesPerPage(concurrency, count);
  const results = await eachPage(count, concurrency, async (i): Promise<TiffPageResult> => {
    if (ctx.signal?.aborted) throw createError('PP_JOB_CANCELLED', `Parsing ${ctx.fileName} was cancelled.`);
    const grey = decodeTiffPage(bytes, ifds, i);
    const png: DerivedArtifact = { kind: 'page-image', name: String(i), mime: 'image/png', bytes: greyToPng(grey) };
    const dpi = infos[i]?.dpi;
    const hints = dpi === undefined ? {} : { dpi };
    const page = await recognizePage(ctx, greyToPgm(grey), i, grey, options.ocrLangs, hints, pieces);
    return { page, png };
  });
  const pages = results.map((r) => r.page);
  if (pages.every((p) => p.lines.length === 0))
    throw createError('PP_PARSE_NO_TEXT', `No text was recognised on any of the ${count} pages of ${ctx.fileName}.`);
  return ocrPagesOutput(
    ctx,
    pages,
    results.map((r) => r.png),
  );
}
