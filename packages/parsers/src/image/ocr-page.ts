import type {
  DerivedArtifact,
  Diagnostic,
  Element,
  OcrImageHints,
  OcrLine,
  PageAnchor,
  PageInfo,
  ParseContext,
  ParseOutput,
} from '@pinpoint/core';
import { createError, elementId } from '@pinpoint/core';
import { qualityDiagnostics, type Recognition, recognizeImage } from '../ocr/recognize.js';
import { wordSpans } from '../ocr/spans.js';
import { pagedSourceMap } from '../page-anchor.js';

/** One recognised page of an image file: its page record, its OCR lines and what the recognition reported. */
export interface OcrPage {
  info: PageInfo;
  lines: OcrLine[];
  diagnostics: Diagnostic[];
}

/** The OCR engine of the context, or PP_DEPENDENCY_MISSING: images have no text without it. */
export function requireOcr(ctx: ParseContext): NonNullable<ParseContext['ocr']> {
  if (!ctx.ocr)
    throw createError('PP_DEPENDENCY_MISSING', 'No OCR engine is configured; images need OCR (install tesseract-ocr).');
  return ctx.ocr;
}

/** What the choice of model and the page's preparation were: ' (script: Han, straightened 1.3°)'. */
function engineNotes(result: Recognition): string {
  const notes = [
    ...(result.script ? [`script: ${result.script}`] : []),
    ...(result.skew ? [`straightened ${result.skew}°`] : []),
  ];
  return notes.length > 0 ? ` (${notes.join(', ')})` : '';
}

/**
 * Recognises one page image (`image`: bytes tesseract reads, `size`: its pixels as displayed) and reports the
 * model it chose (`ocr/engine`) and the quality gate's findings, all with the page's index. `pieces`: how many
 * pieces of the page may be read at once (the cores the parse has for this page; ../ocr/pieces.ts).
 */
export async function recognizePage(
  ctx: ParseContext,
  image: Uint8Array,
  pageIndex: number,
  size: { width: number; height: number },
  langs: readonly string[] | undefined,
  hints: OcrImageHints = {},
  pieces = 1,
): Promise<OcrPage> {
  const ocr = requireOcr(ctx);
  const result = await recognizeImage(ocr, image, langs, ctx.signal, hints, { pieces });
  const diagnostics = [
    ...qualityDiagnostics(result, pageIndex),
    {
      rule_id: 'ocr/engine',
      reason: `${result.engine ?? ocr.id} with ${result.langs.join('+')}${engineNotes(result)}`,
      severity: 'info' as const,
      page_index: pageIndex,
    },
  ];
  const info: PageInfo = {
    page_index: pageIndex,
    width: size.width,
    height: size.height,
    unit: 'px',
    rotation: 0,
    artifact: 'original',
    text_source: 'ocr',
    ocr_confidence: Math.round(result.confidence * 10) / 10,
  };
  return { info, lines: result.lines, diagnostics };
}

/** Each OCR line of the pages as one `ocr_line` element, numbered across the pages, with a span per word. */
function ocrLineElements(pages: readonly OcrPage[]): Element[] {
  const elements: Element[] = [];
  for (const { info, lines } of pages) {
    const base: Omit<PageAnchor, 'boxes'> = {
      kind: 'page',
      artifact: 'original',
      page_index: info.page_index,
      page_width: info.width,
      page_height: info.height,
      unit: 'px',
      rotation: 0,
    };
    for (const line of lines) {
      elements.push({
        element_id: elementId(elements.length),
        type: 'ocr_line',
        section_path: [],
        text: line.text,
        anchor: { ...base, boxes: [line.box] },
        spans: wordSpans(line),
        confidence: Math.round(line.confidence * 10) / 10,
      });
    }
  }
  return elements;
}

/** The parse output of recognised image pages: their lines as elements, their diagnostics, the artifacts made of them. */
export function ocrPagesOutput(ctx: ParseContext, pages: readonly OcrPage[], artifacts: DerivedArtifact[]): ParseOutput {
  const elements = ocrLineElements(pages);
  return {
    elements,
    diagnostics: pages.flatMap((p) => p.diagnostics),
    sourceMap: pagedSourceMap(
      ctx.format,
      pages.map((p) => p.info),
      elements,
    ),
    artifacts,
  };
}
