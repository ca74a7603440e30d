import type { Box, Diagnostic, OcrLine, ParseContext, Rotation } from '@pinpoint/core';
import { qualityDiagnostics, recognizeImage } from './recognize.js';

/** A PDF page as the PDF parser knows it: unrotated size in points and its /Rotate. */
export interface PdfPageGeometry {
  page_index: number;
  width: number;
  height: number;
  rotation: Rotation;
}

export interface PdfPageOcr {
  /** Lines and words with boxes in PDF points, top-left origin, unrotated page space. */
  lines: OcrLine[];
  /** Mean word confidence 0..100. */
  confidence: number;
  langs: string[];
  /** The reader that read the page when it is not the OCR engine itself (PP-OCRv4 for Simplified Chinese). */
  engine?: string;
  diagnostics: Diagnostic[];
}

const DPI = 200;
/** Pages are rendered at 200 dpi unless that would exceed this many pixels. */
const MAX_RENDER_PIXELS = 40_000_000;

/** Maps a point of the displayed (rotated) page, in points, back to the unrotated page. */
function unrotate(x: number, y: number, page: PdfPageGeometry): [number, number] {
  const { width: w, height: h } = page;
  switch (page.rotation) {
    case 90:
      return [y, h - x];
    case 180:
      return [w - x, h - y];
    case 270:
      return [w - y, x];
    default:
      return [x, y];
  }
}

function boxToPoints(box: Box, sx: number, sy: number, page: PdfPageGeometry): Box {
  const [ax, ay] = unrotate(box[0] * sx, box[1] * sy, page);
  const [bx, by] = unrotate(box[2] * sx, box[3] * sy, page);
  const r = (v: number) => Math.round(v * 100) / 100;
  return [r(Math.min(ax, bx)), r(Math.min(ay, by)), r(Math.max(ax, bx)), r(Math.max(ay, by))];
}

/** Render dpi for a page: 200, or less for very large pages. */
export function renderDpi(page: PdfPageGeometry): number {
  const pixelsAt200 = ((page.width * DPI) / 72) * ((page.height * DPI) / 72);
  return pixelsAt200 <= MAX_RENDER_PIXELS ? DPI : Math.floor(DPI * Math.sqrt(MAX_RENDER_PIXELS / pixelsAt200));
}

/**
 * OCR of one PDF page without a text layer: render it (ctx.rasterize), recognise it (ctx.ocr), and map
 * the pixel boxes back to PDF points in the unrotated page space, the page in `pieces` pieces at once where it can
 * be cut (pieces.ts). Returns null when either capability is absent.
 */
export async function ocrPdfPage(
  pdf: Uint8Array,
  page: PdfPageGeometry,
  ctx: ParseContext,
  langs?: readonly string[],
  pieces = 1,
): Promise<PdfPageOcr | null> {
  if (!ctx.ocr || !ctx.rasterize) return null;
  const image = await ctx.rasterize.rasterize(pdf, page.page_index, renderDpi(page), ctx.signal);
  // no resolution is stated to tesseract for a render: stating 200 dpi left three of the corpus's four scanned
  // PDFs as they were and read the medical report scan worse (lost words, 6.8% read as 68%) than its own estimate
  const result = await recognizeImage(ctx.ocr, image, langs, ctx.signal, {}, { pieces });
  const turned = page.rotation === 90 || page.rotation === 270;
  const shownWidth = turned ? page.height : page.width;
  const shownHeight = turned ? page.width : page.height;
  const sx = shownWidth / Math.max(result.width, 1);
  const sy = shownHeight / Math.max(result.height, 1);
  const lines: OcrLine[] = result.lines.map((line) => ({
    text: line.text,
    confidence: line.confidence,
    box: boxToPoints(line.box, sx, sy, page),
    words: line.words.map((w) => ({ ...w, box: boxToPoints(w.box, sx, sy, page) })),
  }));
  return {
    lines,
    confidence: result.confidence,
    langs: result.langs,
    ...(result.engine ? { engine: result.engine } : {}),
    diagnostics: qualityDiagnostics(result, page.page_index),
  };
}
