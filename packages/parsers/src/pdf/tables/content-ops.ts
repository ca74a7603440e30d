/**
 * A reader of a PDF content stream's operators (ISO 32000 §7.8.2) that keeps only what drawing needs:
 * each operator, its number operands, and the name among them. Strings, arrays, dictionaries and inline
 * images are stepped over, not built. Tokens split as pdf.js's lexer splits them (a known operator
 * ends where the next character would make it unknown: `Qq` is Q then q), and numbers are read with
 * the same arithmetic, so the figures equal those pdf.js draws with.
 */

/** An operator's name (up to six ASCII characters) as a number: first character in the low byte. */
export const opCode = (name: string): number => {
  let code = 0;
  for (let i = name.length - 1; i >= 0; i--) code = code * 256 + name.charCodeAt(i);
  return code;
};

/** Every content-stream operator of ISO 32000 (and pdf.js's), for splitting tokens as pdf.js does. */
const KNOWN = new Set(
  (
    'w J j M d ri i gs q Q cm m l c v y h re S s f F f* B B* b b* n W W* BT ET Tc Tw Tz TL Tf Tr Ts Td TD Tm T* ' +
    'Tj TJ \' " d0 d1 CS cs SC SCN sc scn G g RG rg K k sh BI ID EI Do MP DP BMC BDC EMC BX EX ' +
    // the partial words pdf.js's lexer knows too, so that BDC, false and null are read whole
    'BM BD fa fal fals false nu nul null'
  )
    .split(' ')
    .map(opCode),
);
const KEYWORDS = new Set(['true', 'false', 'null'].map(opCode));

/** Operands held at most: pdf.js stops a stream at 33 operands to one operator. */
const MAX_OPERANDS = 33;

export interface Operation {
  /** opCode of the operator. */
  op: number;
  /** Its operands in order: numbers, NaN for any other kind. */
  nums: Float64Array;
  count: number;
  /** The last name operand, decoded (`/F1` → "F1"). */
  name: string | undefined;
}

const WHITE = new Uint8Array(256);
for (const c of [0, 9, 10, 12, 13, 32]) WHITE[c] = 1;
/** White space or a delimiter: where a token ends. */
const ENDS = new Uint8Array(256);
for (let c = 0; c < 256; c++) ENDS[c] = WHITE[c] || '()<>[]{}/%'.includes(String.fromCharCode(c)) ? 1 : 0;

/** End of a literal string opening at `i` (after its closing parenthesis), nested parentheses and escapes heeded. */
function skipString(b: Uint8Array, i: number): number {
  let depth = 0;
  for (; i < b.length; i++) {
    const c = b[i];
    if (c === 0x5c) i++;
    else if (c === 0x28) depth++;
    else if (c === 0x29 && --depth === 0) return i + 1;
  }
  return i;
}

/** Index after `to` found from `i`, or the end. */
function skipTo(b: Uint8Array, i: number, to: number): number {
  const at = b.indexOf(to, i);
  return at < 0 ? b.length : at + 1;
}

/** After an inline image's `ID`: its data ends at the first `EI` between white space (or the stream's end). */
function skipInlineImage(b: Uint8Array, i: number): number {
  for (let at = b.indexOf(0x45, i + 1); at >= 0; at = b.indexOf(0x45, at + 1)) {
    const after = b[at + 2];
    if (b[at + 1] === 0x49 && WHITE[b[at - 1] as number] && (after === undefined || WHITE[after])) return at + 2;
  }
  return b.length;
}

/** A name token from `i` (at the slash) to its end; `#xx` escapes decoded. */
function readName(b: Uint8Array, i: number, end: number): string {
  let out = '';
  for (let k = i + 1; k < end; k++) {
    const c = b[k] as number;
    if (c === 0x23 && k + 2 < end) {
      out += String.fromCharCode(Number.parseInt(String.fromCharCode(b[k + 1] as number, b[k + 2] as number), 16) || 0);
      k += 2;
    } else out += String.fromCharCode(c);
  }
  return out;
}

const isDigit = (c: number | undefined): boolean => c !== undefined && c >= 0x30 && c <= 0x39;

/** Where the last token read (readNumber, readOperator) ended: kept here so reading one allocates nothing. */
let tokenEnd = 0;

/** A number from `i` as pdf.js's lexer reads it (digits accumulated, then divided once); its end in tokenEnd. */
function readNumber(b: Uint8Array, i: number): number {
  let sign = 1;
  if (b[i] === 0x2d) {
    sign = -1;
    if (b[++i] === 0x2d) i++;
  } else if (b[i] === 0x2b) i++;
  while (b[i] === 0x0a || b[i] === 0x0d) i++;
  let divideBy = 0;
  if (b[i] === 0x2e) {
    divideBy = 10;
    i++;
  }
  if (!isDigit(b[i])) {
    tokenEnd = i;
    return 0;
  }
  let value = (b[i++] as number) - 0x30;
  for (; i < b.length; i++) {
    const c = b[i] as number;
    if (c >= 0x30 && c <= 0x39) {
      if (divideBy !== 0) divideBy *= 10;
      value = value * 10 + c - 0x30;
    } else if (c === 0x2e) {
      if (divideBy !== 0) break;
      divideBy = 1;
    } else if (c !== 0x2d) break;
  }
  tokenEnd = i;
  return sign * (divideBy !== 0 ? value / divideBy : value);
}

/** Place values of an operator's characters in its opCode. */
const PLACE = [1, 256, 256 ** 2, 256 ** 3, 256 ** 4, 256 ** 5];

/** The opCode of the operator token at `i` (-1 past six characters), split where pdf.js's lexer splits it; its end in tokenEnd. */
function readOperator(b: Uint8Array, i: number): number {
  let code = b[i] as number;
  let known = KNOWN.has(code);
  let length = 1;
  for (i++; i < b.length && !ENDS[b[i] as number]; i++, length++) {
    const next = length < 6 && code >= 0 ? code + (b[i] as number) * (PLACE[length] as number) : -1;
    if (known && !KNOWN.has(next)) break;
    code = next;
    known = KNOWN.has(code);
  }
  tokenEnd = i;
  return code;
}

/**
 * Calls `visit` with each operator of `bytes` at the top level (not inside an array or dictionary),
 * in order, until it returns false or the stream ends. `op.nums` is reused between calls.
 */
export function readOperations(bytes: Uint8Array, visit: (op: Operation) => boolean): void {
  const b = bytes;
  const op: Operation = { op: 0, nums: new Float64Array(MAX_OPERANDS), count: 0, name: undefined };
  const push = (value: number): void => {
    if (op.count === MAX_OPERANDS) op.nums.copyWithin(0, 1);
    else op.count++;
    op.nums[op.count - 1] = value;
  };
  let nest = 0;
  for (let i = 0; i < b.length; ) {
    const c = b[i] as number;
    if (WHITE[c]) i++;
    else if (c === 0x25) i = skipTo(b, i, 0x0a);
    else if (c === 0x28 || (c === 0x3c && b[i + 1] !== 0x3c)) {
      i = c === 0x28 ? skipString(b, i) : skipTo(b, i, 0x3e);
      if (nest === 0) push(Number.NaN);
    } else if (c === 0x3c || c === 0x5b) {
      nest++;
      i += c === 0x3c ? 2 : 1;
    } else if ((c === 0x3e && b[i + 1] === 0x3e) || c === 0x5d) {
      nest = Math.max(0, nest - 1);
      i += c === 0x3e ? 2 : 1;
      if (nest === 0) push(Number.NaN);
    } else if (c === 0x2f) {
      let end = i + 1;
      while (end < b.length && !ENDS[b[end] as number]) end++;
      if (nest === 0) {
        op.name = readName(b, i, end);
        push(Number.NaN);
      }
      i = end;
    } else if (isDigit(c) || c === 0x2d || c === 0x2b || c === 0x2e) {
      const value = readNumber(b, i);
      i = Math.max(tokenEnd, i + 1);
      if (nest === 0) push(value);
    } else if (ENDS[c]) i++;
    else {
      const code = readOperator(b, i);
      i = tokenEnd;
      if (nest > 0) continue;
      if (KEYWORDS.has(code)) {
        push(Number.NaN);
        continue;
      }
      op.op = code;
      if (code === ID) i = skipInlineImage(b, i);
      if (!visit(op)) return;
      op.count = 0;
      op.name = undefined;
    }
  }
}

const ID = opCode('ID');
