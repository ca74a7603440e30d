import type { IndexedChunk } from '@pinpoint/core';
import type { ThreadHandle } from '@pinpoint/threads';
import { PACKED } from './block-codec.js';
import { type LexicalStore, type Segment, writeEncoded } from './lexical-store.js';
import { SHORT_LISTS } from './merge.js';
import { PostingsWriter } from './postings.js';
import { type PackedTermCounts, packTermCounts, type TermCountHandlers } from './term-counts.js';

/** Segments' worth of chunks all tails together may hold before the largest are written. */
const TAIL_BOUND = 8;

/**
 * The write path: upserts go to their collection's in-memory tail (their text saved in
 * lex_pending, so a restart after a crash analyses it again); every `segmentChunks` chunks a tail is
 * written as one immutable segment — per term one blocked postings list, in term order — and
 * `onSegment` hears of it (the merger checks its tiers). Deleting marks chunks dead: their postings
 * stay in the segment and are skipped.
 */
export class LexicalWriter {
  /** Upserts waiting for their terms: close lets them finish first. */
  private readonly upserting = new Set<Promise<unknown>>();

  constructor(
    private readonly store: LexicalStore,
    private readonly analyze: (text: string) => string[],
    private readonly analysis: ThreadHandle<TermCountHandlers> | null,
    private readonly onSegment: (collection: string) => void,
  ) {}

  async upsert(chunks: IndexedChunk[]): Promise<void> {
    const texts = chunks.map((c) => c.retrieval_text);
    const counting =
      this.analysis && texts.length > 0
        ? this.analysis.call('count', texts)
        : Promise.resolve(packTermCounts(texts, this.analyze));
    const done = counting.then((counts) => this.write(chunks, counts));
    const settled: Promise<unknown> = done.then(
      () => this.upserting.delete(settled),
      () => this.upserting.delete(settled),
    );
    this.upserting.add(settled);
    return done;
  }

  /** Resolves when every upsert begun has settled. */
  async settled(): Promise<void> {
    while (this.upserting.size > 0) await Promise.all([...this.upserting]);
  }

  private write(chunks: IndexedChunk[], counts: PackedTermCounts): void {
    const store = this.store;
    const { insert, insertPending, existing } = store.stmts;
    store.db.transaction(() => {
      store.bump();
      for (const [i, c] of chunks.entries()) {
        const old = existing.get(c.chunk_id) as number | undefined;
        if (old !== undefined) this.removeDoc(old);
        const page = c.page_index ?? null;
        const len = counts.lens[i] as number;
        const info = insert.run(c.chunk_id, c.version_id, c.document_id, c.collection_id, page, len);
        const doc = Number(info.lastInsertRowid);
        // The text, not the terms: a fifth of the bytes, analysed again only after a crash.
        insertPending.run(doc, c.retrieval_text);
        store.chunks.add(doc, { version: c.version_id, document: c.document_id, collection: c.collection_id, page, len });
        const from = i === 0 ? 0 : (counts.ends[i - 1] as number);
        store.tailOf(c.collection_id).addRun(doc, counts.terms, counts.tf, from, counts.ends[i] as number);
      }
    })();
    for (const collection of new Set(chunks.map((c) => c.collection_id))) {
      if ((store.tails.get(collection)?.docs.length ?? 0) >= store.segmentChunks) this.flushCollection(collection);
    }
    this.boundTails();
  }

  private removeDoc(doc: number): void {
    const store = this.store;
    store.stmts.deleteDoc.run(doc);
    store.stmts.deletePending.run(doc);
    if (store.chunks.alive(doc) && store.chunks.len(doc) > 0) {
      const seg = store.segmentOf(doc);
      if (seg !== null) {
        store.stmts.addDead.run(doc, seg);
        const dead = (store.segInfo.get(seg) as Segment).dead;
        let i = dead.length;
        while (i > 0 && (dead[i - 1] as number) > doc) i--;
        dead.splice(i, 0, doc);
      }
    }
    store.chunks.remove(doc);
  }

  deleteVersion(versionId: string): void {
    const store = this.store;
    const docs = store.stmts.versionDocs.all(versionId) as number[];
    store.db.transaction(() => {
      store.bump();
      for (const doc of docs) this.removeDoc(doc);
    })();
  }

  /**
   * Many collections each below the segment size could hold unbounded memory in their tails: past
   * TAIL_BOUND segments' worth in all, the largest tails are written out. This is the one way the
   * writes of other collections shape a collection's segments, and only under such write volume.
   */
  private boundTails(): void {
    let total = 0;
    for (const t of this.store.tails.values()) total += t.docs.length;
    while (total > TAIL_BOUND * this.store.segmentChunks) {
      let largest: [string, number] = ['', 0];
      for (const [collection, t] of this.store.tails) if (t.docs.length > largest[1]) largest = [collection, t.docs.length];
      this.flushCollection(largest[0]);
      total -= largest[1];
    }
  }

  /** Writes every collection's tail as a segment. */
  flush(): void {
    for (const collection of [...this.store.tails.keys()]) this.flushCollection(collection);
  }

  /** Writes a collection's tail as a new segment of it (live chunks only) and forgets the saved text of its chunks. */
  flushCollection(collection: string): void {
    const store = this.store;
    const tail = store.tails.get(collection);
    if (!tail) return;
    const seg = store.lastSeg + 1;
    const writer = new PostingsWriter(PACKED);
    const { terms, start, docs, tfs } = tail.sorted();
    const lastDoc = tail.docs.reduce((a, b) => Math.max(a, b), 0);
    const chunks = tail.docs.filter((doc) => store.chunks.alive(doc)).length;
    let written = false;
    store.db.transaction(() => {
      store.bump();
      for (let i = 0; i < terms.length; i++) {
        for (let q = start[i] as number; q < (start[i + 1] as number); q++) {
          const doc = docs[q] as number;
          if (!store.chunks.alive(doc)) continue;
          writer.add(doc, tfs[q] as number, store.chunks.len(doc));
        }
        const list = writer.take();
        if (list.n > 0) {
          writeEncoded(store.segStmts(seg, true), terms[i] as string, list);
          written = true;
        }
      }
      if (written) store.stmts.insertSegment.run(seg, lastDoc, collection, chunks, SHORT_LISTS);
      for (const doc of tail.docs) store.stmts.deletePending.run(doc);
    })();
    if (written) {
      store.segmentsOf(collection).push(seg);
      store.segInfo.set(seg, { collection, lastDoc, chunks, dead: [], format: SHORT_LISTS });
      store.lastSeg = seg;
    }
    store.tails.delete(collection);
    this.onSegment(collection);
  }
}
