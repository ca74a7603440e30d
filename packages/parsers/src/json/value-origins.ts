const isHigh = (c: number): boolean => c >= 0xd800 && c <= 0xdbff;
const isLow = (c: number): boolean => c >= 0xdc00 && c <= 0xdfff;

/** The code unit a `\uXXXX` escape at `i` stands for, or -1. */
function unicodeEscape(source: string, i: number): number {
  if (source.charCodeAt(i) !== 0x5c || source[i + 1] !== 'u') return -1;
  const hex = source.slice(i + 2, i + 6);
  return /^[0-9a-fA-F]{4}$/.test(hex) ? Number.parseInt(hex, 16) : -1;
}

/**
 * Appends to `out` the pieces (UTF-16, four numbers each: text start, text end, raw start, raw end;
 * see MappedText.pieces) that place `text`, laid out from `at`, in the JSON literal at
 * `source[offset, offset + length)`. A string's runs of plain characters are literal pieces, each
 * escape an atomic one (an escaped surrogate pair both escapes); a number or boolean is one piece,
 * literal when written as it reads (`String(value)`), else atomic (a last unit of its own when the
 * two happen to be as long, so it still reads as atomic).
 */
export function literalPieces(source: string, offset: number, length: number, text: string, at: number, out: number[]): void {
  if (text.length === 0) return;
  if (source.charCodeAt(offset) !== 0x22) {
    const n = text.length;
    if (n === length && n > 1 && source.slice(offset, offset + length) !== text)
      out.push(at, at + n - 1, offset, offset + length, at + n - 1, at + n, offset, offset + length);
    else out.push(at, at + n, offset, offset + length);
    return;
  }
  const end = offset + length - 1;
  let i = offset + 1;
  let j = 0;
  /** Start (text, raw) of the run of plain characters being read; -1: none. */
  let runT = -1;
  let runR = -1;
  while (j < text.length && i < end) {
    if (source.charCodeAt(i) !== 0x5c) {
      if (runT < 0) {
        runT = j;
        runR = i;
      }
      i++;
      j++;
      continue;
    }
    if (runT >= 0) out.push(at + runT, at + j, runR, runR + j - runT);
    runT = -1;
    let units = 1;
    let next = i + 2;
    if (source[i + 1] === 'u') {
      const pair = isHigh(unicodeEscape(source, i)) && isLow(unicodeEscape(source, i + 6)) && j + 1 < text.length;
      units = pair ? 2 : 1;
      next = pair ? i + 12 : i + 6;
    }
    out.push(at + j, at + j + units, i, next);
    j += units;
    i = next;
  }
  if (runT >= 0) out.push(at + runT, at + j, runR, runR + j - runT);
  if (j < text.length) out.push(at + j, at + text.length, offset, offset + length);
}
