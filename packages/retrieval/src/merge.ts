import { createError } from '@pinpoint/core/errors';
import { transferring } from '@pinpoint/threads';
import Database from 'better-sqlite3';
import { PACKED, type PostingsFormat, VARINT } from './block-codec.js';
import { type EncodedList, PostingsBuffer, PostingsWriter } from './postings.js';

/**
 * The table of a segment's lists, one per segment: a query's lookup and a merge's read stay within
 * one segment's B-tree, and a merged segment goes with one DROP TABLE instead of a delete per row
 * (deleting the rows of eight merged segments took a third of the merge's time).
 */
export const segTable = (seg: number) => `lex_seg_${Math.trunc(seg)}`;

/** The table of a segment's long lists' parts (see createSegTable). */
export const partsTable = (seg: number) => `lex_seg_${Math.trunc(seg)}_parts`;

/**
 * The table of a segment's lists of one block (SHORT_LISTS segments): WITHOUT ROWID, keyed by term,
 * its rows a few dozen bytes (see createSegTable). Not named lex_seg_N_…, so that lex_seg_N is the
 * segment's one table of that prefix but its parts.
 */
export const shortTable = (seg: number) => `lex_short_${Math.trunc(seg)}`;

/**
 * A segment's format as lex_segments records it: VARINT or PACKED (the block format of all its
 * lists, each in its rowid table with a skip table), or SHORT_LISTS — PACKED blocks, and each list of
 * one block (of at most SHORT_LIST_BYTES) in the segment's short table with no skip table, only its
 * chunks' shortest length beside its bytes.
 */
export type SegmentFormat = PostingsFormat | typeof SHORT_LISTS;
export const SHORT_LISTS = 2;

/** The block format of a segment's lists. */
export const blockFormat = (format: SegmentFormat): PostingsFormat => (format === VARINT ? VARINT : PACKED);

/** A UTF-16 unit moved so that units compare in code point order (surrogates above the rest of the BMP). */
function codePointOrder(unit: number): number {
  return unit >= 0xe000 ? unit - 0x800 : unit >= 0xd800 ? unit + 0x2000 : unit;
}

/** Strings in SQLite's BINARY order (UTF-8 bytes, that is code points), not JavaScript's UTF-16 order. */
export function compareBinary(a: string, b: string): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const x = a.charCodeAt(i);
    const y = b.charCodeAt(i);
    if (x !== y) return codePointOrder(x) - codePointOrder(y);
  }
  return a.length - b.length;
}

/** A list's bytes as a segment stores them, with the segment's block format. */
export interface StoredList {
  data: Uint8Array;
  format: PostingsFormat;
}

/**
 * The postings rows of the segments a merge reads, term by term in term order, read a page of each
 * segment at a time (a k-way merge of their primary-key order): no list of every term of the merged
 * segments, which at a million chunks is millions of strings read in one statement of seconds.
 */
export class MergeReader {
  private readonly pages: { rows: [string, Uint8Array][]; at: number; end: boolean }[];
  private readonly first: Database.Statement[];
  private readonly after: Database.Statement[];
  private readonly parts: Database.Statement[];

  private readonly formats: PostingsFormat[];

  /** `formats`: each segment's format. A SHORT_LISTS segment's two tables are read as one, in term order. */
  constructor(db: Database.Database, segs: number[], formats: SegmentFormat[]) {
    this.formats = formats.map(blockFormat);
    this.parts = segs.map((s) => db.prepare(`SELECT data FROM ${partsTable(s)} WHERE term = ? ORDER BY part`).pluck());
    // both tables' rows in term order: SQLite merges the two ordered scans, a page at a time
    const rows = (i: number, where: string) => {
      const s = segs[i] as number;
      return formats[i] === SHORT_LISTS
        ? `SELECT term, data FROM ${segTable(s)} ${where} UNION ALL SELECT term, data FROM ${shortTable(s)} ${where}`
        : `SELECT term, data FROM ${segTable(s)} ${where}`;
    };
    this.first = segs.map((_, i) => db.prepare(`${rows(i, '')} ORDER BY term LIMIT @limit`).raw());
    this.after = segs.map((_, i) => db.prepare(`${rows(i, 'WHERE term > @last')} ORDER BY term LIMIT @limit`).raw());
    this.pages = segs.map(() => ({ rows: [], at: 0, end: false }));
  }

  /**
   * The next terms with their lists (oldest segment first): every term up to the smallest last term
   * of a page read, so each term comes once with the lists of all segments; null when all are read.
   * Reads at most `pageSize` rows of each segment whose page ran out.
   */
  next(pageSize: number): [string, StoredList[]][] | null {
    let bound: string | null = null;
    for (const [i, page] of this.pages.entries()) {
      if (page.at === page.rows.length && !page.end) {
        const last = page.rows.at(-1)?.[0];
        page.rows = (
          last === undefined
            ? (this.first[i] as Database.Statement).all({ limit: pageSize })
            : (this.after[i] as Database.Statement).all({ last, limit: pageSize })
        ) as [string, Uint8Array][];
        page.at = 0;
        page.end = page.rows.length < pageSize;
      }
      const last = page.rows.at(-1)?.[0];
      if (!page.end && last !== undefined && (bound === null || compareBinary(last, bound) < 0)) bound = last;
    }
    const byTerm = new Map<string, StoredList[]>();
    for (const [i, page] of this.pages.entries()) {
      for (; page.at < page.rows.length; page.at++) {
        const [term, stored] = page.rows[page.at] as [string, Uint8Array];
        if (bound !== null && compareBinary(term, bound) > 0) break;
        // an empty list is never written: no data means a list in parts
        const data = stored.length > 0 ? stored : Buffer.concat((this.parts[i] as Database.Statement).all(term) as Uint8Array[]);
        const list = { data, format: this.formats[i] as PostingsFormat };
        const lists = byTerm.get(term);
        if (lists) lists.push(list);
        else byTerm.set(term, [list]);
      }
    }
    if (byTerm.size === 0) return null;
    return [...byTerm].sort((a, b) => compareBinary(a[0], b[0]));
  }
}

/**
 * One term's lists of the merged segments (oldest first) as one list: concatenated (their chunk
 * ranges follow each other) and cut into blocks anew in the PACKED format whatever theirs, without
 * the chunks `len` gives no length (−1: deleted).
 */
export class ListMerger {
  private readonly buf = new PostingsBuffer();
  private readonly writer = new PostingsWriter(PACKED);

  constructor(private readonly len: (doc: number) => number) {}

  merge(lists: StoredList[]): EncodedList {
    const { buf, writer } = this;
    for (const { data, format } of lists) {
      buf.clear();
      buf.decode(data, format);
      for (let i = 0; i < buf.n; i++) {
        const doc = buf.docs[i] as number;
        const len = this.len(doc);
        if (len >= 0) writer.add(doc, buf.tfs[i] as number, len);
      }
    }
    return writer.take();
  }
}

/** Merged lists of a batch of terms in flat arrays, so a batch crosses threads in one message. */
export interface MergedBatch {
  terms: string[];
  n: Int32Array;
  /** Where each term's skip table and data end in `skip` and `data`. */
  skipEnds: Int32Array;
  dataEnds: Int32Array;
  skip: Uint8Array;
  data: Uint8Array;
}

function packBatch(lists: [string, EncodedList][]): MergedBatch {
  const n = new Int32Array(lists.length);
  const skipEnds = new Int32Array(lists.length);
  const dataEnds = new Int32Array(lists.length);
  let skipBytes = 0;
  let dataBytes = 0;
  for (const [i, [, list]] of lists.entries()) {
    n[i] = list.n;
    skipEnds[i] = skipBytes += list.skip.length;
    dataEnds[i] = dataBytes += list.data.length;
  }
  const skip = new Uint8Array(skipBytes);
  const data = new Uint8Array(dataBytes);
  for (const [i, [, list]] of lists.entries()) {
    skip.set(list.skip, (skipEnds[i] as number) - list.skip.length);
    data.set(list.data, (dataEnds[i] as number) - list.data.length);
  }
  return { terms: lists.map(([term]) => term), n, skipEnds, dataEnds, skip, data };
}

/**
 * The merge thread: reads the merged segments' rows through a read-only connection of its own and
 * decodes and re-encodes their lists, so the index's thread only writes the merged rows. Segment
 * tables never change once written, so the reads need no coordination with the writer.
 * `lens`: each chunk's stored length + 1 as the merge begins (0: deleted), indexed by chunk number;
 * `formats`: each merged segment's format.
 */
export function mergeHandlers(path: string) {
  const db = new Database(path, { readonly: true, fileMustExist: true });
  let job: { reader: MergeReader; merger: ListMerger } | null = null;
  return {
    begin: ({ segs, lens, formats }: { segs: number[]; lens: Int32Array; formats: SegmentFormat[] }) => {
      job = { reader: new MergeReader(db, segs, formats), merger: new ListMerger((doc) => (lens[doc] ?? 0) - 1) };
    },
    /** The next terms' merged lists (those with no live posting left out); null when every term is read. */
    next: (pageSize: number) => {
      if (!job) throw createError('PP_INTERNAL', 'No merge has begun on the merge thread.');
      const { reader, merger } = job;
      const terms = reader.next(pageSize);
      if (terms === null) {
        job = null;
        return null;
      }
      const lists: [string, EncodedList][] = [];
      for (const [term, data] of terms) {
        const list = merger.merge(data);
        if (list.n > 0) lists.push([term, list]);
      }
      const b = packBatch(lists);
      return transferring(
        b,
        [b.n, b.skipEnds, b.dataEnds, b.skip, b.data].map((a) => a.buffer as ArrayBuffer),
      );
    },
  };
}

export type MergeHandlers = ReturnType<typeof mergeHandlers>;
