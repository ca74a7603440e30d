import { craftZip, pngHeader } from '@pinpoint/testing';
import JSZip from 'jszip';

/** The ways a seed file is damaged, after the ones that found real failures in Pinpoint's ingestion. */
export const operators = [
  'flip',
  'truncate',
  'insert',
  'duplicate',
  'zip-entry',
  'deep-nesting',
  'bomb',
  'invalid-utf8',
  'nuls',
  'long-line',
] as const;
export type Operator = (typeof operators)[number];

type Rand = () => number;
const int = (rand: Rand, lo: number, hi: number): number => lo + Math.floor(rand() * (hi - lo + 1));

const zipFormats = new Set(['docx', 'xlsx', 'pptx']);
const textFormats = new Set(['txt', 'md', 'markdown', 'html', 'htm', 'csv', 'json']);
const imageFormats = new Set(['png', 'jpg', 'jpeg']);

/** The operators that mean something for a file of this extension. */
export function operatorsFor(ext: string): Operator[] {
  return operators.filter((op) => {
    if (op === 'zip-entry') return zipFormats.has(ext);
    if (op === 'deep-nesting') return zipFormats.has(ext) || ['json', 'html', 'htm', 'md', 'markdown'].includes(ext);
    if (op === 'bomb') return zipFormats.has(ext) || imageFormats.has(ext);
    if (op === 'long-line') return textFormats.has(ext);
    return true;
  });
}

function splice(bytes: Uint8Array, at: number, remove: number, insert: Uint8Array): Uint8Array {
  return Buffer.concat([bytes.subarray(0, at), insert, bytes.subarray(at + remove)]);
}

function flip(bytes: Uint8Array, rand: Rand, from = 0, to = bytes.length): Uint8Array {
  const out = Uint8Array.from(bytes);
  const n = int(rand, 1, 16);
  for (let i = 0; i < n && to > from; i++) {
    const at = int(rand, from, to - 1);
    out[at] = (out[at] ?? 0) ^ int(rand, 1, 255);
  }
  return out;
}

/** Flips bytes inside the compressed data of one entry, or a field of its directory record. */
function corruptZipEntry(bytes: Uint8Array, rand: Rand): Uint8Array {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const locals: number[] = [];
  for (let i = bytes.indexOf(0x50); i !== -1 && i + 30 <= bytes.length; i = bytes.indexOf(0x50, i + 1)) {
    if (view.getUint32(i, true) === 0x04034b50) locals.push(i);
  }
  const at = locals[int(rand, 0, Math.max(0, locals.length - 1))];
  if (at === undefined) return flip(bytes, rand);
  const start = at + 30 + view.getUint16(at + 26, true) + view.getUint16(at + 28, true);
  const size = view.getUint32(at + 18, true);
  if (rand() < 0.3) {
    const out = Uint8Array.from(bytes);
    const field = [8, 14, 18, 22][int(rand, 0, 3)] as number; // method, crc, compressed, uncompressed size
    new DataView(out.buffer).setUint16(at + field, int(rand, 0, 0xffff), true);
    return out;
  }
  return flip(bytes, rand, start, Math.min(bytes.length, start + Math.max(1, size)));
}

async function deepZip(bytes: Uint8Array, depth: number): Promise<Uint8Array> {
  const zip = await JSZip.loadAsync(bytes);
  const xml = Object.keys(zip.files).filter((n) => n.endsWith('.xml') && !n.startsWith('['));
  const target = xml.find((n) => /document\.xml$|sheet1\.xml$|slide1\.xml$/.test(n)) ?? xml[0];
  if (!target) return bytes;
  const text = await zip.file(target)?.async('string');
  const close = text?.lastIndexOf('</') ?? -1;
  if (!text || close < 0) return bytes;
  const deep = `${text.slice(0, close)}${'<x>'.repeat(depth)}${'</x>'.repeat(depth)}${text.slice(close)}`;
  zip.file(target, deep, { date: new Date(Date.UTC(2020, 0, 1)), createFolders: false });
  return zip.generateAsync({ type: 'uint8array', compression: 'DEFLATE' });
}

function deepText(ext: string, depth: number): Uint8Array {
  const text =
    ext === 'json'
      ? `${'['.repeat(depth)}1${']'.repeat(depth)}`
      : ext.startsWith('htm')
        ? `<html><body>${'<div>'.repeat(depth)}deep${'</div>'.repeat(depth)}</body></html>`
        : `${'> '.repeat(depth)}deep quote\n`;
  return new TextEncoder().encode(text);
}

/** The seed's text on one line (its line breaks made spaces), repeated to about `size` bytes. */
function longLine(bytes: Uint8Array, size: number): Uint8Array {
  const flat = Buffer.from(bytes).map((b) => (b === 0x0a || b === 0x0d ? 0x20 : b));
  const copies = Math.max(1, Math.ceil(size / Math.max(1, flat.length)));
  return Buffer.concat(Array.from({ length: copies }, () => flat));
}

/** One mutant of a seed by one operator; deterministic in `rand`. */
export async function mutate(bytes: Uint8Array, ext: string, op: Operator, rand: Rand): Promise<Uint8Array> {
  const at = int(rand, 0, Math.max(0, bytes.length - 1));
  switch (op) {
    case 'flip':
      return flip(bytes, rand);
    case 'truncate':
      return bytes.subarray(0, int(rand, 1, Math.max(1, bytes.length - 1)));
    case 'insert':
      return splice(
        bytes,
        at,
        0,
        Uint8Array.from({ length: int(rand, 1, 256) }, () => int(rand, 0, 255)),
      );
    case 'duplicate': {
      const len = int(rand, 16, 512);
      return splice(bytes, int(rand, 0, bytes.length), 0, bytes.subarray(at, at + len));
    }
    case 'zip-entry':
      return corruptZipEntry(bytes, rand);
    case 'deep-nesting':
      return zipFormats.has(ext) ? deepZip(bytes, 200_000) : deepText(ext, ext === 'md' || ext === 'markdown' ? 10_000 : 200_000);
    case 'bomb':
      return zipFormats.has(ext)
        ? craftZip([
            { name: '[Content_Types].xml', declared: 400 },
            { name: 'payload.xml', declared: 0xfffffff0 },
          ])
        : pngHeader(60_000, 60_000);
    case 'invalid-utf8':
      return splice(bytes, at, 0, Uint8Array.from([0xc3, 0x28, 0xff, 0xfe, 0xed, 0xa0, 0x80, 0xf8, 0x88]));
    case 'nuls':
      return splice(bytes, at, 0, new Uint8Array(int(rand, 1, 4096)));
    case 'long-line':
      return longLine(bytes, int(rand, 1, 3) * 1024 * 1024);
  }
}
