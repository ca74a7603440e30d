import type { ChunkTable, FilterMask } from './chunk-table.js';

/** One query term's postings (ascending chunk numbers) and how it scores. */
export interface TermPostings {
  docs: Int32Array;
  tfs: Int32Array;
  n: number;
  /** The term's weight: kind weight × IDF × query-count factor. */
  w: number;
  /** The largest tf in the list. */
  maxTf: number;
}

/** How a posting scores (BM25 with the collection's length statistics) and which chunks count. */
export interface Scoring {
  k1: number;
  b: number;
  avg: number;
  chunks: ChunkTable;
  /** The query's filter. */
  mask: FilterMask;
}

/** A bounded heap of the k best (score, chunk) so far; the worst on top. Ties: the lower chunk number ranks higher. */
class TopK {
  readonly docs: number[] = [];
  readonly scores: number[] = [];

  constructor(private readonly k: number) {}

  get full(): boolean {
    return this.docs.length >= this.k;
  }

  /** The score a chunk must reach to enter (−∞ until the heap is full). */
  get threshold(): number {
    return this.full ? (this.scores[0] as number) : Number.NEGATIVE_INFINITY;
  }

  /** Whether (s, d) ranks below (t, e). */
  private static worse(s: number, d: number, t: number, e: number): boolean {
    return s < t || (s === t && d > e);
  }

  private swap(i: number, j: number): void {
    const d = this.docs[i] as number;
    const s = this.scores[i] as number;
    this.docs[i] = this.docs[j] as number;
    this.scores[i] = this.scores[j] as number;
    this.docs[j] = d;
    this.scores[j] = s;
  }

  private below(i: number, j: number): boolean {
    return TopK.worse(this.scores[i] as number, this.docs[i] as number, this.scores[j] as number, this.docs[j] as number);
  }

  offer(doc: number, score: number): void {
    if (!this.full) {
      this.docs.push(doc);
      this.scores.push(score);
      for (let i = this.docs.length - 1; i > 0; ) {
        const p = (i - 1) >> 1;
        if (!this.below(i, p)) break;
        this.swap(i, p);
        i = p;
      }
      return;
    }
    if (!TopK.worse(this.scores[0] as number, this.docs[0] as number, score, doc)) return;
    this.docs[0] = doc;
    this.scores[0] = score;
    for (let i = 0; ; ) {
      const l = 2 * i + 1;
      const r = l + 1;
      let m = i;
      if (l < this.docs.length && this.below(l, m)) m = l;
      if (r < this.docs.length && this.below(r, m)) m = r;
      if (m === i) return;
      this.swap(i, m);
      i = m;
    }
  }

  /** Best first. */
  sorted(): Array<{ doc: number; score: number }> {
    return this.docs
      .map((doc, i) => ({ doc, score: this.scores[i] as number }))
      .sort((a, b) => (TopK.worse(a.score, a.doc, b.score, b.doc) ? 1 : TopK.worse(b.score, b.doc, a.score, a.doc) ? -1 : 0));
  }
}

/** Bounds are compared with this relative slack, so a rounding difference can never prune a chunk that belongs in the top k. */
const SLACK = 1e-9;

/** The k-th largest score among `docs` (−∞ when fewer than k). */
function kthScore(docs: ArrayLike<number>, scores: Float64Array, k: number): number {
  if (docs.length < k) return Number.NEGATIVE_INFINITY;
  const top = new TopK(k);
  for (let i = 0; i < docs.length; i++) {
    const doc = docs[i] as number;
    const s = scores[doc] as number;
    // below the current k-th: cannot enter (saves the heap call for most chunks)
    if (top.full && s < (top.scores[0] as number)) continue;
    top.offer(doc, s);
  }
  return top.threshold;
}

/** Index of the first posting at or after `doc` in `t.docs[from..n)` (galloping, then binary search). */
function seek(t: TermPostings, from: number, doc: number): number {
  let lo = from;
  let step = 1;
  let hi = from;
  while (hi < t.n && (t.docs[hi] as number) < doc) {
    lo = hi + 1;
    hi += step;
    step *= 2;
  }
  if (hi > t.n) hi = t.n;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if ((t.docs[mid] as number) < doc) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/**
 * The exact BM25 top k with MaxScore pruning, term at a time (Turtle & Flood's "max-score"): terms are
 * taken by the most one posting of theirs can add (largest first; rare terms bound high, common ones
 * low). Once the k-th best partial score exceeds the sum of the bounds of the terms left, no chunk they
 * alone bring can enter the top k: the remaining — long, common — lists are no longer scored posting by
 * posting, only probed (galloping search) for the few chunks that can still make it. The survivors'
 * scores are then summed again in query-term order, as the exhaustive pass sums them, so scores and
 * ties (equal scores: lower chunk number first) are the same to the bit.
 * `scores` is a zeroed scratch array indexed by chunk number; it is left zeroed.
 */
export function maxScoreTopK(
  terms: TermPostings[],
  scoring: Scoring,
  k: number,
  scores: Float64Array,
): Array<{ doc: number; score: number }> {
  const { k1, b, avg, chunks, mask } = scoring;
  const m = terms.length;
  if (m === 0 || k <= 0) return [];
  const score = (t: TermPostings, i: number, doc: number): number => {
    const tf = t.tfs[i] as number;
    return (t.w * tf * (k1 + 1)) / (tf + k1 * (1 - b + (b * chunks.len(doc)) / avg));
  };
  // the most one posting can add: its largest tf in the shortest possible chunk (length 0)
  const bounds = terms.map((t) => (t.w * t.maxTf * (k1 + 1)) / (t.maxTf + k1 * (1 - b)));
  const order = terms.map((_, i) => i).sort((x, y) => (bounds[y] as number) - (bounds[x] as number));
  // rest[j]: the sum of the bounds of the terms from order[j] on
  const rest = new Float64Array(m + 1);
  for (let j = m - 1; j >= 0; j--) rest[j] = (rest[j + 1] as number) + (bounds[order[j] as number] as number);
  const touched: number[] = [];
  let best = 0;
  let theta = Number.NEGATIVE_INFINITY;
  let j = 0;
  for (; j < m; j++) {
    const left = (rest[j] as number) * (1 + SLACK);
    if (touched.length >= k && left < best) {
      theta = kthScore(touched, scores, k);
      if (left < theta) break;
    }
    const t = terms[order[j] as number] as TermPostings;
    const { docs, tfs, w } = t;
    for (let i = 0; i < t.n; i++) {
      const doc = docs[i] as number;
      if (!chunks.accepts(doc, mask)) continue;
      const tf = tfs[i] as number;
      const s = (w * tf * (k1 + 1)) / (tf + k1 * (1 - b + (b * chunks.len(doc)) / avg));
      if (scores[doc] === 0) touched.push(doc);
      const sum = (scores[doc] as number) + s;
      scores[doc] = sum;
      if (sum > best) best = sum;
    }
  }
  let survivors: ArrayLike<number> = touched;
  if (j < m) {
    // chunks that can still reach the k-th score, in chunk order; the remaining terms only probe for them
    const reach = theta / (1 + SLACK) - (rest[j] as number);
    const sorted = new Int32Array(touched.length);
    let c = 0;
    for (const doc of touched) if ((scores[doc] as number) >= reach) sorted[c++] = doc;
    survivors = sorted.subarray(0, c).sort();
    for (; j < m; j++) {
      const t = terms[order[j] as number] as TermPostings;
      let at = 0;
      for (let x = 0; x < survivors.length; x++) {
        const doc = survivors[x] as number;
        at = seek(t, at, doc);
        if (at >= t.n) break;
        if (t.docs[at] === doc) scores[doc] = (scores[doc] as number) + score(t, at, doc);
      }
    }
  }
  // the top k (with anything within rounding of the k-th), scored again in query-term order
  const kth = kthScore(survivors, scores, k);
  const finalists: number[] = [];
  for (let x = 0; x < survivors.length; x++) {
    const doc = survivors[x] as number;
    if ((scores[doc] as number) * (1 + SLACK) >= kth) finalists.push(doc);
  }
  for (const doc of touched) scores[doc] = 0;
  const top = new TopK(k);
  const at = new Int32Array(m);
  finalists.sort((x, y) => x - y);
  for (const doc of finalists) {
    let total = 0;
    for (let i = 0; i < m; i++) {
      const t = terms[i] as TermPostings;
      at[i] = seek(t, at[i] as number, doc);
      if ((at[i] as number) < t.n && t.docs[at[i] as number] === doc) total += score(t, at[i] as number, doc);
    }
    top.offer(doc, total);
  }
  return top.sorted();
}
