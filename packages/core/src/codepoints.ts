/**
 * Offsets that cross an API boundary are Unicode codepoints, half-open [start, end).
 * JavaScript strings index UTF-16 code units; these helpers are the only conversion.
 */

/** Number of codepoints in a string. */
export function codepointLength(text: string): number {
  let n = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdbff && i + 1 < text.length) {
      const d = text.charCodeAt(i + 1);
      if (d >= 0xdc00 && d <= 0xdfff) i++;
    }
    n++;
  }
  return n;
}

/**
 * Maps codepoint offsets to UTF-16 offsets for one string. Build once, query many times.
 * `toUtf16(cp)` accepts 0..codepointLength; `toCodepoint(u)` accepts 0..text.length
 * (an index inside a surrogate pair maps to the pair's codepoint).
 */
export class CodepointIndex {
  /** UTF-16 offset of each astral codepoint's codepoint index, sorted; empty for BMP-only text. */
  private readonly astralCp: number[] = [];
  readonly length: number;
  readonly utf16Length: number;

  constructor(text: string) {
    let cp = 0;
    for (let i = 0; i < text.length; i++) {
      const c = text.charCodeAt(i);
      if (c >= 0xd800 && c <= 0xdbff && i + 1 < text.length) {
        const d = text.charCodeAt(i + 1);
        if (d >= 0xdc00 && d <= 0xdfff) {
          this.astralCp.push(cp);
          i++;
        }
      }
      cp++;
    }
    this.length = cp;
    this.utf16Length = text.length;
  }

  toUtf16(cp: number): number {
    if (cp < 0 || cp > this.length) throw new RangeError(`codepoint offset ${cp} outside 0..${this.length}`);
    return cp + countBelow(this.astralCp, cp);
  }

  toCodepoint(u: number): number {
    if (u < 0 || u > this.utf16Length) throw new RangeError(`UTF-16 offset ${u} outside 0..${this.utf16Length}`);
    // astral codepoint k (at codepoint index a_k) starts at UTF-16 a_k + k
    let lo = 0;
    let hi = this.astralCp.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      const a = this.astralCp[mid] as number;
      if (a + mid < u) lo = mid + 1;
      else hi = mid;
    }
    // lo astral codepoints start strictly before u; each adds one extra unit.
    // An index on a low surrogate maps to its pair's codepoint.
    return u - lo;
  }
}

function countBelow(sorted: number[], value: number): number {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if ((sorted[mid] as number) < value) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** Slice by codepoints, half-open. */
export function sliceCodepoints(text: string, start: number, end: number): string {
  const idx = new CodepointIndex(text);
  return text.slice(idx.toUtf16(start), idx.toUtf16(end));
}
