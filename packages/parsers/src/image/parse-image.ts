import type { Diagnostic, Element, OcrLine, PageAnchor, PageInfo, ParseContext, ParseOutput } from '@pinpoint/core';
import { createError, elementId, SOURCE_MAP_SCHEMA_VERSION } from '@pinpoint/core';
import { qualityDiagnostics, recognizeImage } from '../ocr/recognize.js';
import { wordSpans } from '../ocr/spans.js';
import { assertPixelLimit, displayedSize, readImageInfo } from './image-info.js';
import { prepareForOcr } from './prepare.js';

export interface ImageOptions {
  /** Largest accepted width × height, checked from the header before decoding. */
  maxPixels?: number;
  /** OCR languages; when absent English is tried first, then the CJK models if it is unsure. */
  ocrLangs?: readonly string[];
}

const DEFAULT_MAX_PIXELS = 60_000_000;

function lineElements(lines: OcrLine[], page: Omit<PageAnchor, 'boxes'>): Element[] {
  return lines.map((line, i) => ({
    element_id: elementId(i),
    type: 'ocr_line',
    section_path: [],
    text: line.text,
    anchor: { ...page, boxes: [line.box] },
    spans: wordSpans(line),
    confidence: Math.round(line.confidence * 10) / 10,
  }));
}

/**
 * .png/.jpeg → OCR lines with word boxes in displayed pixels (EXIF orientation applied), one page.
 * The pixel count is checked from the header first (PP_IMAGE_TOO_LARGE); needs ctx.ocr.
 */
export async function parseImage(bytes: Uint8Array, ctx: ParseContext, options: ImageOptions = {}): Promise<ParseOutput> {
  const info = readImageInfo(bytes);
  const maxPixels = options.maxPixels ?? DEFAULT_MAX_PIXELS;
  assertPixelLimit(info, maxPixels);
  if (!ctx.ocr)
    throw createError('PP_DEPENDENCY_MISSING', 'No OCR engine is configured; images need OCR (install tesseract-ocr).');
  const diagnostics: Diagnostic[] = [];
  const image = prepareForOcr(bytes, info, maxPixels);
  const size = displayedSize(info);
  const result = await recognizeImage(ctx.ocr, image, options.ocrLangs, ctx.signal);
  if (result.words === 0) throw createError('PP_PARSE_NO_TEXT', `No text was recognised in ${ctx.fileName}.`);
  diagnostics.push(...qualityDiagnostics(result, 0));
  diagnostics.push({
    rule_id: 'ocr/engine',
    reason: `${ctx.ocr.id} with ${result.langs.join('+')}`,
    severity: 'info',
    page_index: 0,
  });
  const page: PageInfo = {
    page_index: 0,
    width: size.width,
    height: size.height,
    unit: 'px',
    rotation: 0,
    artifact: 'original',
    text_source: 'ocr',
    ocr_confidence: Math.round(result.confidence * 10) / 10,
  };
  const base = {
    kind: 'page',
    artifact: 'original',
    page_index: 0,
    page_width: size.width,
    page_height: size.height,
    unit: 'px',
    rotation: 0,
  } as const;
  const elements = lineElements(result.lines, base);
  return {
    elements,
    diagnostics,
    sourceMap: { schemaVersion: SOURCE_MAP_SCHEMA_VERSION, format: ctx.format, anchor_kind: 'page', pages: [page], elements },
    artifacts: [],
  };
}
