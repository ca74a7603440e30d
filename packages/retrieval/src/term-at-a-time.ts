import type { BlockMaxContext } from './block-max.js';
import { bm25Term } from './bm25.js';
import { BLOCK, decodeRange, PART_BLOCKS } from './postings.js';
import type { SegList } from './segment.js';
import type { TopK } from './top-k.js';

/** Postings of one part (PART_BLOCKS blocks), the most a list's run decodes at once. */
const RUN = PART_BLOCKS * BLOCK;

/**
 * Adds the decoded postings `docs`/`tfs[0, n)` with weight `w` into the dense score array,
 * recording each chunk first touched in `touched`; returns the new count of touched chunks. The
 * score is the searcher's BM25 term score (bm25Term), so each sum is bit for bit the one the
 * block-max search's exact scoring makes.
 */
function addPostings(
  ctx: BlockMaxContext,
  lens: Int32Array,
  docs: Int32Array,
  tfs: Int32Array,
  n: number,
  w: number,
  touched: Int32Array,
  count: number,
): number {
  const { scores, avg } = ctx;
  const { k1, b } = ctx.params;
  let c = count;
  for (let p = 0; p < n; p++) {
    const doc = docs[p] as number;
    const tf = tfs[p] as number;
    const before = scores[doc] as number;
    if (before === 0) touched[c++] = doc;
    scores[doc] = before + bm25Term(w, tf, (lens[doc] as number) - 1, k1, b, avg);
  }
  return c;
}

/**
 * The segments scored term at a time, every posting of every list: each list decoded a part's run
 * at a time and added into the dense score array (no per-posting cursor, bound or filter), then each chunk touched offered to
 * the top k if the filter accepts it. For a question of many terms of like weight — a Japanese or
 * Chinese one of 30–100 bigrams — block-max MaxScore keeps most lists essential and pays its
 * per-posting bookkeeping on nearly all their postings; this pass costs a few operations a posting.
 * The top k is the same either way (same sums in query order, same tie order).
 */
export function scoreTermAtATime(
  ctx: BlockMaxContext,
  lists: (SegList | null)[][],
  weights: number[],
  segs: number[],
  heap: TopK,
  buffer: { touched: Int32Array },
): void {
  const lens = ctx.chunks.storedLensView();
  const docs = new Int32Array(RUN);
  const tfs = new Int32Array(RUN);
  let touched = buffer.touched;
  let n = 0;
  // segment by segment (a segment's chunks are a range of its own), so the score and length arrays a term's
  // postings write and read are that range's, not the whole index's; within a segment term by term, so each
  // chunk's sum runs in query order
  for (const s of segs) {
    for (let t = 0; t < weights.length; t++) {
      const w = weights[t] as number;
      if (w === 0) continue;
      const list = (lists[t] as (SegList | null)[])[s];
      if (!list) continue;
      if (touched.length - n < list.n) {
        const grown = new Int32Array(Math.max(touched.length * 2, n + list.n));
        grown.set(touched.subarray(0, n));
        touched = grown;
        buffer.touched = grown;
      }
      const { skip, source } = list;
      const blocks = skip.length / 4;
      // a list's bytes decode as one run (a block's first gap counts from the block before); a list in parts, a part at a time
      for (let first = 0; first < blocks; first += PART_BLOCKS) {
        const last = Math.min(blocks, first + PART_BLOCKS) - 1;
        const { bytes, start } = source.fetch(first);
        const from = first === 0 ? 0 : (skip[(first - 1) * 4 + 1] as number);
        const to = skip[last * 4 + 1] as number;
        const startDoc = first === 0 ? 0 : (skip[(first - 1) * 4] as number);
        const got = decodeRange(bytes, from - start, to - start, startDoc, docs, tfs, 0);
        n = addPostings(ctx, lens, docs, tfs, got, w, touched, n);
      }
      ctx.work.postings += list.n;
    }
  }
  const { scores, chunks, mask } = ctx;
  let theta = heap.threshold();
  for (let i = 0; i < n; i++) {
    const doc = touched[i] as number;
    const s = scores[doc] as number;
    scores[doc] = 0;
    if (theta <= s && chunks.accepts(doc, mask) && heap.offer(doc, s)) theta = heap.threshold();
  }
  ctx.work.scored += n;
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
