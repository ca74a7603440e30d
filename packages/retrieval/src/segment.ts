import { type LexicalStore, readRow, type Segment } from './lexical-store.js';
import { blockFormat } from './merge.js';
import { type BlockedList, ListCursor, partedList, skipTable, wholeList } from './postings.js';

/** The read side of segments: a term's lists in a query's segments, and its live document frequency. */

/** One segment's postings list of a term. */
export interface SegList extends BlockedList {
  n: number;
}

/**
 * Work of a search (what the access tests compare): postings lists looked up, postings decoded,
 * chunks scored, blocks passed over without decoding, parts of long lists read.
 */
export interface SearchWork {
  lists: number;
  postings: number;
  scored: number;
  skipped: number;
  parts: number;
}

const EMPTY = new Float64Array(0);

/** The lists of `term` in the segments (null where a segment has none). */
export function readLists(store: LexicalStore, term: string, segs: number[], work: SearchWork): (SegList | null)[] {
  return segs.map((seg) => {
    work.lists++;
    const format = blockFormat((store.segInfo.get(seg) as Segment).format);
    const stmts = store.segStmts(seg);
    const key = `${seg}\u0000${term}`;
    const row = store.rows.get(key, () => readRow(stmts, term));
    if (!row) return null;
    const skip = skipTable(row[1]);
    // an empty list is never written: no data means a list in parts
    const source =
      row[2].length > 0
        ? wholeList(row[2])
        : partedList(skip, (part) => {
            work.parts++;
            return store.rows.get(`${key}\u0000${part}`, () => stmts.part.get(term, part) as Uint8Array);
          });
    return { n: row[0], skip, source, format };
  });
}

/**
 * The document frequency of a term among the live chunks of the collections: a segment's list
 * gives its count, less the segment's deleted chunks found in it (only the blocks that may hold
 * them are decoded); the tails' postings are counted one by one.
 */
export function liveDf(
  store: LexicalStore,
  term: string,
  segs: number[],
  lists: (SegList | null)[],
  collections: string[],
  work: SearchWork,
): number {
  let df = 0;
  lists.forEach((list, i) => {
    if (!list) return;
    df += list.n;
    const { dead } = store.segInfo.get(segs[i] as number) as Segment;
    if (dead.length === 0) return;
    const c = new ListCursor(list, EMPTY);
    for (const doc of dead) {
      c.seek(doc);
      if (c.doc === Number.POSITIVE_INFINITY) break;
      if (c.doc === doc) df--;
    }
    work.postings += c.decodedPostings;
  });
  for (const collection of collections) {
    store.tails.get(collection)?.each(term, (doc) => {
      if (store.chunks.alive(doc)) df++;
    });
  }
  return df;
}
