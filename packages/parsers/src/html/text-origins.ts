import type { DefaultTreeAdapterTypes } from 'parse5';
import { parseFragment } from 'parse5';

/** A character reference as the tokenizer reads one in text: named (legacy ones without ';' too) or numeric. */
const REFERENCE = /&(?:#[xX][0-9a-fA-F]+;?|#[0-9]+;?|[A-Za-z][A-Za-z0-9]*;?)/y;

const decodedReferences = new Map<string, string>();

/**
 * What a character reference decodes to in text content: the HTML parser's own reading of it alone
 * (the reference runs to the end of its alphanumerics, so what follows cannot change it).
 */
function decodeReference(reference: string): string {
  let decoded = decodedReferences.get(reference);
  if (decoded === undefined) {
    const node = parseFragment(`<p>${reference}`).childNodes[0] as DefaultTreeAdapterTypes.Element | undefined;
    const text = node?.childNodes[0];
    decoded = text && 'value' in text ? text.value : reference;
    if (decodedReferences.size > 10_000) decodedReferences.clear();
    decodedReferences.set(reference, decoded);
  }
  return decoded;
}

/**
 * Sets `from[at + k]`/`to[at + k]` to the UTF-16 range of `source` that produced unit k of a text
 * node's `value`, the node's source being `source[start, end)`: one raw unit per literal unit, the
 * whole reference for a decoded `&amp;`/`&#233;`, both units of a CRLF for its LF. Raw units the value
 * lacks (a tag the parser ignored, the newline dropped after <pre>, a NUL) are stepped over; if the
 * value cannot be followed to the end, its rest takes the rest of the range.
 */
export function alignTextNode(
  value: string,
  source: string,
  start: number,
  end: number,
  from: Int32Array,
  to: Int32Array,
  at: number,
): void {
  let i = start;
  let j = 0;
  /** Where raw units began to be stepped over without a match (-1: the last unit matched). */
  let lost = -1;
  while (j < value.length && i < end) {
    const c = source.charCodeAt(i);
    const d = value.charCodeAt(j);
    /** Units of the value that unit(s) [i, next) of the source produced; 0: the raw unit is not in the value. */
    let units = 0;
    let next = i + 1;
    if (c === 0x26) {
      REFERENCE.lastIndex = i;
      const m = REFERENCE.exec(source);
      const decoded = m && i + m[0].length <= end ? decodeReference(m[0]) : undefined;
      if (m && decoded !== undefined && decoded !== m[0] && value.startsWith(decoded, j)) {
        units = decoded.length;
        next = i + m[0].length;
      }
    }
    if (units === 0) {
      if (c === d || (c === 0 && d === 0xfffd)) units = 1;
      else if (c === 0x0d && d === 0x0a) {
        units = 1;
        if (i + 1 < end && source.charCodeAt(i + 1) === 0x0a) next = i + 2;
      } else if (c === 0x3c) {
        const close = source.indexOf('>', i);
        if (close >= 0 && close < end) next = close + 1;
      }
    }
    if (units === 0) {
      if (lost < 0) lost = i;
    } else {
      for (let k = at + j; k < at + j + units; k++) {
        from[k] = i;
        to[k] = next;
      }
      j += units;
      lost = -1;
    }
    i = next;
  }
  if (j < value.length) {
    const rest = lost >= 0 ? lost : i < end ? i : start;
    from.fill(rest, at + j, at + value.length);
    to.fill(end, at + j, at + value.length);
  }
}
