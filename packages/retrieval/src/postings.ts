/**
 * Postings lists as byte strings: for each chunk of the list in ascending order, the gap from the
 * previous chunk number and the term frequency, both as LEB128 varints (a list starts from 0).
 */
export class PostingsWriter {
  private buf = new Uint8Array(64);
  private at = 0;
  private last = 0;

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

  add(doc: number, tf: number): void {
    this.varint(doc - this.last);
    this.varint(tf);
    this.last = doc;
  }

  /** The encoded list; the writer starts a new one. */
  take(): Uint8Array {
    const out = this.buf.slice(0, this.at);
    this.at = 0;
    this.last = 0;
    return out;
  }
}

/** Reusable decode buffers: `docs[0..n)` and `tfs[0..n)` after `decodeInto`. */
export class PostingsBuffer {
  docs = new Int32Array(1024);
  tfs = new Int32Array(1024);
  n = 0;

  clear(): void {
    this.n = 0;
  }

  push(doc: number, tf: number): void {
    if (this.n === this.docs.length) {
      const docs = new Int32Array(this.n * 2);
      docs.set(this.docs);
      this.docs = docs;
      const tfs = new Int32Array(this.n * 2);
      tfs.set(this.tfs);
      this.tfs = tfs;
    }
    this.docs[this.n] = doc;
    this.tfs[this.n] = tf;
    this.n++;
  }

  /** Appends decoded postings. */
  append(docs: Int32Array, tfs: Int32Array): void {
    const need = this.n + docs.length;
    if (need > this.docs.length) {
      const size = Math.max(need, this.docs.length * 2);
      const d = new Int32Array(size);
      d.set(this.docs.subarray(0, this.n));
      this.docs = d;
      const t = new Int32Array(size);
      t.set(this.tfs.subarray(0, this.n));
      this.tfs = t;
    }
    this.docs.set(docs, this.n);
    this.tfs.set(tfs, this.n);
    this.n = need;
  }

  /** Appends the postings encoded in `bytes`. */
  decode(bytes: Uint8Array): void {
    let i = 0;
    let doc = 0;
    const end = bytes.length;
    while (i < end) {
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
      this.push(doc, tf);
    }
  }
}
