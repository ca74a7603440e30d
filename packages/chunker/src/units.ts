import type { Element } from '@pinpoint/core';
import { codepointLength } from '@pinpoint/core';
import type { ElementText } from './element-text.js';

/**
 * A unit is the smallest piece the packer places: a sentence of an element (codepoint range
 * into element.text), or a whole table/list block that should not be broken.
 */
export interface Unit {
  element: number;
  start: number;
  end: number;
  length: number;
  /** Table rows: the header range, repeated at the top of every chunk the table spans. */
  header?: { start: number; end: number };
}

/** Where a chunk may not cross: page (page anchors) or sheet (record anchors). */
export function boundaryKey(e: Element): string {
  if (e.anchor.kind === 'page') return `p${e.anchor.page_index}`;
  if (e.anchor.kind === 'record' && e.anchor.sheet !== undefined) return `s${e.anchor.sheet}`;
  return '';
}

/** Sentences of an element; a sentence longer than maxLen is cut at spaces near maxLen. */
export function sentenceUnits(text: ElementText, index: number, maxLen: number): Unit[] {
  const out: Unit[] = [];
  for (const r of text.sentences()) {
    let s = r.start;
    while (r.end - s > maxLen) {
      let cut = s + maxLen;
      for (let k = cut; k > s + maxLen / 2; k--) {
        if (text.isSpaceAt(k)) {
          cut = k;
          break;
        }
      }
      out.push({ element: index, start: s, end: cut, length: cut - s });
      s = cut;
      while (s < r.end && text.isSpaceAt(s)) s++;
    }
    if (r.end > s) out.push({ element: index, start: s, end: r.end, length: r.end - s });
  }
  return out;
}

/** Rows of a table element (one per line); the first line is its header. */
export function tableUnits(text: ElementText, index: number, maxLen: number): Unit[] {
  const lines: { start: number; end: number }[] = [];
  let s = 0;
  for (const line of text.text.split('\n')) {
    const length = codepointLength(line);
    if (length > 0) lines.push({ start: s, end: s + length });
    s += length + 1;
  }
  const [header, ...rows] = lines;
  if (!header || rows.length === 0) return sentenceUnits(text, index, maxLen);
  return rows.map((r) => ({ element: index, start: r.start, end: r.end, length: r.end - r.start, header }));
}
