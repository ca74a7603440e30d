/**
 * The byte formats of a postings block, recorded per segment (lex_segments.format):
 *
 * - VARINT (segments written before the format was recorded): per posting the gap from the previous
 *   chunk number and the term frequency, both LEB128 varints; a list starts from chunk 0.
 * - PACKED: per block a header of three bytes — its postings less one, the bit width of its packed
 *   gaps and that of its packed term frequencies — then each gap less one, bit-packed (least
 *   significant bit first) and padded to a byte, then each tf less one likewise. A list starts
 *   from chunk −1, so every gap is at least 1 (consecutive chunks and all-1 tfs take width 0: no
 *   bytes). Widths are 0, 1, 2, 4, 8, 12, 16, 24 or 32 bits — the bits the block's largest value
 *   needs, rounded up — so that each width decodes in a loop of its own that reads every byte
 *   once and carries no bits from one value to the next. On the lists of real questions a posting
 *   takes 1.66 bytes against varints' 2.09, and decodes faster; packing at any width took 1.46
 *   bytes but decoded slower than varints in V8 (README: "Postings format").
 *
 * Both formats end every block on a byte, so the skip table's end offsets, parts cut at block ends
 * and decoding a block on its own from the previous block's last chunk hold for either.
 */
export type PostingsFormat = 0 | 1;
export const VARINT: PostingsFormat = 0;
export const PACKED: PostingsFormat = 1;

/** The chunk number a list's first gap counts from. */
export const listStart = (format: PostingsFormat) => (format === PACKED ? -1 : 0);

/**
 * Decodes the postings in `bytes[from..to)` (whole blocks), the first gap counting from chunk
 * `prev`, into `docs`/`tfs` at `at`; returns the new end.
 */
export function decodeRange(
  format: PostingsFormat,
  bytes: Uint8Array,
  from: number,
  to: number,
  prev: number,
  docs: Int32Array,
  tfs: Int32Array,
  at: number,
): number {
  return format === PACKED
    ? decodePacked(bytes, from, to, prev, docs, tfs, at)
    : decodeVarint(bytes, from, to, prev, docs, tfs, at);
}

function decodeVarint(
  bytes: Uint8Array,
  from: number,
  to: number,
  prev: number,
  docs: Int32Array,
  tfs: Int32Array,
  at: number,
): number {
  let i = from;
  let doc = prev;
  let n = at;
  while (i < to) {
    let b = bytes[i++] as number;
    let gap = b & 0x7f;
    let mul = 128;
    while (b >= 0x80) {
      b = bytes[i++] as number;
      gap += (b & 0x7f) * mul;
      mul *= 128;
    }
    b = bytes[i++] as number;
    let tf = b & 0x7f;
    let shift = 7;
    while (b >= 0x80) {
      b = bytes[i++] as number;
      tf |= (b & 0x7f) << shift;
      shift += 7;
    }
    doc += gap;
    docs[n] = doc;
    tfs[n] = tf;
    n++;
  }
  return n;
}

function decodePacked(
  bytes: Uint8Array,
  from: number,
  to: number,
  prev: number,
  docs: Int32Array,
  tfs: Int32Array,
  at: number,
): number {
  let i = from;
  let n = at;
  let doc = prev;
  while (i < to) {
    const count = (bytes[i] as number) + 1;
    const gw = bytes[i + 1] as number;
    const tw = bytes[i + 2] as number;
    const end = n + count;
    i = unpackGaps(bytes, i + 3, gw, docs, n, end, doc);
    doc = docs[end - 1] as number;
    i = unpack(bytes, i, tw, tfs, n, end);
    n = end;
  }
  return n;
}

/**
 * Unpacks `end - from` values of width `w` (one of WIDTHS) from byte `i`, each plus one, into
 * `out[from, end)`; returns the byte after them. A loop per width, none carrying bits from one value
 * to the next: on real lists this decodes in half the time of varints, where a loop for any width
 * (an accumulator, or a 32-bit window per value) took as long as varints or longer (README).
 */
function unpack(bytes: Uint8Array, i: number, w: number, out: Int32Array, from: number, end: number): number {
  switch (w) {
    case 0:
      out.fill(1, from, end);
      return i;
    case 1:
      unpackSmall(bytes, i, 1, out, from, end);
      break;
    case 2:
      unpackSmall(bytes, i, 2, out, from, end);
      break;
    case 4: {
      // two values a byte, read once
      let k = from;
      let b = i;
      for (; k + 1 < end; k += 2, b++) {
        const x = bytes[b] as number;
        out[k] = (x & 15) + 1;
        out[k + 1] = (x >> 4) + 1;
      }
      if (k < end) out[k] = ((bytes[b] as number) & 15) + 1;
      break;
    }
    case 8:
      for (let k = from, b = i; k < end; k++, b++) out[k] = (bytes[b] as number) + 1;
      break;
    case 12: {
      // two values in three bytes
      let k = from;
      let b = i;
      for (; k + 1 < end; k += 2, b += 3) {
        const x = bytes[b + 1] as number;
        out[k] = ((bytes[b] as number) | ((x & 15) << 8)) + 1;
        out[k + 1] = ((x >> 4) | ((bytes[b + 2] as number) << 4)) + 1;
      }
      if (k < end) out[k] = ((bytes[b] as number) | (((bytes[b + 1] as number) & 15) << 8)) + 1;
      break;
    }
    case 16:
      for (let k = from, b = i; k < end; k++, b += 2) out[k] = ((bytes[b] as number) | ((bytes[b + 1] as number) << 8)) + 1;
      break;
    case 24:
      for (let k = from, b = i; k < end; k++, b += 3)
        out[k] = ((bytes[b] as number) | ((bytes[b + 1] as number) << 8) | ((bytes[b + 2] as number) << 16)) + 1;
      break;
    default:
      // 32: values below 2^31 − 1, so the top byte's high bit is clear
      for (let k = from, b = i; k < end; k++, b += 4)
        out[k] =
          ((bytes[b] as number) |
            ((bytes[b + 1] as number) << 8) |
            ((bytes[b + 2] as number) << 16) |
            ((bytes[b + 3] as number) << 24)) +
          1;
  }
  return i + (((end - from) * w + 7) >> 3);
}

/** Values of 1 or 2 bits: each byte read once for the 8 or 4 values it holds. */
function unpackSmall(bytes: Uint8Array, i: number, w: 1 | 2, out: Int32Array, from: number, end: number): void {
  let k = from;
  let b = i;
  if (w === 2) {
    for (; k + 3 < end; k += 4, b++) {
      const x = bytes[b] as number;
      out[k] = (x & 3) + 1;
      out[k + 1] = ((x >> 2) & 3) + 1;
      out[k + 2] = ((x >> 4) & 3) + 1;
      out[k + 3] = (x >> 6) + 1;
    }
  } else {
    for (; k + 7 < end; k += 8, b++) {
      const x = bytes[b] as number;
      out[k] = (x & 1) + 1;
      out[k + 1] = ((x >> 1) & 1) + 1;
      out[k + 2] = ((x >> 2) & 1) + 1;
      out[k + 3] = ((x >> 3) & 1) + 1;
      out[k + 4] = ((x >> 4) & 1) + 1;
      out[k + 5] = ((x >> 5) & 1) + 1;
      out[k + 6] = ((x >> 6) & 1) + 1;
      out[k + 7] = (x >> 7) + 1;
    }
  }
  // the values of a short block's last byte
  const mask = (1 << w) - 1;
  for (let x = bytes[b] as number; k < end; k++, x >>= w) out[k] = (x & mask) + 1;
}

/** As unpack, each value plus one added to the chunk before (`doc` before the first). */
function unpackGaps(bytes: Uint8Array, i: number, w: number, out: Int32Array, from: number, end: number, prev: number): number {
  let doc = prev;
  switch (w) {
    case 0:
      for (let k = from; k < end; k++) out[k] = ++doc;
      return i;
    case 8:
      for (let k = from, b = i; k < end; k++, b++) out[k] = doc += (bytes[b] as number) + 1;
      break;
    case 12: {
      let k = from;
      let b = i;
      for (; k + 1 < end; k += 2, b += 3) {
        const x = bytes[b + 1] as number;
        out[k] = doc += ((bytes[b] as number) | ((x & 15) << 8)) + 1;
        out[k + 1] = doc += ((x >> 4) | ((bytes[b + 2] as number) << 4)) + 1;
      }
      if (k < end) out[k] = doc += ((bytes[b] as number) | (((bytes[b + 1] as number) & 15) << 8)) + 1;
      break;
    }
    case 16:
      for (let k = from, b = i; k < end; k++, b += 2)
        out[k] = doc += ((bytes[b] as number) | ((bytes[b + 1] as number) << 8)) + 1;
      break;
    default: {
      const next = unpack(bytes, i, w, out, from, end);
      for (let k = from; k < end; k++) out[k] = doc += out[k] as number;
      return next;
    }
  }
  return i + (((end - from) * w + 7) >> 3);
}

/** The widths values are packed at: the bits they need rounded up to one of these. */
const WIDTHS = [
  0, 1, 2, 4, 4, 8, 8, 8, 8, 12, 12, 12, 12, 16, 16, 16, 16, 24, 24, 24, 24, 24, 24, 24, 24, 32, 32, 32, 32, 32, 32, 32, 32,
];

/** Bits needed for `v` (0 for 0). */
const width = (v: number) => 32 - Math.clz32(v);

/** Most bytes a PACKED block of `count` postings takes: its header, and gaps and tfs at 32 bits. */
export const maxBlockBytes = (count: number) => 3 + 8 * count;

/** Gaps, then tfs, of the block being packed (a block holds at most 128 postings). */
const values = new Int32Array(128);

/**
 * Writes one PACKED block into `out` at `at` (room for maxBlockBytes(count)): `count` (1–128)
 * postings `docs`/`tfs[0, count)`, the first gap counting from chunk `prev`. Gaps and tfs must be at
 * least 1 and below 2^31. Returns the end of the bytes written.
 */
export function encodePackedBlock(
  out: Uint8Array,
  at: number,
  docs: Int32Array,
  tfs: Int32Array,
  count: number,
  prev: number,
): number {
  let maxGap = 0;
  let maxTf = 0;
  let last = prev;
  for (let k = 0; k < count; k++) {
    const gap = (docs[k] as number) - last - 1;
    last = docs[k] as number;
    values[k] = gap;
    if (gap > maxGap) maxGap = gap;
    const tf = (tfs[k] as number) - 1;
    if (tf > maxTf) maxTf = tf;
  }
  const gw = WIDTHS[width(maxGap)] as number;
  const tw = WIDTHS[width(maxTf)] as number;
  out[at] = count - 1;
  out[at + 1] = gw;
  out[at + 2] = tw;
  const next = packValues(out, at + 3, count, gw);
  for (let k = 0; k < count; k++) values[k] = (tfs[k] as number) - 1;
  return packValues(out, next, count, tw);
}

/** `values[0, count)` at `w` bits (one of WIDTHS) into `out` at `at`, least significant bit first, padded to a byte. */
function packValues(out: Uint8Array, at: number, count: number, w: number): number {
  let o = at;
  if (w === 32) {
    // below 2^31, little-endian
    for (let k = 0; k < count; k++) {
      const v = values[k] as number;
      out[o++] = v & 0xff;
      out[o++] = (v >>> 8) & 0xff;
      out[o++] = (v >>> 16) & 0xff;
      out[o++] = v >>> 24;
    }
    return o;
  }
  let acc = 0;
  let bits = 0;
  for (let k = 0; k < count; k++) {
    acc |= (values[k] as number) << bits;
    bits += w;
    while (bits >= 8) {
      out[o++] = acc & 0xff;
      acc >>>= 8;
      bits -= 8;
    }
  }
  if (bits > 0) out[o++] = acc & 0xff;
  return o;
}

/** Decodes a whole list of either format (blocks of both formats delimit themselves). */
export function decodeList(format: PostingsFormat, bytes: Uint8Array, docs: Int32Array, tfs: Int32Array, at: number): number {
  return decodeRange(format, bytes, 0, bytes.length, listStart(format), docs, tfs, at);
}

/** At most how many postings a list's `bytes` hold (to size the decode buffers). */
export function maxPostings(format: PostingsFormat, bytes: Uint8Array): number {
  // a varint posting takes at least two bytes; packed blocks are counted from their headers
  if (format === VARINT) return bytes.length >> 1;
  let n = 0;
  for (let i = 0; i < bytes.length; ) {
    const count = (bytes[i] as number) + 1;
    i += 3 + ((count * (bytes[i + 1] as number) + 7) >> 3) + ((count * (bytes[i + 2] as number) + 7) >> 3);
    n += count;
  }
  return n;
}
