import type { LexicalHit, QueryTerm, SearchFilter } from '@pinpoint/core';
import { type BlockMaxContext, searchSegments } from './block-max.js';
import type { Bm25Params } from './bm25.js';
import { bm25Term, countTerms, idf, termWeight } from './bm25.js';
import type { LexicalStore } from './lexical-store.js';
import { PostingsBuffer } from './postings.js';
import { liveDf, readLists, type SearchWork, type SegList } from './segment.js';
import { type SegmentScoring, scoreTermAtATime, TermAtATimeBuffers, termAtATimeFits } from './term-at-a-time.js';
import { TopK } from './top-k.js';

/**
 * The query path: BM25 over the collections a query may see. N, avgdl, df and the block bounds come
 * from those collections alone, so neither a score nor the work done depends on any other
 * collection's chunks. The tails are scored exhaustively; the segments term at a time straight into
 * the dense score array (term-at-a-time.ts) or with block-max MaxScore (block-max.ts), whichever
 * the question's weights and list lengths say costs less, or — without pruning — every posting
 * through the reference path the others are tested against. Ties rank the lower chunk number first
 * every way.
 */
export class LexicalSearcher {
  /** Work of the last search. */
  lastWork: SearchWork = { lists: 0, postings: 0, scored: 0, skipped: 0, parts: 0 };
  private scores = new Float64Array(0);
  private readonly buffer = new PostingsBuffer();
  /** The arrays of a term-at-a-time pass (kept between searches). */
  private readonly termAtATime = new TermAtATimeBuffers();
  /** Document frequencies of the last searched query's terms in its scope, at a generation (queryTerms follows search). */
  private lastDf: { query: string; scope: string; generation: number; df: Map<string, number> } | null = null;

  constructor(
    private readonly store: LexicalStore,
    private readonly params: Bm25Params,
    private readonly analyze: (text: string) => string[],
    private readonly pruning: boolean,
    private readonly scoring: SegmentScoring = 'auto',
  ) {}

  private segmentsOf(collections: string[]): number[] {
    return collections.flatMap((c) => this.store.segments.get(c) ?? []);
  }

  /**
   * Per segment of the collections (in `segmentsOf` order), the smallest chunk number it may hold:
   * a collection's segments hold ascending, disjoint ranges, so each starts after the one before.
   */
  private segmentStarts(collections: string[]): number[] {
    return collections.flatMap((c) =>
      (this.store.segments.get(c) ?? []).map((_, i, list) =>
        i === 0 ? 0 : (this.store.segInfo.get(list[i - 1] as number)?.lastDoc ?? 0) + 1,
      ),
    );
  }

  search(query: string, options: { k: number; filter?: SearchFilter }): LexicalHit[] {
    const store = this.store;
    const work: SearchWork = { lists: 0, postings: 0, scored: 0, skipped: 0, parts: 0 };
    this.lastWork = work;
    // N, avgdl and every df come from the collections the query may see, never from the others.
    const scope = store.chunks.scope(options.filter?.collectionIds);
    const n = scope.live;
    if (n === 0 || options.k <= 0) return [];
    const mask = store.chunks.mask(options.filter);
    if (mask === 'none') return [];
    if (this.scores.length < store.chunks.capacity) this.scores = new Float64Array(store.chunks.capacity);
    const collections = store.collectionsOf(options.filter);
    const segs = this.segmentsOf(collections);
    const terms = [...countTerms(this.analyze(query))];
    const dfs = new Map<string, number>();
    const lists: (SegList | null)[][] = [];
    const weights: number[] = [];
    for (const [term, qtf] of terms) {
      const ls = readLists(store, term, segs, work);
      const df = liveDf(store, term, segs, ls, collections, work);
      dfs.set(term, df);
      lists.push(ls);
      weights.push(df === 0 ? 0 : termWeight(term, this.params) * idf(df, n) * (qtf > 1 ? 1 + Math.log(qtf) : 1));
    }
    this.lastDf = { query, scope: scope.key, generation: store.generation, df: dfs };
    const avg = scope.totalLen / n;
    const { k1, b } = this.params;
    const ctx: BlockMaxContext = {
      chunks: store.chunks,
      params: this.params,
      scores: this.scores,
      buffer: this.buffer,
      work,
      mask,
      avg,
      score: (w, tf, doc) => bm25Term(w, tf, store.chunks.len(doc), k1, b, avg),
    };
    const heap = new TopK(options.k);
    this.scoreExhaustively(ctx, terms, lists, weights, collections, heap);
    if (this.pruning) {
      const starts = this.segmentStarts(collections);
      if (this.scoring === 'term-at-a-time' || (this.scoring === 'auto' && termAtATimeFits(lists, weights))) {
        const ranges = segs.map((seg, i): [number, number] => [starts[i] as number, store.segInfo.get(seg)?.lastDoc ?? 0]);
        scoreTermAtATime(ctx, lists, weights, ranges, heap, this.termAtATime);
      } else searchSegments(ctx, lists, weights, starts, heap);
    }
    return heap.best().map(([doc, s]) => ({ chunk_id: store.stmts.chunkId.get(doc) as string, score: s }));
  }

  /** The tails (and, without pruning, the segments too): every posting into the dense score array, then into the heap. */
  private scoreExhaustively(
    ctx: BlockMaxContext,
    terms: [string, number][],
    lists: (SegList | null)[][],
    weights: number[],
    collections: string[],
    heap: TopK,
  ): void {
    const { scores, buffer: buf, work } = ctx;
    const touched: number[] = [];
    const add = (w: number, doc: number, tf: number) => {
      if (!ctx.chunks.accepts(doc, ctx.mask)) return;
      if (scores[doc] === 0) touched.push(doc);
      scores[doc] = (scores[doc] as number) + ctx.score(w, tf, doc);
    };
    terms.forEach(([term], t) => {
      const w = weights[t] as number;
      if (w === 0) return;
      if (!this.pruning) {
        for (const list of lists[t] as (SegList | null)[]) {
          if (!list) continue;
          buf.clear();
          buf.decodeList(list);
          work.postings += buf.n;
          for (let i = 0; i < buf.n; i++) add(w, buf.docs[i] as number, buf.tfs[i] as number);
        }
      }
      for (const collection of collections)
        this.store.tails.get(collection)?.each(term, (doc, tf) => {
          work.postings++;
          add(w, doc, tf);
        });
    });
    for (const doc of touched) {
      heap.offer(doc, scores[doc] as number);
      scores[doc] = 0;
    }
    work.scored = touched.length;
  }

  /** The analysed query with each term's IDF-based weight in the filter's collections (0 for terms absent from them). */
  queryTerms(query: string, options: { filter?: SearchFilter } = {}): QueryTerm[] {
    const store = this.store;
    const scope = store.chunks.scope(options.filter?.collectionIds);
    const n = scope.live;
    const last = this.lastDf;
    const known = last?.query === query && last.scope === scope.key && last.generation === store.generation ? last.df : null;
    const collections = store.collectionsOf(options.filter);
    const segs = this.segmentsOf(collections);
    const work = this.lastWork;
    return [...countTerms(this.analyze(query)).keys()].map((term) => {
      const df =
        n === 0 ? 0 : (known?.get(term) ?? liveDf(store, term, segs, readLists(store, term, segs, work), collections, work));
      return { term, weight: df === 0 ? 0 : termWeight(term, this.params) * idf(df, n) };
    });
  }
}
