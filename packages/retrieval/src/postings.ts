import {
  decodeList,
  decodeRange,
  encodePackedBlock,
  listStart,
  maxBlockBytes,
  maxPostings,
  PACKED,
  type PostingsFormat,
} from './block-codec.js';

/**
 * Postings lists as byte strings: for each chunk of the list in ascending order, its gap from the
 * previous chunk and its term frequency, in one of the block formats of block-codec.ts (recorded
 * per segment).
 *
 * A list is cut into blocks of BLOCK postings, and a skip table holds, per block, four int32s: the
 * block's last chunk number, the byte offset where the block ends, its largest term frequency and
 * its shortest chunk length. A block decodes on its own (its first gap counts from the previous
 * block's last chunk), so a query can bound a block's BM25 contribution and skip it without
 * decoding it.
 */
export const BLOCK = 128;
const SKIP_FIELDS = 4;

/** Blocks per part of a long list stored in parts (4,096 postings, about 10 KB). */
export const PART_BLOCKS = 32;

/** Where part `part` of a list starts in its bytes (the end of the block before it). */
export function partStart(skip: Int32Array, part: number): number {
  return part === 0 ? 0 : (skip[(part * PART_BLOCKS - 1) * SKIP_FIELDS + 1] as number);
}

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
  private last: number;
  private n = 0;
  private skip: number[] = [];
  private inBlock = 0;
  private maxTf = 0;
  private minLen = Number.MAX_SAFE_INTEGER;
  /** The block being written, when PACKED (a block is packed whole once its widths are known). */
  private readonly docs = new Int32Array(BLOCK);
  private readonly tfs = new Int32Array(BLOCK);
  private blockStart: number;

  constructor(readonly format: PostingsFormat = PACKED) {
    this.last = listStart(format);
    this.blockStart = this.last;
  }

  /** Room for `more` bytes after `at`. */
  private reserve(more: number): void {
    if (this.at + more <= this.buf.length) return;
    const next = new Uint8Array(Math.max(this.buf.length * 2, this.at + more));
    next.set(this.buf.subarray(0, this.at));
    this.buf = next;
  }

  private byte(b: number): void {
    this.reserve(1);
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

  /** Adds a posting (chunks ascending, tf ≥ 1); `len` is the chunk's length (its term count), for the block's bound. */
  add(doc: number, tf: number, len: number): void {
    if (this.format === PACKED) {
      this.docs[this.inBlock] = doc;
      this.tfs[this.inBlock] = tf;
    } else {
      this.varint(doc - this.last);
      this.varint(tf);
    }
    this.last = doc;
    this.n++;
    if (tf > this.maxTf) this.maxTf = tf;
    if (len < this.minLen) this.minLen = len;
    if (++this.inBlock === BLOCK) this.endBlock();
  }

  private endBlock(): void {
    if (this.format === PACKED) {
      this.reserve(maxBlockBytes(this.inBlock));
      this.at = encodePackedBlock(this.buf, this.at, this.docs, this.tfs, this.inBlock, this.blockStart);
    }
    this.blockStart = this.last;
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
    this.last = listStart(this.format);
    this.blockStart = this.last;
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

const oneDocs = new Int32Array(BLOCK);
const oneTfs = new Int32Array(BLOCK);

/**
 * The skip table of a PACKED list of one block stored without it (a SHORT_LISTS segment's short
 * table), read off the block — its last chunk, its end, its largest tf — and `minLen`, its chunks'
 * shortest length as stored; with the list's postings. The same bytes as the writer's skip table.
 */
export function oneBlockSkip(data: Uint8Array, minLen: number): { n: number; bytes: Uint8Array } {
  const n = decodeRange(PACKED, data, 0, data.length, listStart(PACKED), oneDocs, oneTfs, 0);
  let maxTf = 0;
  for (let i = 0; i < n; i++) if ((oneTfs[i] as number) > maxTf) maxTf = oneTfs[i] as number;
  const skip = Int32Array.of(oneDocs[n - 1] as number, data.length, maxTf, minLen);
  return { n, bytes: new Uint8Array(skip.buffer) };
}

/** A blocked list: its skip table, where its blocks' bytes come from, and their format. */
export interface BlockedList {
  skip: Int32Array;
  source: BlockSource;
  format: PostingsFormat;
}

/** Decodes blocks `[first, last]` of a list (within one part) into `docs`/`tfs` at `at`; returns the new end. */
export function decodeBlocks(
  list: BlockedList,
  first: number,
  last: number,
  docs: Int32Array,
  tfs: Int32Array,
  at: number,
): number {
  const { skip, source, format } = list;
  const { bytes, start } = source.fetch(first);
  const from = first === 0 ? 0 : (skip[(first - 1) * SKIP_FIELDS + 1] as number);
  const to = skip[last * SKIP_FIELDS + 1] as number;
  const prev = first === 0 ? listStart(format) : (skip[(first - 1) * SKIP_FIELDS] as number);
  return decodeRange(format, bytes, from - start, to - start, prev, docs, tfs, at);
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

  /** Appends every posting of a blocked list, block by block from its source. */
  decodeList(list: BlockedList): void {
    const blocks = list.skip.length / SKIP_FIELDS;
    this.reserve(this.n + blocks * BLOCK);
    for (let b = 0; b < blocks; b++) this.n = decodeBlocks(list, b, b, this.docs, this.tfs, this.n);
  }

  /** Appends the postings of a whole list's bytes in `format` (no skip table needed). */
  decode(bytes: Uint8Array, format: PostingsFormat): void {
    this.reserve(this.n + maxPostings(format, bytes));
    this.n = decodeList(format, bytes, this.docs, this.tfs, this.n);
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
 * Where the bytes of a list's blocks come from: the whole list, or (for a long list) the part
 * holding the block, read on demand. Block b's bytes are `bytes[from - start, to - start)`, `from`
 * and `to` being its offsets in the list (from the skip table).
 */
export interface BlockSource {
  fetch(block: number): { bytes: Uint8Array; start: number };
}

/** A list whose bytes are all at hand. */
export function wholeList(data: Uint8Array): BlockSource {
  const at = { bytes: data, start: 0 };
  return { fetch: () => at };
}

/** A list stored in parts: the part holding a block read when first asked for (the last one kept). */
export function partedList(skip: Int32Array, readPart: (part: number) => Uint8Array): BlockSource {
  let at: { part: number; bytes: Uint8Array; start: number } = { part: -1, bytes: new Uint8Array(0), start: 0 };
  return {
    fetch: (block) => {
      const part = Math.floor(block / PART_BLOCKS);
      if (part !== at.part) at = { part, bytes: readPart(part), start: partStart(skip, part) };
      return at;
    },
  };
}

/**
 * A cursor over one blocked list, for visiting chunks in ascending order. `doc` is the current
 * chunk (Infinity past the end) when `exact`; otherwise it is only a lower bound of the next
 * posting, in block `block`, which is then not decoded yet. `blockFor` finds the block that would
 * hold a chunk from the skip table alone; `shallow` moves there without decoding; `seek` and `next`
 * decode a block (fetching its bytes) only when a posting of it is asked for.
 */
export class ListCursor {
  /** The decoded block's postings (`decodeBlock` gives how many). */
  readonly docs = new Int32Array(BLOCK);
  readonly tfs = new Int32Array(BLOCK);
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

  private readonly skip: Int32Array;

  constructor(
    private readonly list: BlockedList,
    readonly bounds: Float64Array,
  ) {
    this.skip = list.skip;
    this.blocks = this.skip.length / SKIP_FIELDS;
    if (this.blocks === 0) this.end();
  }

  lastDoc(block: number): number {
    return this.skip[block * SKIP_FIELDS] as number;
  }

  /** The smallest chunk number block `b` may hold. */
  firstDoc(block: number): number {
    return block === 0 ? 0 : this.lastDoc(block - 1) + 1;
  }

  private end(): void {
    this.block = this.blocks;
    this.doc = Number.POSITIVE_INFINITY;
    this.exact = true;
  }

  private load(block: number): void {
    this.block = block;
    this.size = decodeBlocks(this.list, block, block, this.docs, this.tfs, 0);
    this.decodedPostings += this.size;
    this.decodedBlocks++;
    this.decoded = block;
    this.pos = 0;
    this.doc = this.docs[0] as number;
    this.tf = this.tfs[0] as number;
    this.exact = true;
  }

  /** Moves to block `b` (at or after the cursor's), decoded: its postings are `docs`/`tfs[0..n)`; returns n. */
  decodeBlock(b: number): number {
    // the decoded block is never behind the cursor's, and the cursor never goes back
    if (b !== this.decoded) this.load(b);
    return this.size;
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

  /** The next posting (the cursor must be exact); past its block's end, only to the next block's start. */
  next(): void {
    if (++this.pos < this.size) {
      this.doc = this.docs[this.pos] as number;
      this.tf = this.tfs[this.pos] as number;
    } else if (this.block + 1 < this.blocks) {
      this.block++;
      this.doc = this.firstDoc(this.block);
      this.exact = false;
    } else this.end();
  }

  /**
   * Moves to `target` or past it without decoding a block: into the block that would hold it, its
   * position a lower bound (exact when that block is the decoded one).
   */
  shallow(target: number): void {
    if (this.doc >= target) return;
    const b = this.blockFor(target);
    if (b === -1) {
      this.end();
      return;
    }
    if (b === this.decoded) {
      // the cursor is in the decoded block (a cursor only moves forward): on through its postings
      while (this.exact && this.doc < target) this.next();
      return;
    }
    this.block = b;
    this.doc = Math.max(target, this.firstDoc(b));
    this.exact = false;
  }

  /** Moves to the first posting with chunk ≥ `target` (exact), decoding only the block that holds it. */
  seek(target: number): void {
    for (;;) {
      this.shallow(target);
      if (this.exact) return;
      this.load(this.block);
      while (this.exact && this.doc < target) this.next();
      if (this.exact) return;
    }
  }
}
