import type { Bm25Params } from './bm25.js';
import type { ChunkTable, FilterMask } from './chunk-table.js';
import { blockBounds, ListCursor, type PostingsBuffer } from './postings.js';
import type { SearchWork, SegList } from './segment.js';
import type { TopK } from './top-k.js';

/** Relative slack on bounds, so that rounding never prunes a chunk whose exact score ties the k-th. */
const SLACK = 1 + 1e-9;

/** What a block-max search reads and writes besides the lists: shared with the searcher's tail pass. */
export interface BlockMaxContext {
  chunks: ChunkTable;
  params: Bm25Params;
  /** The dense score array (all zeros between searches). */
  scores: Float64Array;
  buffer: PostingsBuffer;
  work: SearchWork;
  mask: FilterMask;
  avg: number;
  score: (w: number, tf: number, doc: number) => number;
}

interface PlannedTerm {
  t: number;
  list: SegList;
  bounds: Float64Array;
  max: number;
}

/** Per segment, its query terms with their blocks' bounds, and the sum of their largest bounds. */
function plan(ctx: BlockMaxContext, lists: (SegList | null)[][], weights: number[], segs: number) {
  const { k1, b } = ctx.params;
  return Array.from({ length: segs }, (_, s) => {
    const terms: PlannedTerm[] = [];
    let total = 0;
    for (let t = 0; t < weights.length; t++) {
      const list = (lists[t] as (SegList | null)[])[s];
      const w = weights[t] as number;
      if (!list || w === 0) continue;
      const bounds = blockBounds(list.skip, (tf, len) => (w * tf * (k1 + 1)) / (tf + k1 * (1 - b + (b * len) / ctx.avg)));
      let max = 0;
      for (const x of bounds) if (x > max) max = x;
      total += max;
      terms.push({ t, list, bounds, max });
    }
    return { s, terms, total };
  });
}

/** The essential lists decoded whole, term at a time into the dense array; the chunks they touched. */
function scoreEssential(ctx: BlockMaxContext, essential: PlannedTerm[], weights: number[]) {
  const { buffer: buf, scores } = ctx;
  const decoded = new Map<number, { docs: Int32Array; tfs: Int32Array }>();
  const touched: number[] = [];
  for (const { t, list } of essential) {
    buf.clear();
    buf.decode(list.data);
    const docs = buf.docs.slice(0, buf.n);
    const tfs = buf.tfs.slice(0, buf.n);
    decoded.set(t, { docs, tfs });
    ctx.work.postings += docs.length;
    const w = weights[t] as number;
    for (let p = 0; p < docs.length; p++) {
      const doc = docs[p] as number;
      if (!ctx.chunks.accepts(doc, ctx.mask)) continue;
      if (scores[doc] === 0) touched.push(doc);
      scores[doc] = (scores[doc] as number) + ctx.score(w, tfs[p] as number, doc);
    }
  }
  return { decoded, touched };
}

/** A chunk's term frequency in a decoded list (0 when absent). */
function tfIn(e: { docs: Int32Array; tfs: Int32Array }, d: number): number {
  let lo = 0;
  let hi = e.docs.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if ((e.docs[mid] as number) < d) lo = mid + 1;
    else hi = mid;
  }
  return e.docs[lo] === d ? (e.tfs[lo] as number) : 0;
}

/**
 * Chunk `d`'s tf in each non-essential list, probed only while its score so far plus the bounds of
 * the blocks where it would sit can reach `theta`; null once it cannot.
 */
function probe(
  ctx: BlockMaxContext,
  cursors: { t: number; c: ListCursor }[],
  weights: number[],
  d: number,
  partial0: number,
  theta: number,
  tfOf: Int32Array,
): Int32Array | null {
  let rest = 0;
  for (const { c } of cursors) {
    const blk = c.blockFor(d);
    if (blk !== -1) rest += c.bounds[blk] as number;
  }
  if ((partial0 + rest) * SLACK < theta) return null;
  let partial = partial0;
  tfOf.fill(0);
  for (let i = cursors.length - 1; i >= 0; i--) {
    const { t, c } = cursors[i] as { t: number; c: ListCursor };
    const blk = c.blockFor(d);
    if (blk === -1) continue;
    rest -= c.bounds[blk] as number;
    c.seek(d);
    if (c.doc === d) {
      tfOf[t] = c.tf;
      partial += ctx.score(weights[t] as number, c.tf, d);
    }
    if ((partial + Math.max(0, rest)) * SLACK < theta) return null;
  }
  return tfOf;
}

/** One segment's MaxScore pass (its terms ordered by their largest bound, ascending). */
function searchSegment(ctx: BlockMaxContext, terms: PlannedTerm[], weights: number[], heap: TopK, tfOf: Int32Array): void {
  const theta0 = heap.threshold();
  const L = terms.length;
  let run = 0;
  let ess = 0;
  while (ess < L && (run + (terms[ess] as PlannedTerm).max) * SLACK < theta0) run += (terms[ess++] as PlannedTerm).max;
  const nonEssMax = run;
  if (ess === L) {
    for (const x of terms) ctx.work.skipped += x.bounds.length;
    return;
  }
  const { decoded, touched } = scoreEssential(ctx, terms.slice(ess), weights);
  const cursors = terms.slice(0, ess).map((x) => ({ t: x.t, c: new ListCursor(x.list.skip, x.list.data, x.bounds, x.max) }));
  const scores = ctx.scores;
  for (const d of Int32Array.from(touched).sort()) {
    const partial0 = scores[d] as number;
    scores[d] = 0;
    const theta = heap.threshold();
    if ((partial0 + nonEssMax) * SLACK < theta) continue;
    const tfs = probe(ctx, cursors, weights, d, partial0, theta, tfOf);
    if (!tfs) continue;
    // the exact score: every term's part, summed in query order as the exhaustive pass does
    let s = 0;
    for (let t = 0; t < weights.length; t++) {
      const e = decoded.get(t);
      const tf = e ? tfIn(e, d) : (tfs[t] as number);
      if (tf > 0) s += ctx.score(weights[t] as number, tf, d);
    }
    ctx.work.scored++;
    heap.offer(d, s);
  }
  for (const { c } of cursors) {
    ctx.work.postings += c.decodedPostings;
    ctx.work.skipped += c.blocks - c.decodedBlocks;
  }
}

/**
 * MaxScore over each segment, segments with the highest bound first (so the k-th score rises
 * early). A segment's lists are ordered by their largest block bound; those whose bounds together
 * stay under the k-th score when the segment starts are non-essential: no chunk only they hold can
 * enter the top k. The essential lists are scored term at a time into the dense array; then each
 * chunk they touched, in ascending order, is probed in the non-essential lists only while its
 * score so far plus the bounds of the blocks where it would sit can still reach the k-th score —
 * so most blocks of common terms are never decoded. A chunk that gets through is scored exactly,
 * its terms summed in query order as the exhaustive pass does.
 */
export function searchSegments(
  ctx: BlockMaxContext,
  lists: (SegList | null)[][],
  weights: number[],
  segs: number,
  heap: TopK,
): void {
  const tfOf = new Int32Array(weights.length);
  const plans = plan(ctx, lists, weights, segs);
  plans.sort((x, y) => y.total - x.total || x.s - y.s);
  for (const { terms } of plans) {
    if (terms.length === 0) continue;
    terms.sort((x, y) => x.max - y.max || x.t - y.t);
    searchSegment(ctx, terms, weights, heap, tfOf);
  }
}
