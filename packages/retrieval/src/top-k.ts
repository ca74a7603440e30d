/** The k best chunks by score, best first (ties: lower chunk number first), in a bounded min-heap. */
export class TopK {
  private readonly docs: number[] = [];
  private readonly scores: number[] = [];

  constructor(readonly k: number) {}

  /** a ranks below b */
  private worse(i: number, j: number): boolean {
    const a = this.scores[i] as number;
    const b = this.scores[j] as number;
    return a < b || (a === b && (this.docs[i] as number) > (this.docs[j] as number));
  }

  private swap(i: number, j: number): void {
    [this.docs[i], this.docs[j]] = [this.docs[j] as number, this.docs[i] as number];
    [this.scores[i], this.scores[j]] = [this.scores[j] as number, this.scores[i] as number];
  }

  /** The score a chunk must reach to enter (a tie enters only with a lower chunk number); -Infinity until k are held. */
  threshold(): number {
    return this.docs.length < this.k ? Number.NEGATIVE_INFINITY : (this.scores[0] as number);
  }

  /** Whether the chunk entered. */
  offer(doc: number, score: number): boolean {
    if (this.docs.length < this.k) {
      this.docs.push(doc);
      this.scores.push(score);
      let i = this.docs.length - 1;
      while (i > 0) {
        const p = (i - 1) >> 1;
        if (!this.worse(i, p)) break;
        this.swap(i, p);
        i = p;
      }
      return true;
    }
    const top = this.scores[0] as number;
    if (score < top || (score === top && doc > (this.docs[0] as number))) return false;
    this.docs[0] = doc;
    this.scores[0] = score;
    let i = 0;
    for (;;) {
      const l = 2 * i + 1;
      const r = l + 1;
      let m = i;
      if (l < this.docs.length && this.worse(l, m)) m = l;
      if (r < this.docs.length && this.worse(r, m)) m = r;
      if (m === i) return true;
      this.swap(i, m);
      i = m;
    }
  }

  /** A heap holding the same chunks, to be offered more without changing this one. */
  copy(): TopK {
    const c = new TopK(this.k);
    c.docs.push(...this.docs);
    c.scores.push(...this.scores);
    return c;
  }

  best(): [number, number][] {
    return this.docs
      .map((doc, i) => [doc, this.scores[i] as number] as [number, number])
      .sort((x, y) => y[1] - x[1] || x[0] - y[0]);
  }
}
