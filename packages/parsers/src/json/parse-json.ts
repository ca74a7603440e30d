import type { Diagnostic, ElementType, ParseContext, ParseOutput } from '@pinpoint/core';
import { CodepointIndex, codepointLength, createError } from '@pinpoint/core';
import { printParseErrorCode, visit } from 'jsonc-parser';
import { decodeText } from '../text/decode.js';
import { rawMapOf } from '../text/mapped-text.js';
import type { TextPiece } from '../text/text-output.js';
import { textOutput } from '../text/text-output.js';
import { literalPieces } from './value-origins.js';

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
  /** Records: the fields, so their keys and values can be placed in the source once the record is kept. */
  fields?: readonly Held[];
  columns?: string[];
}

const escapeToken = (token: string) => token.replaceAll('~', '~0').replaceAll('/', '~1');

function scalarText(value: unknown): string | undefined {
  if (typeof value === 'string') return value.trim() !== '' ? value : undefined;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return undefined;
}

/** A scalar property of an object that may still turn out to be one record. */
interface Held {
  key: string;
  /** The key's literal in the source. */
  keyAt: { offset: number; length: number };
  text: string | undefined;
  offset: number;
  length: number;
}

/** An open object or array while the source is read. */
interface Frame {
  array: boolean;
  pointer: string;
  path: string[];
  /** Arrays: children seen so far. */
  index: number;
  /** Objects: the key whose value comes next, and where its literal is. */
  key: string;
  keyAt: { offset: number; length: number };
  /**
   * Objects inside an array, while every value so far is a scalar: read as one record
   * "key: value | key: value" if that holds to the end; otherwise each value is read on its own.
   */
  held?: Held[] | undefined;
  offset: number;
}

/**
 * Where runs of a kept value's text sit in the source (UTF-16 pieces, see MappedText.pieces): a
 * literal's characters; for a record "key: value | key: value", its keys and values. Computed only
 * for the values kept, after the limit.
 */
function foundPieces(source: string, f: Found): number[] {
  const pieces: number[] = [];
  if (!f.fields) literalPieces(source, f.offset, f.length, f.text, 0, pieces);
  let at = 0;
  for (const h of f.fields ?? []) {
    if (h.text === undefined) continue;
    if (at > 0) at += 3;
    literalPieces(source, h.keyAt.offset, h.keyAt.length, h.key, at, pieces);
    at += h.key.length + 2;
    literalPieces(source, h.offset, h.length, h.text, at, pieces);
    at += h.text.length;
  }
  // an exact-size copy: a pushed-to array keeps room to grow, most of a short map's memory
  return pieces.slice();
}

/**
 * Reads the JSON source in one pass of jsonc-parser's event reader, without building a value tree (a
 * tree costs ~20 bytes per source byte on a dense one-line log): one Found per non-empty string, number
 * and boolean, and one record per object of scalars inside an array.
 */
function readValues(source: string, fileName: string): Found[] {
  const out: Found[] = [];
  const stack: Frame[] = [];
  /** Pointer and path of the value that starts now, counted as its parent's next child. */
  const place = (): { pointer: string; path: string[] } => {
    const parent = stack.at(-1);
    if (!parent) return { pointer: '', path: [] };
    if (parent.array) {
      const i = parent.index++;
      return { pointer: `${parent.pointer}/${i}`, path: [...parent.path, `[${i}]`] };
    }
    return { pointer: `${parent.pointer}/${escapeToken(parent.key)}`, path: [...parent.path, parent.key] };
  };
  /** The parent object stops being a record candidate: its held values are read one by one. */
  const release = (frame: Frame): void => {
    if (!frame.held) return;
    for (const h of frame.held) {
      if (h.text !== undefined) {
        out.push({
          type: 'paragraph',
          text: h.text,
          pointer: `${frame.pointer}/${escapeToken(h.key)}`,
          path: [...frame.path, h.key],
          offset: h.offset,
          length: h.length,
        });
      }
    }
    frame.held = undefined;
  };
  const open = (array: boolean, offset: number): void => {
    const parent = stack.at(-1);
    if (parent && !parent.array) release(parent);
    const { pointer, path } = place();
    const frame: Frame = { array, pointer, path, index: 0, key: '', keyAt: { offset, length: 0 }, offset };
    if (!array && parent?.array) frame.held = [];
    stack.push(frame);
  };
  visit(
    source,
    {
      onObjectBegin: (offset) => open(false, offset),
      onArrayBegin: (offset) => open(true, offset),
      onObjectProperty: (property, offset, length) => {
        const frame = stack.at(-1) as Frame;
        frame.key = property;
        frame.keyAt = { offset, length };
      },
      onLiteralValue: (value, offset, length) => {
        const parent = stack.at(-1);
        const text = scalarText(value);
        if (parent?.held) {
          parent.held.push({ key: parent.key, keyAt: parent.keyAt, text, offset, length });
          return;
        }
        if (text === undefined) {
          if (parent?.array) parent.index++;
          return;
        }
        const { pointer, path } = place();
        out.push({ type: 'paragraph', text, pointer, path, offset, length });
      },
      onObjectEnd: (offset, length) => {
        const frame = stack.pop() as Frame;
        const held = frame.held;
        if (!held?.some((h) => h.text !== undefined)) return;
        out.push({
          type: 'record',
          text: held
            .filter((h) => h.text !== undefined)
            .map((h) => `${h.key}: ${h.text}`)
            .join(' | '),
          fields: held,
          pointer: frame.pointer,
          path: frame.path,
          offset: frame.offset,
          length: offset + length - frame.offset,
          columns: held.map((h) => h.key),
        });
      },
      onArrayEnd: () => {
        stack.pop();
      },
      onError: (error, offset) => {
        throw createError(
          'PP_PARSE_CORRUPT',
          `${fileName} is not valid JSON at character ${offset}: ${printParseErrorCode(error)}.`,
        );
      },
    },
    { disallowComments: true, allowTrailingComma: false, allowEmptyContent: false },
  );
  return out;
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
  const found = readValues(source, ctx.fileName);
  ctx.signal?.throwIfAborted();
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
    const rawMap = rawMapOf(f.text, foundPieces(source, f), sourceIndex);
    pieces.push({
      type: f.type,
      start: cursor,
      end: cursor + length,
      section_path: f.path,
      raw,
      ...(rawMap.length > 0 ? { raw_map: rawMap } : {}),
    });
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
