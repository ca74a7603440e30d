import type { Anchor, Box, Element, Precision } from '@pinpoint/core';
import { rawRangeOf } from '@pinpoint/core';

/**
 * The exact anchor of a codepoint range [start, end) of an element's text: a text anchor
 * narrowed to the range, the boxes of the page spans that overlap it, or the element's record.
 * A text anchor's `raw` range (HTML, JSON) is the span of the original source that holds the
 * sentence, markup inside it included: narrowed through the element's raw map, or the element's own
 * range when it has none (a source map of version 1).
 */
export function sentenceAnchor(element: Element, start: number, end: number): { anchor: Anchor; precision: Precision } {
  const a = element.anchor;
  if (a.kind === 'text') {
    const raw = a.raw && element.raw_map ? (rawRangeOf(element.raw_map, start, end) ?? a.raw) : a.raw;
    return { anchor: { ...a, start: a.start + start, end: a.start + end, ...(raw ? { raw } : {}) }, precision: 'exact' };
  }
  if (a.kind === 'page') {
    const spans = element.spans ?? [];
    if (spans.length === 0) return { anchor: a, precision: 'element' };
    const boxes: Box[] = spans.filter((s) => s.start < end && s.end > start).map((s) => s.box);
    if (boxes.length === 0) return { anchor: a, precision: 'element' };
    return { anchor: { ...a, boxes }, precision: 'exact' };
  }
  return { anchor: a, precision: a.cell_range !== undefined ? 'exact' : 'element' };
}
