/**
 * The chunks of one collection not yet in a segment, as an inverted index in typed arrays: per term
 * a slot, per slot a linked list of postings in the order they were added (ascending chunk number).
 * One Map entry per distinct term and no per-term array: the tail of a busy collection holds
 * hundreds of thousands of terms, and an array each was a good part of ingestion's garbage.
 */
export class Tail {
  /** term → slot. */
  readonly slots = new Map<string, number>();
  private first = new Int32Array(1024);
  private last = new Int32Array(1024);
  private doc = new Int32Array(4096);
  private tf = new Int32Array(4096);
  private next = new Int32Array(4096);
  private slotOf = new Int32Array(4096);
  private n = 0;
  readonly docs: number[] = [];

  add(doc: number, terms: Iterable<[string, number]>): void {
    const names: string[] = [];
    const tfs: number[] = [];
    for (const [term, tf] of terms) {
      names.push(term);
      tfs.push(tf);
    }
    this.addRun(doc, names, tfs, 0, names.length);
  }

  /** Adds chunk `doc` with the terms `terms[from..to)` counted `tfs[from..to)` (a packed batch's run, unpacked into nothing). */
  addRun(doc: number, terms: readonly string[], tfs: ArrayLike<number>, from: number, to: number): void {
    for (let j = from; j < to; j++) {
      const term = terms[j] as string;
      const tf = tfs[j] as number;
      let slot = this.slots.get(term);
      const p = this.n++;
      if (p === this.doc.length) {
        this.doc = grow(this.doc);
        this.tf = grow(this.tf);
        this.next = grow(this.next);
        this.slotOf = grow(this.slotOf);
      }
      this.doc[p] = doc;
      this.tf[p] = tf;
      this.next[p] = -1;
      if (slot === undefined) {
        slot = this.slots.size;
        this.slots.set(term, slot);
        if (slot === this.first.length) {
          this.first = grow(this.first);
          this.last = grow(this.last);
        }
        this.first[slot] = p;
      } else this.next[this.last[slot] as number] = p;
      this.last[slot] = p;
      this.slotOf[p] = slot;
    }
    this.docs.push(doc);
  }

  /** Calls `f` for every posting of `term`, in ascending chunk order. */
  each(term: string, f: (doc: number, tf: number) => void): void {
    const slot = this.slots.get(term);
    if (slot === undefined) return;
    for (let p = this.first[slot] as number; p !== -1; p = this.next[p] as number) f(this.doc[p] as number, this.tf[p] as number);
  }

  /**
   * The terms in sorted order, each with its postings contiguous in ascending chunk order (term i's
   * are docs/tfs[start[i]..start[i + 1])): the layout a segment is written in. Built by one counting
   * pass and one scatter pass over the postings in the order they were added, instead of following
   * each term's linked list through the whole tail.
   */
  sorted(): { terms: string[]; start: Int32Array; docs: Int32Array; tfs: Int32Array } {
    const terms = [...this.slots.keys()].sort();
    const n = this.n;
    const count = new Int32Array(this.slots.size);
    for (let p = 0; p < n; p++) (count[this.slotOf[p] as number] as number)++;
    const at = new Int32Array(this.slots.size);
    const start = new Int32Array(terms.length + 1);
    let offset = 0;
    for (let i = 0; i < terms.length; i++) {
      const slot = this.slots.get(terms[i] as string) as number;
      start[i] = offset;
      at[slot] = offset;
      offset += count[slot] as number;
    }
    start[terms.length] = offset;
    const docs = new Int32Array(n);
    const tfs = new Int32Array(n);
    for (let p = 0; p < n; p++) {
      const q = (at[this.slotOf[p] as number] as number)++;
      docs[q] = this.doc[p] as number;
      tfs[q] = this.tf[p] as number;
    }
    return { terms, start, docs, tfs };
  }
}

function grow(a: Int32Array<ArrayBuffer>): Int32Array<ArrayBuffer> {
  const b = new Int32Array(a.length * 2);
  b.set(a);
  return b;
}
