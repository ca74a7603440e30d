import { type BlockMaxContext, SLACK } from './block-max.js';
import { bm25Term } from './bm25.js';
import { BLOCK, decodeBlocks, ListCursor, PART_BLOCKS } from './postings.js';
import type { SegList } from './segment.js';
import type { TopK } from './top-k.js';

/** Postings of one part (PART_BLOCKS blocks), the most a list's run decodes at once. */
const RUN = PART_BLOCKS * BLOCK;
const NO_BOUNDS = new Float64Array(0);

function grown(a: Int32Array<ArrayBuffer>, size: number, keep: number): Int32Array<ArrayBuffer> {
  if (size <= a.length) return a;
  const b = new Int32Array(Math.max(a.length * 2, size));
  b.set(a.subarray(0, keep));
  return b;
}

/**
 * The chunks of a segment whose partial sums passed `floor`, a k-th score already known (0 before
 * any), each once: a chunk enters when a posting lifts it past the floor, and `refresh` takes the
 * k-th best of them and of the heap as the new floor, keeping only those above it. Partial sums
 * only grow, so the floor is a lower bound of the k-th exact score at any time, for the cost of a
 * comparison a posting — not a pass over every chunk touched.
 */
class Hot {
  docs = new Int32Array(1024);
  n = 0;
  floor = 0;

  reserve(more: number): void {
    this.docs = grown(this.docs, this.n + more, this.n);
  }

  /** The k-th best score among the heap's chunks and the accepted ones held, now the floor. */
  refresh(ctx: BlockMaxContext, heap: TopK): number {
    const { scores, chunks, mask } = ctx;
    const top = heap.copy();
    let t = top.threshold();
    const { docs } = this;
    for (let i = 0; i < this.n; i++) {
      const d = docs[i] as number;
      const s = scores[d] as number;
      if (s >= t && s > this.floor && chunks.accepts(d, mask) && top.offer(d, s)) t = top.threshold();
    }
    if (t > this.floor) this.floor = t;
    let kept = 0;
    for (let i = 0; i < this.n; i++) {
      const d = docs[i] as number;
      if ((scores[d] as number) > this.floor && chunks.accepts(d, mask)) docs[kept++] = d;
    }
    this.n = kept;
    return this.floor;
  }
}

/** Past this many chunks held, the hot set is refreshed (its floor raised) between runs of a list. */
const HOT_MAX = 2048;

/** The arrays a term-at-a-time search writes, kept by the searcher between searches. */
export class TermAtATimeBuffers {
  /** The chunks a segment's pass touched (when few for its range), then its candidates. */
  touched = new Int32Array(1024);
  /**
   * When many for its range, a bit per chunk touched (chunk d: bit d & 31 of word d >>> 5), so its
   * candidates are read off the words set instead of off every score of the range.
   */
  marks = new Int32Array(0);
  readonly hot = new Hot();
  /** The postings a segment's pass decoded, each list's (or blocks') in ascending order: `docs`/`tfs[0, n)`. */
  docs = new Int32Array(RUN);
  tfs = new Int32Array(RUN);
  n = 0;

  /** Room for `more` decoded postings after the `n` kept. */
  room(more: number): void {
    this.docs = grown(this.docs, this.n + more, this.n);
    this.tfs = grown(this.tfs, this.n + more, this.n);
  }
}

/** A query term in one segment: its place in the query, its list there, its weight and the most any of its blocks can add. */
interface SegTerm {
  t: number;
  list: SegList;
  w: number;
  max: number;
  /** Where its decoded postings are kept in the buffers (`to` -1: none decoded). */
  from: number;
  to: number;
}

/**
 * Adds the decoded postings `docs`/`tfs[from, to)` with weight `w` into the dense score array,
 * marking each chunk touched in `marks`; each chunk lifted past the hot set's floor joins the hot set.
 */
function addPostings(
  ctx: BlockMaxContext,
  lens: Int32Array,
  docs: Int32Array,
  tfs: Int32Array,
  from: number,
  to: number,
  w: number,
  hot: Hot,
  marks: Int32Array,
): void {
  const { scores, avg } = ctx;
  const { k1, b } = ctx.params;
  const floor = hot.floor;
  const held = hot.docs;
  let h = hot.n;
  for (let p = from; p < to; p++) {
    const doc = docs[p] as number;
    const before = scores[doc] as number;
    const after = before + bm25Term(w, tfs[p] as number, (lens[doc] as number) - 1, k1, b, avg);
    scores[doc] = after;
    marks[doc >>> 5] = (marks[doc >>> 5] as number) | (1 << (doc & 31));
    if (after > floor && before <= floor) held[h++] = doc;
  }
  hot.n = h;
}

/** addPostings, also recording each chunk first touched in `touched`; returns the new count of touched chunks. */
function addPostingsTouched(
  ctx: BlockMaxContext,
  lens: Int32Array,
  docs: Int32Array,
  tfs: Int32Array,
  from: number,
  to: number,
  w: number,
  hot: Hot,
  touched: Int32Array,
  count: number,
): number {
  const { scores, avg } = ctx;
  const { k1, b } = ctx.params;
  const floor = hot.floor;
  const held = hot.docs;
  let h = hot.n;
  let c = count;
  for (let p = from; p < to; p++) {
    const doc = docs[p] as number;
    const before = scores[doc] as number;
    if (before === 0) touched[c++] = doc;
    const after = before + bm25Term(w, tfs[p] as number, (lens[doc] as number) - 1, k1, b, avg);
    scores[doc] = after;
    if (after > floor && before <= floor) held[h++] = doc;
  }
  hot.n = h;
  return c;
}

/**
 * Keeps the candidates among `cands[0, n)` that `rest` more could lift to `theta`, in order; the
 * others' scores back to 0. Returns how many are kept.
 */
function compact(ctx: BlockMaxContext, cands: Int32Array, n: number, rest: number, theta: number): number {
  const { scores } = ctx;
  let kept = 0;
  for (let i = 0; i < n; i++) {
    const d = cands[i] as number;
    if (((scores[d] as number) + rest) * SLACK >= theta) cands[kept++] = d;
    else scores[d] = 0;
  }
  return kept;
}

/**
 * The candidates of a segment whose chunks lie in `[from, to]`, read off the words of `marks` set
 * (a word of 32 chunks, not 32 scores, for each stretch no list touched), in order: those `rest`
 * more could lift to `theta`; every other score touched back to 0, and the marks cleared. Returns how many.
 */
function candidatesIn(
  ctx: BlockMaxContext,
  from: number,
  to: number,
  marks: Int32Array,
  cands: Int32Array,
  rest: number,
  theta: number,
): number {
  const { scores } = ctx;
  let kept = 0;
  for (let word = from >>> 5; word <= to >>> 5; word++) {
    let m = marks[word] as number;
    if (m === 0) continue;
    marks[word] = 0;
    while (m !== 0) {
      const low = m & -m;
      const d = (word << 5) | (31 - Math.clz32(low));
      m ^= low;
      const s = scores[d] as number;
      if (s === 0) continue;
      if ((s + rest) * SLACK >= theta) cands[kept++] = d;
      else scores[d] = 0;
    }
  }
  return kept;
}

/**
 * Adds a list's postings to the candidates `cands[0, n)` (ascending) alone: only the blocks that may
 * hold one are fetched and decoded (and kept in the buffers). Returns the postings decoded.
 */
function addToCandidates(
  ctx: BlockMaxContext,
  lens: Int32Array,
  term: SegTerm,
  cands: Int32Array,
  n: number,
  buf: TermAtATimeBuffers,
): number {
  const { scores, avg } = ctx;
  const { k1, b } = ctx.params;
  const { skip } = term.list;
  const { hot } = buf;
  const w = term.w;
  term.from = buf.n;
  const blocks = skip.length / 4;
  let decoded = 0;
  let decodedBlocks = 0;
  let blk = 0;
  for (let c = 0; c < n; ) {
    const d = cands[c] as number;
    while (blk < blocks && (skip[blk * 4] as number) < d) blk++;
    if (blk === blocks) break;
    buf.room(BLOCK);
    hot.reserve(BLOCK);
    const { docs, tfs } = buf;
    const start = buf.n;
    buf.n = decodeBlocks(term.list, blk, blk, docs, tfs, start);
    decoded += buf.n - start;
    decodedBlocks++;
    const floor = hot.floor;
    for (let p = start; p < buf.n; p++) {
      const doc = docs[p] as number;
      const before = scores[doc] as number;
      if (before === 0) continue;
      const after = before + bm25Term(w, tfs[p] as number, (lens[doc] as number) - 1, k1, b, avg);
      scores[doc] = after;
      if (after > floor && before <= floor) hot.docs[hot.n++] = doc;
    }
    const last = skip[blk * 4] as number;
    while (c < n && (cands[c] as number) <= last) c++;
    blk++;
  }
  term.to = buf.n;
  ctx.work.postings += decoded;
  ctx.work.skipped += blocks - decodedBlocks;
  return decoded;
}

/** The first place in `docs[from, to)` (ascending) holding `d` or more. */
function lowerBound(docs: Int32Array, from: number, to: number, d: number): number {
  let lo = from;
  let hi = to;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if ((docs[mid] as number) < d) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/**
 * The exact scores of the candidates `cands[0, n)` (ascending) the filter accepts, offered to the
 * top k: each term's frequency from the postings kept where its list (or every block that may hold
 * a candidate) was decoded, else from its list sought; summed in query order, so every sum is the
 * one the exhaustive pass makes.
 */
function scoreExactly(
  ctx: BlockMaxContext,
  lens: Int32Array,
  terms: SegTerm[],
  cands: Int32Array,
  count: number,
  heap: TopK,
  buf: TermAtATimeBuffers,
): void {
  const { scores, avg, chunks, mask } = ctx;
  const { k1, b } = ctx.params;
  const { docs, tfs } = buf;
  let n = 0;
  for (let i = 0; i < count; i++) {
    const d = cands[i] as number;
    scores[d] = 0;
    if (chunks.accepts(d, mask)) cands[n++] = d;
  }
  for (const term of [...terms].sort((x, y) => x.t - y.t)) {
    const w = term.w;
    if (term.to >= 0) {
      let at = term.from;
      for (let i = 0; i < n && at < term.to; i++) {
        const d = cands[i] as number;
        at = lowerBound(docs, at, term.to, d);
        if (at < term.to && docs[at] === d)
          scores[d] = (scores[d] as number) + bm25Term(w, tfs[at] as number, (lens[d] as number) - 1, k1, b, avg);
      }
      continue;
    }
    const c = new ListCursor(term.list, NO_BOUNDS);
    for (let i = 0; i < n; i++) {
      const d = cands[i] as number;
      c.seek(d);
      if (c.doc === Number.POSITIVE_INFINITY) break;
      if (c.doc === d) scores[d] = (scores[d] as number) + bm25Term(w, c.tf, (lens[d] as number) - 1, k1, b, avg);
    }
    ctx.work.postings += c.decodedPostings;
  }
  for (let i = 0; i < n; i++) {
    const d = cands[i] as number;
    heap.offer(d, scores[d] as number);
    scores[d] = 0;
  }
  ctx.work.scored += n;
}

/** A segment's chunks touched are marked in a bitmap, not listed, when its lists hold at least this share of its range. */
const DENSE = 0.25;

/**
 * One segment term at a time, its terms from the largest bound down. Every posting of a list is
 * added into the dense score array while a chunk no list has touched yet could still reach the
 * k-th score; once the bounds of the lists left sum below it (the hot set's floor: the k-th best of
 * the heap and of the partial sums so far, which only grow), no new chunk can enter and the lists
 * left are added to the chunks touched alone — only the blocks that may hold one are decoded —
 * while those the lists left can no longer lift to the k-th score are dropped. The few left are
 * scored exactly from the postings kept, in query order.
 */
function scoreSegment(
  ctx: BlockMaxContext,
  lens: Int32Array,
  terms: SegTerm[],
  range: [number, number],
  heap: TopK,
  buf: TermAtATimeBuffers,
): void {
  const L = terms.length;
  terms.sort((x, y) => y.max - x.max || x.t - y.t);
  const rest = new Float64Array(L + 1);
  let postings = 0;
  for (let i = L - 1; i >= 0; i--) {
    rest[i] = (rest[i + 1] as number) + (terms[i] as SegTerm).max;
    postings += (terms[i] as SegTerm).list.n;
  }
  const total = rest[0] as number;
  // few postings for the range: the chunks touched are listed as they come; many: marked a bit each
  const dense = postings >= DENSE * (range[1] - range[0] + 1);
  // the marks are all clear between segments (candidatesIn clears what it reads)
  if (dense) buf.marks = grown(buf.marks, (range[1] >>> 5) + 1, 0);
  const { work } = ctx;
  const { hot } = buf;
  hot.n = 0;
  hot.floor = Math.max(0, heap.threshold());
  buf.n = 0;
  let theta = hot.floor;
  let n = 0;
  let i = 0;
  for (; i < L; i++) {
    const left = rest[i] as number;
    // the k-th partial sum is at most the sum of the bounds added so far: worth refreshing only once it may pass the lists left
    if (left * SLACK < Math.max(theta, total - left)) {
      theta = hot.refresh(ctx, heap);
      if (left * SLACK < theta) break;
    }
    const term = terms[i] as SegTerm;
    const { list, w } = term;
    if (!dense) buf.touched = grown(buf.touched, n + list.n, n);
    buf.room(list.n);
    const blocks = list.skip.length / 4;
    term.from = buf.n;
    // a list's bytes decode as one run (a block's first gap counts from the block before); a list in parts, a part at a time
    for (let first = 0; first < blocks; first += PART_BLOCKS) {
      const at = buf.n;
      buf.n = decodeBlocks(list, first, Math.min(blocks, first + PART_BLOCKS) - 1, buf.docs, buf.tfs, at);
      hot.reserve(buf.n - at);
      if (dense) addPostings(ctx, lens, buf.docs, buf.tfs, at, buf.n, w, hot, buf.marks);
      else n = addPostingsTouched(ctx, lens, buf.docs, buf.tfs, at, buf.n, w, hot, buf.touched, n);
      if (hot.n > HOT_MAX) theta = hot.refresh(ctx, heap);
    }
    term.to = buf.n;
    work.postings += list.n;
  }
  theta = hot.refresh(ctx, heap);
  let cands = buf.touched;
  let nc: number;
  if (dense) {
    cands = grown(cands, range[1] - range[0] + 1, 0);
    buf.touched = cands;
    nc = candidatesIn(ctx, range[0], range[1], buf.marks, cands, rest[i] as number, theta);
  } else {
    nc = compact(ctx, cands, n, rest[i] as number, theta);
    cands.subarray(0, nc).sort();
  }
  // the lists left, to the candidates alone, until they are few enough to be scored exactly; before each, the
  // candidates the lists left can no longer lift to the k-th score dropped
  for (; i < L && nc > heap.k; i++) {
    theta = hot.refresh(ctx, heap);
    nc = compact(ctx, cands, nc, rest[i] as number, theta);
    addToCandidates(ctx, lens, terms[i] as SegTerm, cands, nc, buf);
  }
  nc = compact(ctx, cands, nc, rest[i] as number, hot.refresh(ctx, heap));
  scoreExactly(ctx, lens, terms, cands, nc, heap, buf);
}

/**
 * The segments scored term at a time (scoreSegment), those with the largest sum of bounds first
 * so the k-th score rises early; `ranges` holds each segment's smallest and largest chunk number.
 * For a question of many terms of like weight — a Japanese or Chinese one of 30–100 bigrams —
 * block-max MaxScore keeps most lists essential and pays its per-posting bookkeeping on nearly all
 * their postings; this pass costs a few operations a posting while it must, and once the lists
 * left (the common ones, of small bounds and many postings) cannot bring in a new chunk, decodes
 * only their blocks that hold a candidate. The top k is the same (exact sums in query order, same
 * tie order).
 */
export function scoreTermAtATime(
  ctx: BlockMaxContext,
  lists: (SegList | null)[][],
  weights: number[],
  ranges: [number, number][],
  heap: TopK,
  buf: TermAtATimeBuffers,
): void {
  const lens = ctx.chunks.storedLensView();
  const { k1, b } = ctx.params;
  const plans = ranges.map((range, s) => {
    const terms: SegTerm[] = [];
    let total = 0;
    weights.forEach((w, t) => {
      const list = (lists[t] as (SegList | null)[])[s];
      if (!list || w === 0) return;
      let max = 0;
      const { skip } = list;
      for (let x = 0; x < skip.length; x += 4) {
        const bound = bm25Term(w, skip[x + 2] as number, skip[x + 3] as number, k1, b, ctx.avg);
        if (bound > max) max = bound;
      }
      terms.push({ t, list, w, max, from: 0, to: -1 });
      total += max;
    });
    return { s, range, terms, total };
  });
  plans.sort((x, y) => y.total - x.total || x.s - y.s);
  for (const { terms, range } of plans) if (terms.length > 0) scoreSegment(ctx, lens, terms, range, heap, buf);
}

/** How a search scores the segments: block-max MaxScore, term at a time, or the one that fits the question. */
export type SegmentScoring = 'auto' | 'block-max' | 'term-at-a-time';

/**
 * Block-max MaxScore pays about four times term at a time's cost for each posting it decodes (its
 * bounds, cursors, probes and candidates: 63 against 16 ns a posting at a million chunks), and its
 * estimate below is rough, so it is chosen only when it can leave nearly all postings undecoded.
 */
const BLOCK_MAX_SHARE = 0.1;

/**
 * Whether a question's lists are scored term at a time rather than with block-max MaxScore: a cost
 * estimate from the weights and list lengths alone. The k-th score is taken to reach at least the
 * largest term weight (a chunk that holds the rarest term and any other), so the terms of smallest
 * weight that sum below it would be non-essential; term at a time is chosen unless the other
 * terms' postings are under BLOCK_MAX_SHARE of all. A question of one rare word and common ones goes
 * to block-max; one of many terms of like weight, as Japanese and Chinese bigrams are, term at a time.
 */
export function termAtATimeFits(lists: (SegList | null)[][], weights: number[]): boolean {
  const terms: { w: number; n: number }[] = [];
  let total = 0;
  weights.forEach((w, t) => {
    if (w === 0) return;
    let n = 0;
    for (const list of lists[t] as (SegList | null)[]) n += list?.n ?? 0;
    terms.push({ w, n });
    total += n;
  });
  terms.sort((a, b) => a.w - b.w);
  const top = terms.at(-1)?.w ?? 0;
  let i = 0;
  for (let sum = 0; i < terms.length && sum + (terms[i] as { w: number }).w < top; i++) sum += (terms[i] as { w: number }).w;
  let essential = 0;
  for (; i < terms.length; i++) essential += (terms[i] as { n: number }).n;
  return essential > BLOCK_MAX_SHARE * total;
}
