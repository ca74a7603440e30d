import { setImmediate as yieldTurn } from 'node:timers/promises';
import type { ThreadHandle } from '@pinpoint/threads';
import { type LexicalStore, type Segment, type SegStatements, writeEncoded, writeList } from './lexical-store.js';
import {
  ListMerger,
  type MergedBatch,
  type MergeHandlers,
  MergeReader,
  partsTable,
  type SegmentFormat,
  SHORT_LISTS,
  segTable,
  shortTable,
} from './merge.js';

/**
 * A run of this many neighbouring segments of one tier in a collection is merged into one segment of the
 * next tier: a collection of N chunks has at most MERGE_FANIN − 1 segments per tier, about
 * log(N / segmentChunks) / log(MERGE_FANIN) tiers, and every chunk's postings are rewritten once per tier.
 */
const MERGE_FANIN = 8;

/** Free pages given back to the file system per step after a merge (16 MiB of 4 KiB pages). */
const VACUUM_STEP = 4096;

/** Most terms merged per round of reads of each segment (bounds the memory a merge holds). */
const MERGE_BATCH = 2048;

/**
 * A merge's batches are sized to take about this long: a search waits for the batch in progress
 * (merges run on the index's own thread, between its other work), so this bounds that wait.
 */
const MERGE_SLICE_MS = 8;

/** A batch size that follows the time its batches take: halved past twice the target, doubled under half. */
class BatchPace {
  size: number;

  constructor(
    private readonly targetMs: number,
    private readonly min: number,
    private readonly max: number,
  ) {
    this.size = min;
  }

  took(ms: number): void {
    if (ms > 2 * this.targetMs) this.size = Math.max(this.min, this.size >> 1);
    else if (ms < this.targetMs / 2) this.size = Math.min(this.max, this.size * 2);
  }
}

/** The segments whose tables a merge cut short left behind: the one it was writing, or those it had replaced. */
export function unfinishedMergeSegs(store: LexicalStore): number[] {
  const meta = store.db.prepare('SELECT value FROM meta WHERE key = ?').pluck();
  const merging = meta.get('merging') as string | undefined;
  const dropping = meta.get('dropping') as string | undefined;
  return [...(merging === undefined ? [] : [Number(merging)]), ...(dropping ? (JSON.parse(dropping) as number[]) : [])];
}

/** Drops the tables a merge cut short left behind (see unfinishedMergeSegs). */
export function dropUnfinishedMerge(store: LexicalStore): void {
  const segs = unfinishedMergeSegs(store);
  if (segs.length === 0) return;
  store.db.transaction(() => {
    for (const s of segs) store.dropSegTable(s);
    store.db.prepare("DELETE FROM meta WHERE key IN ('merging', 'dropping')").run();
  })();
}

/**
 * The merge policy and the merges it starts: while MERGE_FANIN neighbouring segments of a collection
 * are of one tier, they are merged into one, in the background (one merge at a time; when it ends,
 * every collection is checked again). With a merge thread, the reads and re-encoding run there and
 * this thread only writes the rows; when the thread fails, merges run here.
 */
export class SegmentMerger {
  /** The merge running in the background, if any; `closing` stops it at its next batch. */
  private merging: Promise<void> | null = null;
  private closing = false;

  constructor(
    private readonly store: LexicalStore,
    private thread: ThreadHandle<MergeHandlers> | null,
  ) {}

  /** A segment's tier: log base MERGE_FANIN of its chunks in segments' worth, rounded (0 for one segment's worth or less). */
  private tier(seg: number): number {
    const chunks = (this.store.segInfo.get(seg) as Segment).chunks;
    return Math.max(0, Math.round(Math.log(Math.max(1, chunks) / this.store.segmentChunks) / Math.log(MERGE_FANIN)));
  }

  /**
   * Starts merging the oldest run of MERGE_FANIN neighbouring segments of one tier in the collection,
   * if there is one and no merge runs: a query looks a term up once per segment, and at a million
   * chunks in segments of 20,000 those lookups were half of its time. Merging neighbours keeps a
   * collection's segments in ascending, disjoint ranges of chunk numbers.
   */
  mergeTiers(collection: string): void {
    const store = this.store;
    if (this.merging || this.closing || !store.db.open) return;
    const list = store.segmentsOf(collection);
    let run: number[] | null = null;
    for (let i = 0, same = 0; i < list.length && !run; i++) {
      same = i > 0 && this.tier(list[i] as number) === this.tier(list[i - 1] as number) ? same + 1 : 1;
      if (same === MERGE_FANIN) run = list.slice(i - MERGE_FANIN + 1, i + 1);
    }
    if (!run) return;
    this.merging = this.merge(collection, run)
      .catch((err: unknown) => {
        if (store.db.open) throw err;
      })
      .finally(() => {
        this.merging = null;
        if (!this.closing && store.db.open) for (const c of [...store.segments.keys()]) this.mergeTiers(c);
      });
  }

  /** Resolves when no merge is running or due. */
  async merged(): Promise<void> {
    while (this.merging) await this.merging;
  }

  /** Stops merging at the next batch and waits for it; closes the merge thread. */
  async close(): Promise<void> {
    this.closing = true;
    await this.merging;
    await this.thread?.close();
  }

  /**
   * Writes one segment holding the live postings of `segs` (neighbouring segments of a collection,
   * oldest first) and then drops theirs. Terms are merged in batches, a transaction each, yielding
   * between them, so searches and writes go on meanwhile; the new segment is read only once the
   * last batch is in, and chunks deleted during the merge become its deleted chunks. A merge cut
   * short (close, crash) leaves tables of segments no query reads; they are dropped at the next
   * open (`meta.merging`, `meta.dropping`).
   */
  private async merge(collection: string, segs: number[]): Promise<void> {
    const store = this.store;
    const seg = ++store.lastSeg;
    store.db.prepare("INSERT OR REPLACE INTO meta (key, value) VALUES ('merging', ?)").run(String(seg));
    const deadBefore = new Set(segs.flatMap((s) => (store.segInfo.get(s) as Segment).dead));
    const insert = store.segStmts(seg, true);
    let finished: boolean | null = null;
    if (this.thread) finished = await this.mergeOnThread(this.thread, segs, insert).catch(() => this.stopThread(seg));
    if (finished === null) finished = await this.mergeHere(segs, insert);
    if (!finished) return;
    await yieldTurn();
    if (this.closing) return;
    this.commit(collection, segs, seg, deadBefore);
    // the merged segments' tables, one at a time
    for (const s of segs) {
      await yieldTurn();
      if (this.closing) return;
      store.dropSegTable(s);
    }
    store.db.prepare("DELETE FROM meta WHERE key = 'dropping'").run();
    await this.reclaim();
  }

  /**
   * The pages of the dropped segments back to the file system, VACUUM_STEP pages a transaction,
   * yielding between them (a file made with incremental auto-vacuum; any other keeps its free
   * pages for the next segments). Left free, they were an eighth of a million-chunk index's file.
   */
  private async reclaim(): Promise<void> {
    const db = this.store.db;
    if (db.pragma('auto_vacuum', { simple: true }) !== 2) return;
    const free = () => (db.open ? (db.pragma('freelist_count', { simple: true }) as number) : 0);
    for (let left = free(), before = Number.POSITIVE_INFINITY; !this.closing && left > 0 && left < before; left = free()) {
      before = left;
      db.pragma(`incremental_vacuum(${VACUUM_STEP})`);
      await yieldTurn();
    }
  }

  /** The merged segment replaces `segs`: in the database in one transaction, then in memory. */
  private commit(collection: string, segs: number[], seg: number, deadBefore: Set<number>): void {
    const store = this.store;
    const db = store.db;
    const inList = segs.map(() => '?').join(', ');
    const infos = segs.map((s) => store.segInfo.get(s) as Segment);
    const lastDoc = Math.max(...infos.map((i) => i.lastDoc));
    const chunks = infos.reduce((n, i) => n + i.chunks, 0) - deadBefore.size;
    // deleted while the merge ran: still in its lists
    const dead = infos
      .flatMap((i) => i.dead)
      .filter((doc) => !deadBefore.has(doc))
      .sort((a, b) => a - b);
    db.transaction(() => {
      store.bump();
      db.prepare(`DELETE FROM lex_segments WHERE seg IN (${inList})`).run(...segs);
      db.prepare(`DELETE FROM lex_dead WHERE seg IN (${inList})`).run(...segs);
      store.stmts.insertSegment.run(seg, lastDoc, collection, chunks, SHORT_LISTS);
      for (const doc of dead) store.stmts.addDead.run(doc, seg);
      db.prepare("DELETE FROM meta WHERE key = 'merging'").run();
      db.prepare("INSERT OR REPLACE INTO meta (key, value) VALUES ('dropping', ?)").run(JSON.stringify(segs));
    })();
    const list = store.segmentsOf(collection);
    list.splice(list.indexOf(segs[0] as number), segs.length, seg);
    for (const s of segs) store.segInfo.delete(s);
    store.segInfo.set(seg, { collection, lastDoc, chunks, dead, format: SHORT_LISTS });
  }

  private formats(segs: number[]): SegmentFormat[] {
    return segs.map((s) => (this.store.segInfo.get(s) as Segment).format);
  }

  /** The merge's reads and re-encoding here, between the index's other work. False when the index closed meanwhile. */
  private async mergeHere(segs: number[], insert: SegStatements): Promise<boolean> {
    const { db, chunks } = this.store;
    const reader = new MergeReader(db, segs, this.formats(segs));
    const merger = new ListMerger((doc) => (chunks.alive(doc) ? chunks.len(doc) : -1));
    const pace = new BatchPace(MERGE_SLICE_MS, 64, MERGE_BATCH);
    for (let done = false; !done; ) {
      await yieldTurn();
      if (this.closing) return false;
      const t0 = performance.now();
      db.transaction(() => {
        const batch = reader.next(pace.size);
        done = batch === null;
        for (const [term, lists] of batch ?? []) {
          const list = merger.merge(lists);
          if (list.n > 0) writeEncoded(insert, term, list);
        }
      })();
      pace.took(performance.now() - t0);
    }
    return true;
  }

  /**
   * The merge thread stopped or could not read the file: its partial rows go, and this merge and the
   * later ones run here (null). False when the index is closing.
   */
  private stopThread(seg: number): boolean | null {
    if (this.closing || !this.store.db.open) return false;
    void this.thread?.close().catch(() => undefined);
    this.thread = null;
    this.store.db.exec(`DELETE FROM ${segTable(seg)}; DELETE FROM ${partsTable(seg)}; DELETE FROM ${shortTable(seg)}`);
    return null;
  }

  /**
   * The merge's reads and re-encoding on the merge thread, one batch ahead of the writes here: the
   * thread reads the next batch while this one is written. The chunks deleted before the merge are
   * left out by their lengths as it begins; those deleted while it runs become the merged segment's
   * deleted chunks. False when the index closed meanwhile.
   */
  private async mergeOnThread(thread: ThreadHandle<MergeHandlers>, segs: number[], insert: SegStatements): Promise<boolean> {
    const db = this.store.db;
    const lens = this.store.chunks.storedLens();
    await thread.call('begin', { segs, lens, formats: this.formats(segs) }, [lens.buffer as ArrayBuffer]);
    const pace = new BatchPace(MERGE_SLICE_MS, 64, MERGE_BATCH);
    let next: Promise<MergedBatch | null> = thread.call('next', pace.size);
    for (;;) {
      const batch = await next;
      if (this.closing || !db.open) return false;
      if (batch === null) return true;
      next = thread.call('next', pace.size);
      // awaited after this batch is written; a failure meanwhile is not an unhandled rejection
      next.catch(() => undefined);
      const t0 = performance.now();
      db.transaction(() => {
        for (let i = 0, skipAt = 0, dataAt = 0; i < batch.terms.length; i++) {
          const skipEnd = batch.skipEnds[i] as number;
          const dataEnd = batch.dataEnds[i] as number;
          writeList(
            insert,
            batch.terms[i] as string,
            batch.n[i] as number,
            batch.skip.subarray(skipAt, skipEnd),
            batch.data.subarray(dataAt, dataEnd),
          );
          skipAt = skipEnd;
          dataAt = dataEnd;
        }
      })();
      pace.took(performance.now() - t0);
      await yieldTurn();
    }
  }
}
