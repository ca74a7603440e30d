import type { Bm25Params } from './bm25.js';
import { bm25Term } from './bm25.js';
import type { ChunkTable, FilterMask } from './chunk-table.js';
import { blockBounds, ListCursor, type PostingsBuffer } from './postings.js';
import type { SearchWork, SegList } from './segment.js';
import type { TopK } from './top-k.js';

/** Relative slack on bounds, so that rounding never prunes a chunk whose exact score ties the k-th. */
export const SLACK = 1 + 1e-9;

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
      const bounds = blockBounds(list.skip, (tf, len) => bm25Term(w, tf, len, k1, b, ctx.avg));
      let max = 0;
      for (const x of bounds) if (x > max) max = x;
      total += max;
      terms.push({ t, list, bounds, max });
    }
    return { s, terms, total };
  });
}

/** Chunk numbers per window of a segment's search; until k chunks are held, windows of FIRST_WINDOW. */
const WINDOW = 4096;
const FIRST_WINDOW = 512;

/** Per window, the (term, tf) pairs of the essential lists' postings of each touched chunk, as linked lists. */
class WindowTfs {
  head = new Int32Array(WINDOW).fill(-1);
  next = new Int32Array(1024);
  term = new Int32Array(1024);
  tf = new Int32Array(1024);
  n = 0;

  add(slot: number, term: number, tf: number): void {
    if (this.n === this.next.length) {
      for (const key of ['next', 'term', 'tf'] as const) {
        const grown = new Int32Array(this.n * 2);
        grown.set(this[key]);
        this[key] = grown;
      }
    }
    this.next[this.n] = this.head[slot] as number;
    this.term[this.n] = term;
    this.tf[this.n] = tf;
    this.head[slot] = this.n++;
  }
}

function grow(a: Int32Array<ArrayBuffer>): Int32Array<ArrayBuffer> {
  const b = new Int32Array(a.length * 2);
  b.set(a);
  return b;
}

/**
 * One segment's search: block-max MaxScore in windows of WINDOW chunk numbers, as Lucene's MaxScore
 * scorer does. Per window, each term's bound is the largest bound of its blocks that overlap the
 * window; terms are ordered by it, and those whose bounds together stay under the k-th score are
 * non-essential there (no chunk only they hold can enter). A window no term can lift to the k-th
 * score is passed over. The essential lists are scored term at a time into the dense array, block
 * by block — a block whose bound plus the other terms' bounds cannot reach the k-th score is
 * neither decoded nor fetched. Then each chunk they touched, in ascending order, is probed in the
 * non-essential lists only while its score so far plus the bounds of the blocks where it would sit
 * can still reach the k-th score; one that gets through is scored exactly, its terms summed in query
 * order as the exhaustive pass does. The k-th score rises from window to window, so fewer terms stay
 * essential and more blocks are passed over.
 */
function searchSegment(
  ctx: BlockMaxContext,
  start: number,
  terms: PlannedTerm[],
  weights: number[],
  heap: TopK,
  tfOf: Int32Array,
  found: WindowTfs,
): void {
  const L = terms.length;
  const cursors = terms.map((x) => new ListCursor(x.list, x.bounds));
  const order = Array.from({ length: L }, (_, i) => i);
  const wmax = new Float64Array(L);
  const { scores, chunks, mask } = ctx;
  let touched = new Int32Array(WINDOW);
  for (let from = start, to = 0; ; from = to + 1) {
    // small windows until the heap is full, so the first k chunks found set a k-th score early
    to = from + (heap.threshold() === Number.NEGATIVE_INFINITY ? FIRST_WINDOW : WINDOW) - 1;
    // each term's largest block bound in the window (0 once its list has ended)
    let total = 0;
    let more = false;
    for (let i = 0; i < L; i++) {
      const c = cursors[i] as ListCursor;
      let m = 0;
      for (let b = c.blockFor(from); b !== -1 && b < c.blocks && c.firstDoc(b) <= to; b++) {
        more = true;
        if ((c.bounds[b] as number) > m) m = c.bounds[b] as number;
      }
      wmax[i] = m;
      total += m;
    }
    if (!more) break;
    let theta = heap.threshold();
    if (total * SLACK < theta) continue;
    order.sort((x, y) => (wmax[x] as number) - (wmax[y] as number) || x - y);
    let ess = 0;
    let nonEss = 0;
    while (ess < L && (nonEss + (wmax[order[ess] as number] as number)) * SLACK < theta)
      nonEss += wmax[order[ess++] as number] as number;
    // the essential lists into the dense array, with each posting's term and tf kept for the exact score
    let nTouched = 0;
    for (let e = ess; e < L; e++) {
      const i = order[e] as number;
      const c = cursors[i] as ListCursor;
      const t = (terms[i] as PlannedTerm).t;
      const w = weights[t] as number;
      const others = total - (wmax[i] as number);
      for (let b = c.blockFor(from); b !== -1 && b < c.blocks && c.firstDoc(b) <= to; b++) {
        if (((c.bounds[b] as number) + others) * SLACK < theta) continue;
        const n = c.decodeBlock(b);
        for (let p = 0; p < n; p++) {
          const doc = c.docs[p] as number;
          if (doc < from) continue;
          if (doc > to) break;
          const tf = c.tfs[p] as number;
          if (scores[doc] === 0) {
            if (nTouched === touched.length) touched = grow(touched);
            touched[nTouched++] = doc;
          }
          scores[doc] = (scores[doc] as number) + ctx.score(w, tf, doc);
          found.add(doc - from, t, tf);
        }
      }
    }
    const candidates = touched.subarray(0, nTouched).sort();
    const probed = order.slice(0, ess);
    for (const d of candidates) {
      const partial = scores[d] as number;
      scores[d] = 0;
      const head = found.head[d - from] as number;
      found.head[d - from] = -1;
      // the filter, once per chunk touched rather than once per posting
      if ((partial + nonEss) * SLACK < theta || !chunks.accepts(d, mask)) continue;
      tfOf.fill(0);
      for (let at = head; at !== -1; at = found.next[at] as number) tfOf[found.term[at] as number] = found.tf[at] as number;
      if (!probe(ctx, terms, cursors, probed, weights, d, partial, theta, tfOf)) continue;
      // the exact score: every term's part, summed in query order as the exhaustive pass does
      let s = 0;
      for (let t = 0; t < weights.length; t++) {
        const tf = tfOf[t] as number;
        if (tf > 0) s += ctx.score(weights[t] as number, tf, d);
      }
      ctx.work.scored++;
      if (heap.offer(d, s)) theta = heap.threshold();
    }
    found.n = 0;
  }
  for (const c of cursors) {
    ctx.work.postings += c.decodedPostings;
    ctx.work.skipped += c.blocks - c.decodedBlocks;
  }
}

/**
 * Candidate `d` (essential score so far `partial`) in the non-essential lists `probed` (ascending
 * by bound), from the largest bound down, probed only while `partial` plus the bounds of the blocks where it would sit can
 * still reach `theta`; false once it cannot. Fills `tfOf` for the lists that hold it.
 */
function probe(
  ctx: BlockMaxContext,
  terms: PlannedTerm[],
  cursors: ListCursor[],
  probed: number[],
  weights: number[],
  d: number,
  partial0: number,
  theta: number,
  tfOf: Int32Array,
): boolean {
  let rest = 0;
  for (const i of probed) {
    const c = cursors[i] as ListCursor;
    const blk = c.blockFor(d);
    if (blk !== -1) rest += c.bounds[blk] as number;
  }
  if ((partial0 + rest) * SLACK < theta) return false;
  let partial = partial0;
  for (let at = probed.length - 1; at >= 0; at--) {
    const i = probed[at] as number;
    const c = cursors[i] as ListCursor;
    const blk = c.blockFor(d);
    if (blk === -1) continue;
    rest -= c.bounds[blk] as number;
    c.seek(d);
    if (c.doc === d) {
      const t = (terms[i] as PlannedTerm).t;
      tfOf[t] = c.tf;
      partial += ctx.score(weights[t] as number, c.tf, d);
    }
    if ((partial + Math.max(0, rest)) * SLACK < theta) return false;
  }
  return true;
}

/**
 * Block-max MaxScore over each segment (searchSegment), segments with the highest bound first, so
 * the k-th score rises early and the later segments skip the more.
 */
export function searchSegments(
  ctx: BlockMaxContext,
  lists: (SegList | null)[][],
  weights: number[],
  starts: number[],
  heap: TopK,
): void {
  const tfOf = new Int32Array(weights.length);
  const found = new WindowTfs();
  const plans = plan(ctx, lists, weights, starts.length);
  plans.sort((x, y) => y.total - x.total || x.s - y.s);
  for (const { s, terms } of plans) {
    if (terms.length === 0) continue;
    terms.sort((x, y) => x.max - y.max || x.t - y.t);
    searchSegment(ctx, starts[s] as number, terms, weights, heap, tfOf, found);
  }
}
