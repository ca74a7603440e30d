import { createError } from '@pinpoint/core';
import { verifyZipEntries } from './zip-entries.js';
import type { ZipLimits } from './zip-guard.js';
import { assertZipWithinLimits } from './zip-guard.js';

const CFB_MAGIC = [0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1];

export type Container = 'zip' | 'cfb' | 'other';

/** Zip (OOXML) or OLE compound file (legacy Office, or encrypted OOXML) by magic bytes. */
function sniffContainer(bytes: Uint8Array): Container {
  if (bytes[0] === 0x50 && bytes[1] === 0x4b) return 'zip';
  if (CFB_MAGIC.every((b, i) => bytes[i] === b)) return 'cfb';
  return 'other';
}

function utf16le(text: string): Uint8Array {
  const out = new Uint8Array(text.length * 2);
  for (let i = 0; i < text.length; i++) out[i * 2] = text.charCodeAt(i);
  return out;
}

const ENCRYPTED_PACKAGE = utf16le('EncryptedPackage');
const ENCRYPTION_INFO = utf16le('EncryptionInfo');

function contains(hay: Uint8Array, needle: Uint8Array): boolean {
  const first = needle[0];
  outer: for (
    let i = hay.indexOf(first as number);
    i !== -1 && i + needle.length <= hay.length;
    i = hay.indexOf(first as number, i + 1)
  ) {
    for (let j = 1; j < needle.length; j++) if (hay[i + j] !== needle[j]) continue outer;
    return true;
  }
  return false;
}

/**
 * An encrypted OOXML file (Agile/Standard encryption) is an OLE compound file holding the streams
 * `EncryptionInfo` and `EncryptedPackage`; their names sit UTF-16LE in the directory sectors.
 */
export function isEncryptedOoxml(bytes: Uint8Array): boolean {
  return sniffContainer(bytes) === 'cfb' && contains(bytes, ENCRYPTED_PACKAGE) && contains(bytes, ENCRYPTION_INFO);
}

export interface ContainerOptions {
  /** Legacy (OLE) files pass instead of failing as "not a zip". */
  allowCfb?: boolean;
  limits?: Partial<ZipLimits>;
  /** What a message calls the file: "workbook", "Word document"… */
  what?: string;
  /** Deepest XML nesting accepted in a part (default 1,000). */
  maxXmlDepth?: number;
}

/**
 * The checks every zip-based Office format runs before a library unpacks it: encrypted →
 * PP_PARSE_ENCRYPTED_OFFICE, bomb → PP_ZIP_BOMB, not a zip, a damaged entry (CRC, size, method) or
 * markup nested too deep → PP_PARSE_CORRUPT.
 */
export function assertOfficeContainer(bytes: Uint8Array, options: ContainerOptions = {}): Container {
  const what = options.what ?? 'file';
  if (isEncryptedOoxml(bytes)) {
    throw createError(
      'PP_PARSE_ENCRYPTED_OFFICE',
      `The ${what} is password-protected; save an unprotected copy and upload that.`,
    );
  }
  const kind = sniffContainer(bytes);
  if (kind === 'zip') {
    const { records } = assertZipWithinLimits(bytes, options.limits);
    verifyZipEntries(bytes, records, { what, maxXmlDepth: options.maxXmlDepth ?? 1000 });
  } else if (!(kind === 'cfb' && options.allowCfb)) {
    throw createError(
      'PP_PARSE_CORRUPT',
      `The ${what} is neither an Office zip package nor a legacy Office file; it may be damaged.`,
    );
  }
  return kind;
}
