import type { Diagnostic, ParseContext, ParseOutput, RawMap, TableCell, TableRow } from '@pinpoint/core';
import { CodepointIndex, codepointLength, createError } from '@pinpoint/core';
import { parse } from 'parse5';
import { columnRef } from '../spreadsheet/header.js';
import { joinCells } from '../spreadsheet/records.js';
import { decodeText } from '../text/decode.js';
import { rawMapOf } from '../text/mapped-text.js';
import type { TextPiece } from '../text/text-output.js';
import { textOutput } from '../text/text-output.js';
import type { HtmlBlock } from './blocks.js';
import { BlockWalker } from './blocks.js';
import { htmlDepthExceeds } from './depth.js';
import { leanTreeAdapter } from './lean-tree.js';

/** The charset an HTML file declares in its first 1024 bytes (<meta charset> or http-equiv Content-Type). */
function declaredCharset(bytes: Uint8Array): string | undefined {
  const head = new TextDecoder('latin1').decode(bytes.subarray(0, 1024));
  for (const meta of head.matchAll(/<meta\b[^>]*>/gi)) {
    const m = /charset\s*=\s*["']?\s*([\w.:-]+)/i.exec(meta[0]);
    if (m?.[1]) return m[1];
  }
  return undefined;
}

/** Deepest element nesting read (real pages stay far below; the tree builder slows down sharply beyond). */
const MAX_DEPTH = 5_000;

/**
 * Walks an HTML document into visible-text blocks (shared with DOCX, whose HTML comes from mammoth).
 * `mapped`: each block's text keeps the source range of every unit (for raw maps).
 */
export function htmlBlocks(source: string, mapped = false): { blocks: HtmlBlock[]; scripts: number; hidden: number } {
  const document = parse(source, { sourceCodeLocationInfo: true, treeAdapter: leanTreeAdapter });
  const walker = new BlockWalker(mapped ? source : undefined);
  walker.walk(document);
  walker.flush();
  return { blocks: walker.blocks, ...walker.stats };
}

/** A table row block's cells (ranges into its text, raw ranges of each <td>) and its place in the table. */
function rowFacts(
  block: HtmlBlock,
  sourceIndex: CodepointIndex,
  heading: string | undefined,
): { cells: TableCell[]; table: TableRow } {
  const row = block.table_row ?? 0;
  const names = block.names ?? new Map<number, string>();
  const { ranges } = joinCells((block.grid ?? []).map((g) => ({ ...g, value: g.text })));
  const cells = ranges.map((g) => {
    const header = block.header ? undefined : names.get(g.col);
    return {
      ref: columnRef(g.col, row + 1),
      col: g.col,
      start: g.start,
      end: g.end,
      ...(header ? { header } : {}),
      raw: { start: sourceIndex.toCodepoint(g.source.start), end: sourceIndex.toCodepoint(g.source.end) },
    };
  });
  const title = block.caption ?? heading;
  const carried = (block.carried ?? []).map((c) => {
    const header = names.get(c.col);
    return header ? { ...c, header } : c;
  });
  return {
    cells,
    table: {
      index: block.table_index ?? 0,
      row,
      header: block.header === true,
      ...(title ? { title } : {}),
      ...(carried.length > 0 ? { carried } : {}),
    },
  };
}

/** The block's raw map, when its text has a source to map to. */
function blockRawMap(block: HtmlBlock, sourceIndex: CodepointIndex): { raw_map?: RawMap } {
  const map = block.pieces ? rawMapOf(block.text, block.pieces, sourceIndex) : [];
  return map.length > 0 ? { raw_map: map } : {};
}

function dropDiagnostics(scripts: number, hidden: number): Diagnostic[] {
  const out: Diagnostic[] = [];
  if (scripts > 0) {
    out.push({
      rule_id: 'html/script-dropped',
      reason: `${scripts} script/style/noscript element(s) were dropped, never run.`,
      severity: 'info',
    });
  }
  if (hidden > 0) {
    out.push({
      rule_id: 'html/hidden-dropped',
      reason: `${hidden} hidden or non-text element(s) were left out of the text.`,
      severity: 'info',
    });
  }
  return out;
}

export async function parseHtml(bytes: Uint8Array, ctx: ParseContext): Promise<ParseOutput> {
  const declared = declaredCharset(bytes);
  const decoded = decodeText(bytes, declared ? { declared } : {});
  const source = decoded.text;
  if (htmlDepthExceeds(source, MAX_DEPTH)) {
    throw createError(
      'PP_PARSE_CORRUPT',
      `${ctx.fileName} nests its markup more than ${MAX_DEPTH} levels deep; it was not read.`,
    );
  }
  const sourceIndex = new CodepointIndex(source);
  const { blocks, scripts, hidden } = htmlBlocks(source, true);
  const parts: string[] = [];
  const pieces: TextPiece[] = [];
  const headings: Array<[number, string]> = [];
  let cursor = 0;
  for (const block of blocks) {
    if (parts.length > 0) {
      parts.push('\n\n');
      cursor += 2;
    }
    const length = codepointLength(block.text);
    const level = block.level ?? 0;
    if (block.kind === 'heading') while (headings.length > 0 && (headings.at(-1) as [number, string])[0] >= level) headings.pop();
    pieces.push({
      type: block.kind === 'row' ? 'table' : block.kind,
      start: cursor,
      end: cursor + length,
      section_path: block.kind === 'title' ? [] : headings.map(([, t]) => t),
      raw: { start: sourceIndex.toCodepoint(block.source.start), end: sourceIndex.toCodepoint(block.source.end) },
      ...blockRawMap(block, sourceIndex),
      ...(block.level !== undefined ? { level: block.level } : {}),
      ...(block.kind === 'row' ? rowFacts(block, sourceIndex, headings.at(-1)?.[1]) : {}),
    });
    if (block.kind === 'heading') headings.push([level, block.text]);
    parts.push(block.text);
    cursor += length;
  }
  const output = textOutput(ctx.format, parts.join(''), pieces, [...decoded.diagnostics, ...dropDiagnostics(scripts, hidden)]);
  // The decoded source, so `raw` ranges resolve from stored artifacts alone (never served as HTML).
  output.artifacts.push({
    kind: 'text',
    name: 'source.html',
    mime: 'text/plain; charset=utf-8',
    bytes: new TextEncoder().encode(source),
  });
  return output;
}
