import { crc32, inflateRawSync } from 'node:zlib';
import { createError, PinpointError } from '@pinpoint/core';
import { xmlProblem } from './xml-depth.js';
import type { ZipEntryRecord } from './zip-guard.js';

/**
 * Checks every entry of a zip package against its central-directory record before a library unpacks
 * it: local header in place, known compression method, the data inflating (native zlib, output capped
 * at the declared size) to exactly the declared size with the declared CRC-32, and XML parts nested
 * no deeper than a parser can walk. A damaged stream fails here in milliseconds instead of sending a
 * library's own inflater or XML walker into a loop or a stack overflow.
 */
export interface EntryCheckOptions {
  /** What the user calls the file in a message: "workbook", "Word document", "presentation". */
  what: string;
  /** Deepest element nesting accepted in an XML part. */
  maxXmlDepth: number;
}

const LOCAL_SIG = 0x04034b50;
const STORED = 0;
const DEFLATED = 8;

/** An entry name fit for a message; a name that is itself damaged or long is left out. */
function cleanName(name: string): string | undefined {
  return /^[\w.\-/[\] ]{1,80}$/.test(name) ? name : undefined;
}

function partName(name: string): string {
  const clean = cleanName(name);
  return clean ? `a compressed part (${clean})` : 'a compressed part';
}

function damaged(what: string, name: string, problem: string, detail?: string) {
  const message = `The ${what} is damaged: ${partName(name)} ${problem}.`;
  return new PinpointError('PP_PARSE_CORRUPT', message, detail === undefined ? undefined : { detail });
}

function libraryText(err: unknown): string {
  return err instanceof Error ? `${err.name}: ${err.message}` : String(err);
}

/** An entry's bytes as stored (compressed), checked against the directory. */
export function entryData(bytes: Uint8Array, entry: ZipEntryRecord, what: string): Uint8Array {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const at = entry.localOffset;
  if (at + 30 > bytes.byteLength || view.getUint32(at, true) !== LOCAL_SIG) {
    throw damaged(what, entry.name, 'is not where the archive directory says it is');
  }
  const start = at + 30 + view.getUint16(at + 26, true) + view.getUint16(at + 28, true);
  if (start + entry.compressedSize > bytes.byteLength) throw damaged(what, entry.name, 'runs past the end of the file');
  return bytes.subarray(start, start + entry.compressedSize);
}

/** An entry's bytes decompressed, bounded by its declared size. */
export function inflateEntry(data: Uint8Array, entry: ZipEntryRecord, what: string): Uint8Array {
  if (entry.method === STORED) {
    if (data.byteLength !== entry.uncompressedSize) throw damaged(what, entry.name, 'does not have its declared size');
    return data;
  }
  if (entry.method !== DEFLATED) throw damaged(what, entry.name, 'uses an unknown compression method');
  let out: Buffer;
  try {
    out = inflateRawSync(data, { maxOutputLength: Math.max(1, entry.uncompressedSize) });
  } catch (err) {
    const tooLong = err instanceof Error && 'code' in err && err.code === 'ERR_BUFFER_TOO_LARGE';
    throw damaged(what, entry.name, tooLong ? 'is larger than its declared size' : 'cannot be decompressed', libraryText(err));
  }
  if (out.byteLength !== entry.uncompressedSize) throw damaged(what, entry.name, 'does not have its declared size');
  return out;
}

/** Throws PP_PARSE_CORRUPT (or PP_PARSE_ENCRYPTED_OFFICE) at the first entry that does not hold up. */
export function verifyZipEntries(bytes: Uint8Array, entries: readonly ZipEntryRecord[], options: EntryCheckOptions): void {
  const { what, maxXmlDepth } = options;
  for (const entry of entries) {
    if (entry.flags & 1) {
      throw createError(
        'PP_PARSE_ENCRYPTED_OFFICE',
        `The ${what} is password-protected; save an unprotected copy and upload that.`,
      );
    }
    const data = inflateEntry(entryData(bytes, entry, what), entry, what);
    if (crc32(data) !== entry.crc32) throw damaged(what, entry.name, 'does not match its checksum');
    const problem = /\.(xml|rels|vml)$/i.test(entry.name) ? xmlProblem(data, maxXmlDepth) : undefined;
    if (problem) {
      const part = cleanName(entry.name) ?? 'one of its parts';
      const why =
        problem === 'too-deep'
          ? `nests its markup more than ${maxXmlDepth} levels deep`
          : 'has markup inserted in the middle (a second XML declaration)';
      throw createError('PP_PARSE_CORRUPT', `The ${what} cannot be read: ${part} ${why}.`);
    }
  }
}
