import type { RawMap } from '@pinpoint/core';
import { CodepointIndex } from '@pinpoint/core';

const WHITESPACE = /\s/;

/**
 * A string with, for each UTF-16 unit, the UTF-16 range of the raw source it came from (-1: added
 * by the parser). Parsers shape text with regular-expression replaces; doing them here keeps each
 * output unit's origin, so a sentence of the final text finds its own raw span.
 * Without origins (`from` null) it is a plain string and costs nothing more.
 */
export class MappedText {
  constructor(
    readonly text: string,
    readonly from: Int32Array | null,
    readonly to: Int32Array | null,
  ) {}

  /** Text with no raw source (a separator the parser adds); `mapped` gives it origin arrays (-1). */
  static added(text: string, mapped: boolean): MappedText {
    if (!mapped) return new MappedText(text, null, null);
    return new MappedText(text, new Int32Array(text.length).fill(-1), new Int32Array(text.length).fill(-1));
  }

  /** The parts one after another; mapped when every part is. */
  static concat(parts: readonly MappedText[]): MappedText {
    const text = parts.map((p) => p.text).join('');
    if (parts.some((p) => !p.from || !p.to)) return new MappedText(text, null, null);
    const from = new Int32Array(text.length);
    const to = new Int32Array(text.length);
    let at = 0;
    for (const p of parts) {
      from.set(p.from as Int32Array, at);
      to.set(p.to as Int32Array, at);
      at += p.text.length;
    }
    return new MappedText(text, from, to);
  }

  /**
   * `text.replace(pattern, replacement)` for a global pattern that never matches empty and a
   * replacement of at most one unit: the replacement takes the union of the raw ranges of the units
   * it replaced.
   */
  replace(pattern: RegExp, replacement: string): MappedText {
    const { from, to, text } = this;
    if (!from || !to) return new MappedText(text.replace(pattern, replacement), null, null);
    if (!pattern.global || replacement.length > 1) throw new Error('MappedText.replace: a global pattern and one unit at most');
    let parts: string[] | null = null;
    let outFrom = from;
    let outTo = to;
    let read = 0;
    let write = 0;
    pattern.lastIndex = 0;
    for (let m = pattern.exec(text); m !== null; m = pattern.exec(text)) {
      // a match replaced by itself (a single space collapsed to a space) keeps its unit and origin
      if (m[0] === replacement) continue;
      if (!parts) {
        parts = [];
        outFrom = new Int32Array(text.length);
        outTo = new Int32Array(text.length);
      }
      const start = m.index;
      const end = start + m[0].length;
      parts.push(text.slice(read, start), replacement);
      for (let u = read; u < start; u++, write++) {
        outFrom[write] = from[u] as number;
        outTo[write] = to[u] as number;
      }
      if (replacement.length === 1) {
        let lo = -1;
        let hi = -1;
        for (let u = start; u < end; u++) {
          const f = from[u] as number;
          if (f < 0) continue;
          lo = lo < 0 ? f : Math.min(lo, f);
          hi = Math.max(hi, to[u] as number);
        }
        outFrom[write] = lo;
        outTo[write] = hi;
        write++;
      }
      read = end;
    }
    if (!parts) return this;
    parts.push(text.slice(read));
    outFrom.set(from.subarray(read), write);
    outTo.set(to.subarray(read), write);
    write += text.length - read;
    return new MappedText(parts.join(''), outFrom.subarray(0, write), outTo.subarray(0, write));
  }

  /** The units [start, end) with their origins. */
  slice(start: number, end: number): MappedText {
    if (start === 0 && end === this.text.length) return this;
    return new MappedText(this.text.slice(start, end), this.from?.slice(start, end) ?? null, this.to?.slice(start, end) ?? null);
  }

  /** `text.trim()`: the same whitespace, found unit by unit (a regular expression would be quadratic on long runs). */
  trim(): MappedText {
    const kept = this.trimEnd();
    let s = 0;
    while (s < kept.text.length && WHITESPACE.test(kept.text[s] as string)) s++;
    return kept.slice(s, kept.text.length);
  }

  /** `text.trimEnd()`. */
  trimEnd(): MappedText {
    let e = this.text.length;
    while (e > 0 && WHITESPACE.test(this.text[e - 1] as string)) e--;
    return this.slice(0, e);
  }

  /**
   * The origins as pieces, UTF-16, four numbers each (`text_start, text_end, raw_start, raw_end`):
   * runs of consecutive source units become literal pieces (ranges of one length), units sharing
   * one origin an atomic piece, added units gaps. Undefined without origins.
   */
  pieces(): number[] | undefined {
    const { from, to, text } = this;
    if (!from || !to) return undefined;
    const out: number[] = [];
    let t0 = -1;
    let r0 = -1;
    let r1 = -1;
    let literal = true;
    for (let u = 0; u < text.length; u++) {
      const f = from[u] as number;
      const e = to[u] as number;
      if (t0 >= 0 && f >= 0) {
        if (literal && f === r1 && e === f + 1 && r1 - r0 === u - t0) {
          r1 = e;
          continue;
        }
        // one origin for several units: an entity or escape that decoded to a surrogate pair or more
        if (f === r0 && e === r1 && (!literal || u - t0 === 1)) {
          literal = false;
          continue;
        }
      }
      if (t0 >= 0) out.push(t0, u, r0, r1);
      t0 = f >= 0 ? u : -1;
      r0 = f;
      r1 = e;
      literal = e - f === 1;
    }
    if (t0 >= 0) out.push(t0, text.length, r0, r1);
    // an exact-size copy: a pushed-to array keeps room to grow, most of a short map's memory
    return out.slice();
  }

  /** The text with the origins that `pieces` described (units outside every piece added). */
  static fromPieces(text: string, pieces: ArrayLike<number> | undefined): MappedText {
    if (!pieces) return new MappedText(text, null, null);
    const from = new Int32Array(text.length).fill(-1);
    const to = new Int32Array(text.length).fill(-1);
    for (let i = 0; i < pieces.length; i += 4) {
      const t0 = pieces[i] as number;
      const t1 = pieces[i + 1] as number;
      const r0 = pieces[i + 2] as number;
      const r1 = pieces[i + 3] as number;
      const literal = t1 - t0 === r1 - r0;
      for (let u = t0; u < t1; u++) {
        from[u] = literal ? r0 + u - t0 : r0;
        to[u] = literal ? r0 + u - t0 + 1 : r1;
      }
    }
    return new MappedText(text, from, to);
  }
}

/**
 * UTF-16 pieces of `text` (raw offsets into the string `source` indexes) as a raw map in codepoints.
 * An atomic piece that comes out as long as its raw range gives its last codepoint a piece of its
 * own, so it still reads as atomic.
 */
export function rawMapOf(text: string, pieces: readonly number[], source: CodepointIndex): RawMap {
  const own = new CodepointIndex(text);
  // without astral characters UTF-16 offsets are codepoints: the pieces are the map (no copy)
  if (own.length === own.utf16Length && source.length === source.utf16Length) return pieces as RawMap;
  const map: RawMap = [];
  for (let i = 0; i < pieces.length; i += 4) {
    const t0 = pieces[i] as number;
    const t1 = pieces[i + 1] as number;
    const r0 = pieces[i + 2] as number;
    const r1 = pieces[i + 3] as number;
    const [a, b, c, d] = [own.toCodepoint(t0), own.toCodepoint(t1), source.toCodepoint(r0), source.toCodepoint(r1)];
    if (a === b) continue;
    const atomic = t1 - t0 !== r1 - r0;
    if (atomic && b - a === d - c && b - a > 1) map.push(a, b - 1, c, d, b - 1, b, c, d);
    else map.push(a, b, c, d);
  }
  return map.slice();
}
