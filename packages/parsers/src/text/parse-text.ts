import type { ParseContext, ParseOutput } from '@pinpoint/core';
import { CodepointIndex } from '@pinpoint/core';
import { decodeText } from './decode.js';
import type { TextPiece } from './text-output.js';
import { textOutput, trimRange } from './text-output.js';

/** UTF-16 ranges of blank-line separated paragraphs, trimmed of surrounding whitespace. */
function paragraphRanges(text: string): Array<{ start: number; end: number }> {
  const ranges: Array<{ start: number; end: number }> = [];
  const blank = /(?:\r\n|\n|\r)[^\S\r\n]*(?:(?:\r\n|\n|\r)[^\S\r\n]*)+|\f/g;
  let from = 0;
  for (const match of text.matchAll(blank)) {
    const range = trimRange(text, from, match.index);
    if (range) ranges.push(range);
    from = match.index + match[0].length;
  }
  const last = trimRange(text, from, text.length);
  if (last) ranges.push(last);
  return ranges;
}

/** A first paragraph that is one short line without closing punctuation reads as the document's title. */
function looksLikeTitle(line: string): boolean {
  return line.length > 0 && line.length <= 120 && !/[\r\n]/.test(line) && !/[.:;,!?。．！？、，：；]$/.test(line);
}

export async function parseText(bytes: Uint8Array, ctx: ParseContext): Promise<ParseOutput> {
  const decoded = decodeText(bytes);
  const text = decoded.text;
  const index = new CodepointIndex(text);
  const ranges = paragraphRanges(text);
  const pieces: TextPiece[] = [];
  let sectionPath: string[] = [];
  ranges.forEach((range, i) => {
    const start = index.toCodepoint(range.start);
    const end = index.toCodepoint(range.end);
    const body = text.slice(range.start, range.end);
    if (i === 0 && ranges.length > 1 && looksLikeTitle(body)) {
      pieces.push({ type: 'title', start, end, section_path: [] });
      sectionPath = [body];
      return;
    }
    pieces.push({ type: 'paragraph', start, end, section_path: sectionPath });
  });
  return textOutput(ctx.format, text, pieces, decoded.diagnostics);
}
