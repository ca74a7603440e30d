import type { Diagnostic } from '@pinpoint/core';
import iconv from 'iconv-lite';
import jschardet from 'jschardet';

/** How the charset of a text file was decided. */
type CharsetMethod = 'bom' | 'declared' | 'utf-8' | 'utf-16-heuristic' | 'detected' | 'fallback';

export interface DecodedText {
  /** The decoded text, BOM removed; every text anchor's offsets index into it. */
  text: string;
  /** iconv-lite / WHATWG name of the charset used. */
  charset: string;
  method: CharsetMethod;
  diagnostics: Diagnostic[];
}

export interface DecodeOptions {
  /** A charset declared by the container (HTML <meta>); used when no BOM says otherwise and it decodes cleanly. */
  declared?: string;
}

const boms: ReadonlyArray<{ bytes: readonly number[]; charset: string }> = [
  { bytes: [0xef, 0xbb, 0xbf], charset: 'utf-8' },
  { bytes: [0xff, 0xfe, 0x00, 0x00], charset: 'utf-32le' },
  { bytes: [0x00, 0x00, 0xfe, 0xff], charset: 'utf-32be' },
  { bytes: [0xff, 0xfe], charset: 'utf-16le' },
  { bytes: [0xfe, 0xff], charset: 'utf-16be' },
];

function bomOf(bytes: Uint8Array): { charset: string; length: number } | undefined {
  for (const bom of boms) {
    if (bytes.byteLength >= bom.bytes.length && bom.bytes.every((b, i) => bytes[i] === b)) {
      return { charset: bom.charset, length: bom.bytes.length };
    }
  }
  return undefined;
}

/** UTF-16/32 without a BOM: ASCII-heavy text leaves NULs in a regular position pattern. */
function nulPattern(bytes: Uint8Array): string | undefined {
  const n = Math.min(bytes.byteLength, 4096) & ~3;
  if (n < 8) return undefined;
  const zeros = [0, 0, 0, 0];
  for (let i = 0; i < n; i++) if (bytes[i] === 0) zeros[i & 3] = (zeros[i & 3] as number) + 1;
  const q = n / 4;
  const [z0, z1, z2, z3] = zeros as [number, number, number, number];
  if (z1 > 0.7 * q && z2 > 0.7 * q && z3 > 0.7 * q && z0 < 0.3 * q) return 'utf-32le';
  if (z0 > 0.7 * q && z1 > 0.7 * q && z2 > 0.7 * q && z3 < 0.3 * q) return 'utf-32be';
  const even = z0 + z2;
  const odd = z1 + z3;
  if (odd > 0.4 * 2 * q && even < 0.1 * 2 * q) return 'utf-16le';
  if (even > 0.4 * 2 * q && odd < 0.1 * 2 * q) return 'utf-16be';
  return undefined;
}

function decodeWith(bytes: Uint8Array, charset: string): string {
  if (charset === 'utf-8') return new TextDecoder('utf-8').decode(bytes);
  return iconv.decode(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength), charset, { stripBOM: false });
}

function isValidUtf8(bytes: Uint8Array): boolean {
  try {
    new TextDecoder('utf-8', { fatal: true }).decode(bytes);
    return true;
  } catch {
    return false;
  }
}

/** Replacement characters and C1/C0 controls a wrong guess tends to produce (lower is better). */
function badness(text: string): number {
  let bad = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0xfffd) bad += 10;
    else if ((c < 0x20 && c !== 9 && c !== 10 && c !== 13 && c !== 12) || (c >= 0x80 && c < 0xa0)) bad += 1;
  }
  return bad;
}

const candidateOrder = ['windows-1252', 'shift_jis', 'euc-jp', 'gb18030', 'big5', 'euc-kr', 'windows-1251', 'iso-8859-2'];

function normaliseCharset(name: string): string | undefined {
  const lower = name.toLowerCase();
  const mapped = lower === 'ascii' || lower === 'us-ascii' ? 'utf-8' : lower === 'gb2312' ? 'gb18030' : lower;
  return iconv.encodingExists(mapped) ? mapped : undefined;
}

/** jschardet's guesses, validated: the first that decodes without damage wins, else the least damaged candidate. */
function detectLegacy(bytes: Uint8Array): { charset: string; text: string; guessed: string | undefined } {
  const sample = bytes.subarray(0, 256 * 1024);
  const guesses = jschardet
    .detectAll(sample)
    .map((g) => (g.encoding ? normaliseCharset(g.encoding) : undefined))
    .filter((g): g is string => g !== undefined);
  const guessed = guesses[0];
  const tried = new Set<string>();
  let best: { charset: string; text: string; bad: number } | undefined;
  for (const charset of [...guesses, ...candidateOrder]) {
    if (tried.has(charset)) continue;
    tried.add(charset);
    const text = decodeWith(bytes, charset);
    const bad = badness(text);
    if (bad === 0 && guesses.includes(charset)) return { charset, text, guessed };
    if (!best || bad < best.bad) best = { charset, text, bad };
  }
  const chosen = best ?? { charset: 'windows-1252', text: decodeWith(bytes, 'windows-1252') };
  return { charset: chosen.charset, text: chosen.text, guessed };
}

/** Decodes a text file: BOM, declared charset, UTF-16/32 NUL pattern, strict UTF-8, then validated detection. */
export function decodeText(bytes: Uint8Array, options: DecodeOptions = {}): DecodedText {
  const bom = bomOf(bytes);
  if (bom) {
    return { text: decodeWith(bytes.subarray(bom.length), bom.charset), charset: bom.charset, method: 'bom', diagnostics: [] };
  }
  const nul = nulPattern(bytes);
  if (nul) return { text: decodeWith(bytes, nul), charset: nul, method: 'utf-16-heuristic', diagnostics: [guessDiagnostic(nul)] };
  const utf8 = isValidUtf8(bytes);
  // A declared UTF-16/32 without a BOM or NUL pattern is wrong by definition (HTML treats it as UTF-8).
  const declared = options.declared && !/^utf-?(16|32)/i.test(options.declared) ? normaliseCharset(options.declared) : undefined;
  if (declared && !(utf8 && declared !== 'utf-8' && hasNonAscii(bytes))) {
    const text = decodeWith(bytes, declared);
    if (badness(text) === 0 || !utf8) return { text, charset: declared, method: 'declared', diagnostics: [] };
  }
  if (utf8) return { text: decodeWith(bytes, 'utf-8'), charset: 'utf-8', method: 'utf-8', diagnostics: [] };
  const legacy = detectLegacy(bytes);
  const method: CharsetMethod = legacy.charset === legacy.guessed ? 'detected' : 'fallback';
  return { text: legacy.text, charset: legacy.charset, method, diagnostics: [guessDiagnostic(legacy.charset)] };
}

function hasNonAscii(bytes: Uint8Array): boolean {
  for (const b of bytes) if (b >= 0x80) return true;
  return false;
}

function guessDiagnostic(charset: string): Diagnostic {
  return {
    rule_id: 'text/charset-guessed',
    reason: `No byte-order mark or declaration; the text was decoded as ${charset} by content analysis.`,
    severity: 'info',
  };
}
