import type { Diagnostic, OcrLine, ParseContext, TextSpan } from '@pinpoint/core';
import { CodepointIndex } from '@pinpoint/core';
import { ocrPdfPage } from '../ocr/pdf-page.js';
import type { ParseOptions } from '../registry.js';
import type { PdfBlock } from './blocks.js';

export interface TextlessPage {
  page_index: number;
  width: number;
  height: number;
  rotation: 0 | 90 | 180 | 270;
}

export interface TextlessResult {
  /** Recognised lines as blocks (boxes in PDF points, top-left, unrotated page space). */
  blocks: PdfBlock[];
  source: 'ocr' | 'none';
  confidence?: number;
  diagnostics: Diagnostic[];
}

/** One OCR line as a block: its words become the spans (located in order in the line's text). */
function ocrBlock(line: OcrLine): PdfBlock {
  const text = line.text.trim();
  const index = new CodepointIndex(text);
  const spans: TextSpan[] = [];
  let from = 0;
  for (const word of line.words) {
    const at = text.indexOf(word.text, from);
    if (at < 0 || word.text === '') continue;
    spans.push({ start: index.toCodepoint(at), end: index.toCodepoint(at + word.text.length), box: word.box });
    from = at + word.text.length;
  }
  const size = line.box[3] - line.box[1];
  return { text, boxes: [line.box], spans, size, lines: 1, confidence: Math.max(0, Math.min(100, line.confidence)) };
}

/**
 * The one place a PDF page without a text layer is handled: OCR when the context can render and
 * recognise pages, otherwise the page stays empty and is reported as `pdf/no-text-layer`. `pieces`: how many
 * pieces of the page may be read at once (../ocr/pieces.ts).
 */
export async function recognizeTextlessPage(
  bytes: Uint8Array,
  page: TextlessPage,
  ctx: ParseContext,
  options: ParseOptions,
  pieces = 1,
): Promise<TextlessResult> {
  const ocr = await ocrPdfPage(bytes, page, ctx, options.ocrLangs, pieces);
  if (!ocr) {
    const reason = 'This page has no text layer; enable OCR to make it searchable.';
    return {
      blocks: [],
      source: 'none',
      diagnostics: [{ rule_id: 'pdf/no-text-layer', reason, severity: 'warning', page_index: page.page_index }],
    };
  }
  const blocks = ocr.lines.map(ocrBlock).filter((b) => b.text !== '');
  const diagnostics: Diagnostic[] = [
    {
      rule_id: 'pdf/ocr-page',
      reason: `No text layer; ${blocks.length} line(s) recognised by OCR (${ocr.engine ? `${ocr.engine}, ` : ''}${ocr.langs.join('+')}).`,
      severity: 'info',
      page_index: page.page_index,
    },
    ...ocr.diagnostics,
  ];
  // OCR that finds nothing leaves the page textless, so a document of blank pages ends PP_PARSE_NO_TEXT
  return { blocks, source: blocks.length > 0 ? 'ocr' : 'none', confidence: ocr.confidence, diagnostics };
}
