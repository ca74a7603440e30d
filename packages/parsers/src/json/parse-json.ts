import type { Diagnostic, ElementType, ParseContext, ParseOutput } from '@pinpoint/core';
import { CodepointIndex, codepointLength, createError } from '@pinpoint/core';
import type { Node, ParseError } from 'jsonc-parser';
import { parseTree, printParseErrorCode } from 'jsonc-parser';
import { decodeText } from '../text/decode.js';
import type { TextPiece } from '../text/text-output.js';
import { textOutput } from '../text/text-output.js';

export interface JsonOptions {
  /** Elements kept; the rest are dropped with a 'json/truncated' diagnostic. */
  maxElements?: number;
}

/** One value worth citing: its text, where its literal sits in the source (UTF-16), and its JSON Pointer. */
interface Found {
  type: ElementType;
  text: string;
  pointer: string;
  path: string[];
  offset: number;
  length: number;
  columns?: string[];
}

const escapeToken = (token: string) => token.replaceAll('~', '~0').replaceAll('/', '~1');

function scalarText(node: Node): string | undefined {
  if (node.type === 'string') return typeof node.value === 'string' && node.value.trim() !== '' ? node.value : undefined;
  if (node.type === 'number' || node.type === 'boolean') return String(node.value);
  return undefined;
}

/** An object whose values are all scalars: read as one record "key: value | key: value". */
function flatRecord(node: Node): { text: string; columns: string[] } | undefined {
  if (node.type !== 'object' || !node.children?.length) return undefined;
  const parts: string[] = [];
  const columns: string[] = [];
  for (const prop of node.children) {
    const [key, value] = prop.children ?? [];
    if (!key || !value || value.type === 'object' || value.type === 'array') return undefined;
    const text = scalarText(value);
    columns.push(String(key.value));
    if (text !== undefined) parts.push(`${key.value}: ${text}`);
  }
  return parts.length > 0 ? { text: parts.join(' | '), columns } : undefined;
}

function walk(node: Node, pointer: string, path: string[], out: Found[], inRecordArray: boolean): void {
  if (inRecordArray) {
    const record = flatRecord(node);
    if (record) {
      out.push({
        type: 'record',
        text: record.text,
        pointer,
        path,
        offset: node.offset,
        length: node.length,
        columns: record.columns,
      });
      return;
    }
  }
  if (node.type === 'object') {
    for (const prop of node.children ?? []) {
      const [key, value] = prop.children ?? [];
      if (key && value) walk(value, `${pointer}/${escapeToken(String(key.value))}`, [...path, String(key.value)], out, false);
    }
  } else if (node.type === 'array') {
    const records = (node.children ?? []).some((c) => c.type === 'object');
    (node.children ?? []).forEach((child, i) => {
      walk(child, `${pointer}/${i}`, [...path, `[${i}]`], out, records);
    });
  } else {
    const text = scalarText(node);
    if (text !== undefined) out.push({ type: 'paragraph', text, pointer, path, offset: node.offset, length: node.length });
  }
}

function parseSource(source: string, fileName: string): Node {
  const errors: ParseError[] = [];
  const root = parseTree(source, errors, { disallowComments: true, allowTrailingComma: false, allowEmptyContent: false });
  const first = errors[0];
  if (!root || first) {
    const where = first ? ` at character ${first.offset}: ${printParseErrorCode(first.error)}` : '';
    throw createError('PP_PARSE_CORRUPT', `${fileName} is not valid JSON${where}.`);
  }
  return root;
}

/**
 * .json → one element per non-empty string, number and boolean (objects of scalars inside arrays become one
 * record each). Element text is laid out one per line in an extracted text (the `text` artifact the anchors'
 * start/end index); `raw` is the codepoint range of the value's literal in the decoded JSON source, and
 * `json_pointer` names it (RFC 6901).
 */
export async function parseJson(bytes: Uint8Array, ctx: ParseContext, options: JsonOptions = {}): Promise<ParseOutput> {
  const decoded = decodeText(bytes);
  const source = decoded.text;
  const root = parseSource(source, ctx.fileName);
  ctx.signal?.throwIfAborted();
  const found: Found[] = [];
  walk(root, '', [], found, false);
  const limit = options.maxElements ?? 200_000;
  const diagnostics: Diagnostic[] = [...decoded.diagnostics];
  if (found.length > limit) {
    diagnostics.push({
      rule_id: 'json/truncated',
      reason: `${found.length - limit} values past the limit were not kept.`,
      severity: 'warning',
    });
  }
  const kept = found.slice(0, limit);
  const sourceIndex = new CodepointIndex(source);
  const pieces: TextPiece[] = [];
  let cursor = 0;
  for (const f of kept) {
    const length = codepointLength(f.text);
    const raw = { start: sourceIndex.toCodepoint(f.offset), end: sourceIndex.toCodepoint(f.offset + f.length) };
    pieces.push({ type: f.type, start: cursor, end: cursor + length, section_path: f.path, raw });
    cursor += length + 1;
  }
  const output = textOutput(ctx.format, kept.map((f) => f.text).join('\n'), pieces, diagnostics);
  // the decoded JSON source that anchor.raw indexes, so raw ranges resolve from stored artifacts (as HTML's source.html)
  output.artifacts.push({
    kind: 'text',
    name: 'source.json',
    mime: 'text/plain; charset=utf-8',
    bytes: new TextEncoder().encode(source),
  });
  output.elements.forEach((element, i) => {
    const f = kept[i] as Found;
    if (element.anchor.kind === 'text') element.anchor.json_pointer = f.pointer;
    if (f.columns) element.columns = f.columns;
  });
  return output;
}
