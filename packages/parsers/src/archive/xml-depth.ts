const LT = 0x3c;
const GT = 0x3e;
const SLASH = 0x2f;
const QUESTION = 0x3f;
const BANG = 0x21;

/**
 * Whether XML bytes nest elements deeper than `max`, in one pass over the bytes and without decoding
 * or building anything. An approximation that never under-counts real nesting: comments, processing
 * instructions and declarations are skipped, `<a/>` opens and closes, `</a>` closes.
 */
export function xmlDepthExceeds(xml: Uint8Array, max: number): boolean {
  let depth = 0;
  let i = xml.indexOf(LT);
  while (i !== -1 && i + 1 < xml.length) {
    const next = xml[i + 1];
    const end = xml.indexOf(GT, i + 1);
    if (end === -1) return false;
    if (next === SLASH) depth = Math.max(0, depth - 1);
    else if (next !== QUESTION && next !== BANG && xml[end - 1] !== SLASH) {
      depth++;
      if (depth > max) return true;
    }
    i = xml.indexOf(LT, end + 1);
  }
  return false;
}
