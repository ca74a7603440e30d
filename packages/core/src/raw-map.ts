import { z } from 'zod';

/**
 * Where each run of an element's text sits in the raw source (HTML, JSON): a flat list of pieces,
 * four numbers each, `text_start, text_end, raw_start, raw_end` (codepoints, half-open, in text
 * order). `text_*` index the element's text; `raw_*` index the decoded source (the same offsets as
 * `anchor.raw`). Flat, so a document of a million runs is a million small arrays fewer.
 *
 * A piece whose two ranges have the same length is literal: text codepoint `text_start + k` is raw
 * codepoint `raw_start + k`. Any other piece is atomic (an entity or escape, a collapsed run of
 * whitespace, a number written another way): a range that touches it takes all of it. Text between
 * pieces was added by the parser (the " | " between table cells, ": " after a JSON key) and has no
 * raw source.
 */
export const rawMapSchema = z
  .array(z.number().int().nonnegative())
  .refine((m) => m.length % 4 === 0, 'a raw map is a list of [text_start, text_end, raw_start, raw_end] pieces');
export type RawMap = z.infer<typeof rawMapSchema>;

/**
 * The raw span that holds the codepoint range [start, end) of an element's text: from the raw
 * offset of its first source-backed codepoint to the end of its last, markup in between included.
 * Undefined when the range holds only text the parser added.
 */
export function rawRangeOf(map: RawMap, start: number, end: number): { start: number; end: number } | undefined {
  let lo = Number.POSITIVE_INFINITY;
  let hi = Number.NEGATIVE_INFINITY;
  // first piece that ends after `start` (pieces are in text order and do not overlap)
  let a = 0;
  let b = map.length / 4;
  while (a < b) {
    const mid = (a + b) >> 1;
    if ((map[4 * mid + 1] as number) <= start) a = mid + 1;
    else b = mid;
  }
  for (let i = 4 * a; i < map.length; i += 4) {
    const t0 = map[i] as number;
    const t1 = map[i + 1] as number;
    const r0 = map[i + 2] as number;
    const r1 = map[i + 3] as number;
    if (t0 >= end) break;
    if (t1 <= start) continue;
    const literal = t1 - t0 === r1 - r0;
    lo = Math.min(lo, literal ? r0 + Math.max(start, t0) - t0 : r0);
    hi = Math.max(hi, literal ? r0 + Math.min(end, t1) - t0 : r1);
  }
  return lo < hi ? { start: lo, end: hi } : undefined;
}
