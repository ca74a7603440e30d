import { createError } from '@pinpoint/core';

/**
 * Checks a zip container (docx/xlsx/pptx) from its central directory alone, before anything
 * unpacks it: the declared total uncompressed size and the entry count must stay within limits.
 * Declared sizes can lie; the isolated parse process's memory limit is the second line of defence.
 */
export interface ZipLimits {
  /** Sum of declared uncompressed sizes, bytes. */
  maxTotalUncompressed: number;
  maxEntries: number;
  /** Declared uncompressed size / archive size. */
  maxRatio: number;
}

const defaultZipLimits: ZipLimits = { maxTotalUncompressed: 1024 * 1024 * 1024, maxEntries: 20_000, maxRatio: 500 };

/** One central-directory record: what the entry claims, checked against its data by verifyZipEntries. */
export interface ZipEntryRecord {
  name: string;
  flags: number;
  method: number;
  crc32: number;
  compressedSize: number;
  uncompressedSize: number;
  /** Offset of the entry's local header. */
  localOffset: number;
}

export interface ZipSummary {
  entries: number;
  totalUncompressed: number;
  totalCompressed: number;
  names: string[];
  records: ZipEntryRecord[];
}

const EOCD_SIG = 0x06054b50;
const ZIP64_LOCATOR_SIG = 0x07064b50;
const ZIP64_EOCD_SIG = 0x06064b50;
const CDH_SIG = 0x02014b50;
const U32_MAX = 0xffffffff;

function corrupt(reason: string): Error {
  return createError('PP_PARSE_CORRUPT', `The file is not a readable zip container (${reason}); it may be truncated or damaged.`);
}

function findEocd(view: DataView): number {
  const min = Math.max(0, view.byteLength - 22 - 0xffff);
  for (let i = view.byteLength - 22; i >= min; i--) {
    if (view.getUint32(i, true) === EOCD_SIG) return i;
  }
  throw corrupt('no end-of-central-directory record');
}

interface DirectoryLocation {
  entries: number;
  offset: number;
  size: number;
}

function locateDirectory(view: DataView, eocd: number): DirectoryLocation {
  const loc = {
    entries: view.getUint16(eocd + 10, true),
    size: view.getUint32(eocd + 12, true),
    offset: view.getUint32(eocd + 16, true),
  };
  const locator = eocd - 20;
  if (locator >= 0 && view.getUint32(locator, true) === ZIP64_LOCATOR_SIG) {
    const at = Number(view.getBigUint64(locator + 8, true));
    if (at + 56 > view.byteLength || view.getUint32(at, true) !== ZIP64_EOCD_SIG) throw corrupt('bad zip64 record');
    loc.entries = Number(view.getBigUint64(at + 32, true));
    loc.size = Number(view.getBigUint64(at + 40, true));
    loc.offset = Number(view.getBigUint64(at + 48, true));
  }
  if (loc.offset + loc.size > view.byteLength) throw corrupt('central directory past the end of the file');
  return loc;
}

/**
 * Replaces the saturated 32-bit fields (uncompressed size, compressed size, local offset, in that
 * order) with the zip64 extra field's 64-bit values.
 */
function zip64Fields(view: DataView, extraStart: number, extraLen: number, fields: number[]): number[] {
  if (!fields.includes(U32_MAX)) return fields;
  let p = extraStart;
  while (p + 4 <= extraStart + extraLen && p + 4 <= view.byteLength) {
    const id = view.getUint16(p, true);
    const len = view.getUint16(p + 2, true);
    if (id === 0x0001) {
      let q = p + 4;
      return fields.map((f) => {
        if (f !== U32_MAX || q + 8 > p + 4 + len || q + 8 > view.byteLength) return f;
        const value = Number(view.getBigUint64(q, true));
        q += 8;
        return value;
      });
    }
    p += 4 + len;
  }
  return fields;
}

const nameDecoder = new TextDecoder();

function readRecord(view: DataView, bytes: Uint8Array, p: number): { record: ZipEntryRecord; next: number } {
  const nameLen = view.getUint16(p + 28, true);
  const extraLen = view.getUint16(p + 30, true);
  const commentLen = view.getUint16(p + 32, true);
  const [uncompressedSize, compressedSize, localOffset] = zip64Fields(view, p + 46 + nameLen, extraLen, [
    view.getUint32(p + 24, true),
    view.getUint32(p + 20, true),
    view.getUint32(p + 42, true),
  ]) as [number, number, number];
  const record: ZipEntryRecord = {
    name: nameDecoder.decode(bytes.subarray(p + 46, p + 46 + nameLen)),
    flags: view.getUint16(p + 8, true),
    method: view.getUint16(p + 10, true),
    crc32: view.getUint32(p + 16, true),
    compressedSize,
    uncompressedSize,
    localOffset,
  };
  return { record, next: p + 46 + nameLen + extraLen + commentLen };
}

/** Lists the central directory: entry count, declared sizes and names. Throws PP_PARSE_CORRUPT. */
export function readZipDirectory(bytes: Uint8Array, maxEntries = Number.POSITIVE_INFINITY): ZipSummary {
  if (bytes.byteLength < 22) throw corrupt('too short');
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const loc = locateDirectory(view, findEocd(view));
  const summary: ZipSummary = { entries: 0, totalUncompressed: 0, totalCompressed: 0, names: [], records: [] };
  let p = loc.offset;
  while (summary.entries < loc.entries && summary.entries <= maxEntries) {
    if (p + 46 > view.byteLength || view.getUint32(p, true) !== CDH_SIG) throw corrupt('broken central directory entry');
    const { record, next } = readRecord(view, bytes, p);
    summary.totalCompressed += record.compressedSize;
    summary.totalUncompressed += record.uncompressedSize;
    summary.names.push(record.name);
    summary.records.push(record);
    summary.entries++;
    p = next;
  }
  if (loc.entries > summary.entries) summary.entries = loc.entries;
  return summary;
}

/** Throws PP_ZIP_BOMB when the archive would expand beyond the limits, PP_PARSE_CORRUPT when it is unreadable. */
export function assertZipWithinLimits(bytes: Uint8Array, limits: Partial<ZipLimits> = {}): ZipSummary {
  const lim = { ...defaultZipLimits, ...limits };
  const summary = readZipDirectory(bytes, lim.maxEntries);
  if (summary.entries > lim.maxEntries) {
    throw createError(
      'PP_ZIP_BOMB',
      `The archive has ${summary.entries} entries (limit ${lim.maxEntries}); it was not unpacked.`,
    );
  }
  const ratio = summary.totalUncompressed / Math.max(bytes.byteLength, 1);
  if (
    summary.totalUncompressed > lim.maxTotalUncompressed ||
    (ratio > lim.maxRatio && summary.totalUncompressed > 64 * 1024 * 1024)
  ) {
    const mib = (summary.totalUncompressed / 1024 / 1024).toFixed(0);
    throw createError(
      'PP_ZIP_BOMB',
      `The archive declares ${mib} MiB uncompressed from ${bytes.byteLength} bytes; it was not unpacked.`,
    );
  }
  return summary;
}
