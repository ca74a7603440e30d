/**
 * The parser contract: options, the parse function type and a dispatch entry. Types only, so every parser
 * can import them without an import cycle; the dispatch table itself is in dispatch.ts.
 */
import type { ParseContext, ParseOutput } from '@pinpoint/core';

/** Options that shape a parse; recorded in the version's recipe. Only optional fields, so old recipes stay valid. */
export interface ParseOptions {
  /** OCR languages (tesseract codes) for pages or images without a text layer. */
  ocrLangs?: readonly string[];
  /** PDF: find tables on the pages (default on); off only to measure what finding them costs. */
  tables?: boolean;
}

export type ParseFn = (bytes: Uint8Array, ctx: ParseContext, options: ParseOptions) => Promise<ParseOutput>;

/** One parser: its name and version go into the recipe as "name@version". */
export interface ParserEntry {
  name: string;
  version: string;
  parse: ParseFn;
}
