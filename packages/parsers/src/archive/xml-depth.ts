const LT = 0x3c;
const GT = 0x3e;
const SLASH = 0x2f;
const QUESTION = 0x3f;
const BANG = 0x21;

export type XmlProblem = 'too-deep' | 'misplaced-declaration';

/** `<?xml` followed by whitespace: an XML declaration, allowed only at the very start of a document. */
function isDeclaration(xml: Uint8Array, at: number): boolean {
  return (
    xml[at + 2] === 0x78 && xml[at + 3] === 0x6d && xml[at + 4] === 0x6c && [0x20, 0x09, 0x0a, 0x0d].includes(xml[at + 5] ?? 0)
  );
}

/**
 * What makes XML bytes unfit for a parser, found in one pass without decoding or building anything:
 * elements nested deeper than `max` (an approximation that never under-counts: comments, processing
 * instructions and declarations are skipped, `<a/>` opens and closes, `</a>` closes), or an XML
 * declaration after the start (stray markup that sends XML libraries into slow error recovery).
 */
export function xmlProblem(xml: Uint8Array, max: number): XmlProblem | undefined {
  let depth = 0;
  let i = xml.indexOf(LT);
  const first = i;
  while (i !== -1 && i + 1 < xml.length) {
    const next = xml[i + 1];
    const end = xml.indexOf(GT, i + 1);
    if (end === -1) return undefined;
    if (next === SLASH) depth = Math.max(0, depth - 1);
    else if (next === QUESTION) {
      if (i !== first && isDeclaration(xml, i)) return 'misplaced-declaration';
    } else if (next !== BANG && xml[end - 1] !== SLASH) {
      depth++;
      if (depth > max) return 'too-deep';
    }
    i = xml.indexOf(LT, end + 1);
  }
  return undefined;
}
