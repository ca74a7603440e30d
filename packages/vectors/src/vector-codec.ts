import { createError } from '@pinpoint/core';

/**
 * How the embedded store keeps a vector in its SQLite file: IEEE half floats (2 bytes a dimension)
 * since this release, 4-byte floats before it. A row says which by its length, so a file of either
 * release, or of both, reads without a migration.
 *
 * Half floats, because the stored vectors are unit length: each component's relative error is at most
 * 2⁻¹¹, a cosine moves by less than 10⁻³, and the store's exact scores (and the scan that measures
 * the graph's recall) are taken on the stored values themselves — the store rounds a vector before it
 * reaches the index too, so a score is the same before and after a reopen. A million 384-dimension
 * vectors take 768 MB instead of 1.5 GB, and a 4 KB page holds four rows instead of two.
 */

const f32 = new Float32Array(1);
const u32 = new Uint32Array(f32.buffer);

/** The float of every half, by its 16 bits. */
const HALF_TO_FLOAT = (() => {
  const table = new Float32Array(65536);
  for (let h = 0; h < 65536; h++) {
    const sign = h & 0x8000 ? -1 : 1;
    const exp = (h >> 10) & 0x1f;
    const mant = h & 0x3ff;
    if (exp === 0) table[h] = sign * mant * 2 ** -24;
    else if (exp === 31) table[h] = mant ? Number.NaN : sign * Number.POSITIVE_INFINITY;
    else table[h] = sign * (1 + mant / 1024) * 2 ** (exp - 15);
  }
  return table;
})();

/** The half nearest to x (ties to even), as its 16 bits; beyond the half range, ±infinity. */
export function toHalf(x: number): number {
  f32[0] = x;
  const bits = u32[0] as number;
  const sign = (bits >>> 16) & 0x8000;
  const exp = (bits >>> 23) & 0xff;
  const mant = bits & 0x7fffff;
  if (exp === 0xff) return sign | 0x7c00 | (mant ? 0x200 : 0);
  const e = exp - 127 + 15;
  if (e >= 31) return sign | 0x7c00;
  if (e <= 0) {
    // a subnormal half (or zero): the mantissa with its implicit bit, shifted into place and rounded
    if (e < -10) return sign;
    const m = mant | 0x800000;
    const shift = 14 - e;
    const half = m >>> shift;
    const rest = m & ((1 << shift) - 1);
    const mid = 1 << (shift - 1);
    return sign | (rest > mid || (rest === mid && half & 1) ? half + 1 : half);
  }
  const half = (e << 10) | (mant >>> 13);
  const rest = mant & 0x1fff;
  // a carry out of the mantissa raises the exponent, as it should (and reaches infinity at the top)
  return sign | (rest > 0x1000 || (rest === 0x1000 && half & 1) ? half + 1 : half);
}

/** The row's bytes for a vector: its halves, little-endian. */
export function encodeVector(v: Float32Array): Buffer {
  const out = Buffer.allocUnsafe(v.length * 2);
  for (let i = 0; i < v.length; i++) out.writeUInt16LE(toHalf(v[i] as number), i * 2);
  return out;
}

/**
 * Decodes a stored row into `out` at `offset` (the store's dimensions): halves, or the 4-byte floats
 * of a row written by an earlier release. Any other length is a damaged row.
 */
export function decodeVectorInto(row: Uint8Array, out: Float32Array, offset: number, dimensions: number): void {
  if (row.byteLength === dimensions * 2) {
    for (let i = 0; i < dimensions; i++)
      out[offset + i] = HALF_TO_FLOAT[(row[2 * i] as number) | ((row[2 * i + 1] as number) << 8)] as number;
    return;
  }
  if (row.byteLength === dimensions * 4) {
    const floats =
      row.byteOffset % 4 === 0
        ? new Float32Array(row.buffer, row.byteOffset, dimensions)
        : new Float32Array(row.buffer.slice(row.byteOffset, row.byteOffset + row.byteLength));
    out.set(floats, offset);
    return;
  }
  throw createError(
    'PP_INTERNAL',
    `A stored vector of ${row.byteLength} bytes; ${dimensions} dimensions take ${dimensions * 2} (or ${dimensions * 4} before).`,
  );
}

export function decodeVector(row: Uint8Array, dimensions: number): Float32Array {
  const out = new Float32Array(dimensions);
  decodeVectorInto(row, out, 0, dimensions);
  return out;
}

/** The vectors as the store keeps them: each component rounded to its nearest half, in place. */
export function roundToHalves(v: Float32Array): Float32Array {
  for (let i = 0; i < v.length; i++) v[i] = HALF_TO_FLOAT[toHalf(v[i] as number)] as number;
  return v;
}
