/**
 * Postings lists as byte strings: for each chunk of the list in ascending order, the gap from the
 * previous chunk number and the term frequency, both as LEB128 varints (a list starts from 0).
 *
 * A list is cut into blocks of BLOCK postings, and a skip table holds, per block, four int32s: the
 * block's last chunk number, the byte offset where the block ends, its largest term frequency and
 * its shortest chunk length. A block decodes on its own (its first gap counts from the previous
 * block's last chunk), so a query can bound a block's BM25 contribution and skip it without
 * decoding it. The data bytes are the same as a list without blocks.
 */
const BLOCK = 128;
const SKIP_FIELDS = 4;

export interface EncodedList {
  /** Postings in the list. */
  n: number;
  /** The skip table, little-endian int32s. */
  skip: Uint8Array;
  data: Uint8Array;
}

export class PostingsWriter {
  private buf = new Uint8Array(64);
  private at = 0;
  private last = 0;
  private n = 0;
  private skip: number[] = [];
  private inBlock = 0;
  private maxTf = 0;
  private minLen = Number.MAX_SAFE_INTEGER;

  private byte(b: number): void {
    if (this.at === this.buf.length) {
      const next = new Uint8Array(this.buf.length * 2);
      next.set(this.buf);
      this.buf = next;
    }
    this.buf[this.at++] = b;
  }

  private varint(n: number): void {
    let v = n;
    while (v >= 0x80) {
      this.byte((v & 0x7f) | 0x80);
      v = Math.floor(v / 128);
    }
    this.byte(v);
  }

  /** Adds a posting; `len` is the chunk's length (its term count), for the block's bound. */
  add(doc: number, tf: number, len: number): void {
    this.varint(doc - this.last);
    this.varint(tf);
    this.last = doc;
    this.n++;
    if (tf > this.maxTf) this.maxTf = tf;
    if (len < this.minLen) this.minLen = len;
    if (++this.inBlock === BLOCK) this.endBlock();
  }

  private endBlock(): void {
    this.skip.push(this.last, this.at, this.maxTf, this.minLen);
    this.inBlock = 0;
    this.maxTf = 0;
    this.minLen = Number.MAX_SAFE_INTEGER;
  }

  /** The encoded list; the writer starts a new one. */
  take(): EncodedList {
    if (this.inBlock > 0) this.endBlock();
    const skip = new Uint8Array(Int32Array.from(this.skip).buffer);
    const out = { n: this.n, skip, data: this.buf.slice(0, this.at) };
    this.at = 0;
    this.last = 0;
    this.n = 0;
    this.skip = [];
    return out;
  }
}

/** The skip table stored as bytes, as int32s. */
export function skipTable(bytes: Uint8Array): Int32Array {
  if (bytes.byteOffset % 4 === 0) return new Int32Array(bytes.buffer, bytes.byteOffset, bytes.byteLength >> 2);
  return new Int32Array(new Uint8Array(bytes).buffer);
}

/**
 * Decodes the postings in `bytes[from..to)` starting from chunk number `doc` into `docs`/`tfs` at
 * `at`; returns the new end.
 */
function decodeRange(
  bytes: Uint8Array,
  from: number,
  to: number,
  start: number,
  docs: Int32Array,
  tfs: Int32Array,
  at: number,
): number {
  let i = from;
  let doc = start;
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

/** Reusable decode buffers: `docs[0..n)` and `tfs[0..n)` after `decode`. */
export class PostingsBuffer {
  docs = new Int32Array(1024);
  tfs = new Int32Array(1024);
  n = 0;

  clear(): void {
    this.n = 0;
  }

  private reserve(size: number): void {
    if (size <= this.docs.length) return;
    const cap = Math.max(size, this.docs.length * 2);
    const docs = new Int32Array(cap);
    docs.set(this.docs.subarray(0, this.n));
    this.docs = docs;
    const tfs = new Int32Array(cap);
    tfs.set(this.tfs.subarray(0, this.n));
    this.tfs = tfs;
  }

  push(doc: number, tf: number): void {
    this.reserve(this.n + 1);
    this.docs[this.n] = doc;
    this.tfs[this.n] = tf;
    this.n++;
  }

  /** Appends the postings encoded in `bytes` (blocked or not: the data bytes are the same). */
  decode(bytes: Uint8Array): void {
    // every posting takes at least two bytes
    this.reserve(this.n + (bytes.length >> 1));
    this.n = decodeRange(bytes, 0, bytes.length, 0, this.docs, this.tfs, this.n);
  }
}

/** Per block of a list, an upper bound of its BM25 contribution: `bound(maxTf, minLen)`. */
export function blockBounds(skip: Int32Array, bound: (tf: number, len: number) => number): Float64Array {
  const nb = skip.length / SKIP_FIELDS;
  const out = new Float64Array(nb);
  for (let i = 0; i < nb; i++) out[i] = bound(skip[i * SKIP_FIELDS + 2] as number, skip[i * SKIP_FIELDS + 3] as number);
  return out;
}

/**
 * A cursor over one blocked list, for probing chunks in ascending order. `doc` is the current
 * chunk (Infinity past the end) once `exact`; a new cursor has decoded nothing. `blockFor` finds
 * the block that would hold a chunk from the skip table alone, and `seek` decodes only that block.
 */
export class ListCursor {
  private readonly docs = new Int32Array(BLOCK);
  private readonly tfs = new Int32Array(BLOCK);
  /** Blocks in the list; blocks decoded so far. */
  readonly blocks: number;
  decodedBlocks = 0;
  /** Block the cursor is in; the decoded block (-1: none). */
  block = 0;
  private decoded = -1;
  /** Where the last `blockFor` ended. */
  private probe = 0;
  private pos = 0;
  private size = 0;
  doc = 0;
  tf = 0;
  exact = false;
  /** Postings decoded so far (work counter). */
  decodedPostings = 0;

  constructor(
    private readonly skip: Int32Array,
    private readonly data: Uint8Array,
    readonly bounds: Float64Array,
    readonly maxBound: number,
  ) {
    this.blocks = skip.length / SKIP_FIELDS;
    if (this.blocks === 0) this.end();
  }

  lastDoc(block: number): number {
    return this.skip[block * SKIP_FIELDS] as number;
  }

  private end(): void {
    this.block = this.blocks;
    this.doc = Number.POSITIVE_INFINITY;
    this.exact = true;
  }

  private load(block: number): void {
    this.block = block;
    const from = block === 0 ? 0 : (this.skip[(block - 1) * SKIP_FIELDS + 1] as number);
    const to = this.skip[block * SKIP_FIELDS + 1] as number;
    const start = block === 0 ? 0 : this.lastDoc(block - 1);
    this.size = decodeRange(this.data, from, to, start, this.docs, this.tfs, 0);
    this.decodedPostings += this.size;
    this.decodedBlocks++;
    this.decoded = block;
    this.pos = 0;
    this.doc = this.docs[0] as number;
    this.tf = this.tfs[0] as number;
    this.exact = true;
  }

  /**
   * The block that would hold `target` (the first whose last chunk is ≥ it, from the cursor's block
   * on), or -1 past the end; the cursor does not move.
   */
  blockFor(target: number): number {
    // targets only grow, so the search goes on from where the last one ended
    let b = Math.max(this.probe, this.block);
    while (b < this.blocks && this.lastDoc(b) < target) b++;
    this.probe = b;
    return b < this.blocks ? b : -1;
  }

  /** The next posting (the cursor must be exact). */
  next(): void {
    if (++this.pos < this.size) {
      this.doc = this.docs[this.pos] as number;
      this.tf = this.tfs[this.pos] as number;
    } else if (this.block + 1 < this.blocks) this.load(this.block + 1);
    else this.end();
  }

  /** Moves to the first posting with chunk ≥ `target` (exact), decoding only the block that holds it. */
  seek(target: number): void {
    if (this.exact && this.doc >= target) return;
    const b = this.blockFor(target);
    if (b === -1) {
      this.end();
      return;
    }
    if (b !== this.decoded) this.load(b);
    else if (!this.exact) {
      // back in the decoded block: rescan it from its start
      this.pos = -1;
      this.exact = true;
      this.next();
    }
    while (this.doc < target) this.next();
  }
}
