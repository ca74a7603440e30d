import type {
  Diagnostic,
  Element,
  ElementType,
  Format,
  ParseOutput,
  RawMap,
  TableCell,
  TableRow,
  TextAnchor,
} from '@pinpoint/core';
import { CodepointIndex, elementId, SOURCE_MAP_SCHEMA_VERSION, sha256Hex } from '@pinpoint/core';

/** An element found in decoded text, by codepoint range [start, end) into that text. */
export interface TextPiece {
  type: ElementType;
  start: number;
  end: number;
  level?: number;
  section_path: string[];
  /** Codepoint range in the raw source (HTML) that produced the text. */
  raw?: { start: number; end: number };
  /** Where each run of the element's text sits in the raw source (HTML, JSON). */
  raw_map?: RawMap;
  /** Table rows (HTML): the row's cells and its place in the table. */
  cells?: TableCell[];
  table?: TableRow;
}

/** Builds the ParseOutput of a text-anchored format: elements, source map and the decoded text artifact. */
export function textOutput(format: Format, text: string, pieces: TextPiece[], diagnostics: Diagnostic[]): ParseOutput {
  const utf8 = new TextEncoder().encode(text);
  const textSha = sha256Hex(utf8);
  const index = new CodepointIndex(text);
  const elements: Element[] = pieces.map((piece, i) => {
    const anchor: TextAnchor = {
      kind: 'text',
      artifact: 'original',
      unit: 'codepoint',
      start: piece.start,
      end: piece.end,
      text_sha256: textSha,
      ...(piece.raw ? { raw: piece.raw } : {}),
    };
    return {
      element_id: elementId(i),
      type: piece.type,
      ...(piece.level !== undefined ? { level: piece.level } : {}),
      section_path: piece.section_path,
      text: text.slice(index.toUtf16(piece.start), index.toUtf16(piece.end)),
      anchor,
      ...(piece.raw_map ? { raw_map: piece.raw_map } : {}),
      ...(piece.cells ? { cells: piece.cells } : {}),
      ...(piece.table ? { table: piece.table } : {}),
    };
  });
  return {
    elements,
    sourceMap: {
      schemaVersion: SOURCE_MAP_SCHEMA_VERSION,
      format,
      anchor_kind: 'text',
      pages: [],
      text_sha256: textSha,
      elements,
    },
    diagnostics,
    artifacts: [{ kind: 'text', name: 'decoded.txt', mime: 'text/plain; charset=utf-8', bytes: utf8 }],
  };
}

/** Trims whitespace off a UTF-16 range of text; returns undefined when nothing is left. */
export function trimRange(text: string, start: number, end: number): { start: number; end: number } | undefined {
  let s = start;
  let e = end;
  while (s < e && /\s/.test(text[s] as string)) s++;
  while (e > s && /\s/.test(text[e - 1] as string)) e--;
  return s < e ? { start: s, end: e } : undefined;
}
