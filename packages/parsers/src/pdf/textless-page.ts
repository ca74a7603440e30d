import type { Diagnostic, ParseContext } from '@pinpoint/core';
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

/**
 * The one place a PDF page without a text layer is handled. Without an OCR capability in ctx the page
 * stays empty and is reported (`pdf/no-text-layer`); the OCR path plugs in here.
 */
export async function recognizeTextlessPage(
  _bytes: Uint8Array,
  page: TextlessPage,
  ctx: ParseContext,
  _options: ParseOptions,
): Promise<TextlessResult> {
  const reason = ctx.ocr
    ? 'This page has no text layer and OCR of PDF pages is not available in this build.'
    : 'This page has no text layer; enable OCR to make it searchable.';
  return {
    blocks: [],
    source: 'none',
    diagnostics: [{ rule_id: 'pdf/no-text-layer', reason, severity: 'warning', page_index: page.page_index }],
  };
}
