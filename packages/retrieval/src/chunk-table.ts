import type { SearchFilter } from '@pinpoint/core';

function sameValues(a: string[], b: string[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/** Strings ↔ small integers (version, document and collection ids of the chunk table). */
class Interner {
  private readonly ids = new Map<string, number>();
  private lastMask: { values: string[]; known: number; mask: Uint8Array } | null = null;
  /** id → value. */
  readonly values: string[] = [];

  constructor(values: string[] = []) {
    for (const v of values) this.id(v);
  }

  id(value: string): number {
    let id = this.ids.get(value);
    if (id === undefined) {
      id = this.ids.size;
      this.ids.set(value, id);
      this.values.push(value);
    }
    return id;
  }

  /** The ids of the given values that are known. */
  known(values: string[]): number[] {
    const out: number[] = [];
    for (const v of values) {
      const id = this.ids.get(v);
      if (id !== undefined) out.push(id);
    }
    return out;
  }

  /**
   * One flag per id: set for the given values (unknown ones match nothing). The last mask is kept
   * while the values and the known ids are the same: a search filtered to the newest versions passes
   * the same tens of thousands of version ids question after question, and looking each up again
   * was a millisecond a question per 5,000 versions. A mask is shared: never written by a caller.
   */
  mask(values: string[]): Uint8Array {
    const last = this.lastMask;
    if (last && last.known === this.ids.size && sameValues(last.values, values)) return last.mask;
    const out = new Uint8Array(this.ids.size);
    for (const v of values) {
      const id = this.ids.get(v);
      if (id !== undefined) out[id] = 1;
    }
    this.lastMask = { values: [...values], known: this.ids.size, mask: out };
    return out;
  }
}

export interface ChunkFields {
  version: string;
  document: string;
  collection: string;
  page: number | null;
  len: number;
}

/**
 * The BM25 statistics of a set of collections: live chunks, their total length, and which
 * collections count (null: every collection). Scores are computed from these alone, so documents of
 * collections outside the set never move a score.
 */
export interface Scope {
  collections: Uint8Array | null;
  live: number;
  totalLen: number;
  /** Identifies the set (for caching per-term statistics). */
  key: string;
}

/** What a query may see: per field the allowed ids, or null for any. */
export interface FilterMask {
  version: Uint8Array | null;
  document: Uint8Array | null;
  collection: Uint8Array | null;
  pages: Set<number> | null;
}

function grow(a: Int32Array<ArrayBuffer>, size: number): Int32Array<ArrayBuffer> {
  if (a.length >= size) return a;
  const next = new Int32Array(Math.max(size, a.length * 2));
  next.set(a);
  return next;
}

/**
 * The per-chunk fields scoring and filtering read, as typed arrays indexed by chunk number (a few
 * dozen bytes per chunk, so a million chunks fit in tens of MB). The stored length is the chunk's
 * term count + 1, so 0 means dead or absent.
 */
export class ChunkTable {
  private lens = new Int32Array(1024);
  private versions = new Int32Array(1024);
  private documents = new Int32Array(1024);
  private collections = new Int32Array(1024);
  private pages = new Int32Array(1024);
  private versionIds = new Interner();
  private documentIds = new Interner();
  private collectionIds = new Interner();
  /** Per collection id: live chunks and their total length. */
  private colLive: number[] = [];
  private colLen: number[] = [];
  /** Chunk numbers below this may be in use. */
  capacity = 0;
  live = 0;
  totalLen = 0;

  add(doc: number, f: ChunkFields): void {
    const size = doc + 1;
    this.lens = grow(this.lens, size);
    this.versions = grow(this.versions, size);
    this.documents = grow(this.documents, size);
    this.collections = grow(this.collections, size);
    this.pages = grow(this.pages, size);
    if (size > this.capacity) this.capacity = size;
    this.lens[doc] = f.len + 1;
    this.versions[doc] = this.versionIds.id(f.version);
    this.documents[doc] = this.documentIds.id(f.document);
    const col = this.collectionIds.id(f.collection);
    this.collections[doc] = col;
    this.pages[doc] = f.page ?? -1;
    this.live++;
    this.totalLen += f.len;
    this.colLive[col] = (this.colLive[col] ?? 0) + 1;
    this.colLen[col] = (this.colLen[col] ?? 0) + f.len;
  }

  remove(doc: number): void {
    const stored = this.lens[doc] ?? 0;
    if (stored === 0) return;
    this.lens[doc] = 0;
    this.live--;
    this.totalLen -= stored - 1;
    const col = this.collections[doc] as number;
    this.colLive[col] = (this.colLive[col] as number) - 1;
    this.colLen[col] = (this.colLen[col] as number) - (stored - 1);
  }

  /** The collection of a chunk (live or dead, as long as it was added). */
  collectionOf(doc: number): string {
    return this.collectionIds.values[this.collections[doc] as number] as string;
  }

  /**
   * Everything as arrays of bytes and one JSON text (what a reopen restores instead of reading every
   * chunk row).
   */
  snapshot(): { arrays: Uint8Array[]; json: string } {
    const cut = (a: Int32Array) => new Uint8Array(a.buffer, 0, this.capacity * 4);
    return {
      arrays: [this.lens, this.versions, this.documents, this.collections, this.pages].map(cut),
      json: JSON.stringify({
        capacity: this.capacity,
        live: this.live,
        totalLen: this.totalLen,
        colLive: this.colLive,
        colLen: this.colLen,
        versions: this.versionIds.values,
        documents: this.documentIds.values,
        collections: this.collectionIds.values,
      }),
    };
  }

  /** Restores a snapshot taken by `snapshot` (into an empty table). */
  restore(arrays: Uint8Array[], json: string): void {
    const s = JSON.parse(json) as {
      capacity: number;
      live: number;
      totalLen: number;
      colLive: number[];
      colLen: number[];
      versions: string[];
      documents: string[];
      collections: string[];
    };
    const size = Math.max(1024, s.capacity);
    const [lens, versions, documents, collections, pages] = arrays.map((bytes) => {
      const a = new Int32Array(size);
      a.set(new Int32Array(new Uint8Array(bytes).buffer, 0, s.capacity));
      return a;
    }) as Int32Array<ArrayBuffer>[];
    if (!lens || !versions || !documents || !collections || !pages) throw new Error('chunk table snapshot is incomplete');
    this.lens = lens;
    this.versions = versions;
    this.documents = documents;
    this.collections = collections;
    this.pages = pages;
    this.capacity = s.capacity;
    this.live = s.live;
    this.totalLen = s.totalLen;
    this.colLive = s.colLive;
    this.colLen = s.colLen;
    this.versionIds = new Interner(s.versions);
    this.documentIds = new Interner(s.documents);
    this.collectionIds = new Interner(s.collections);
  }

  /** The statistics of the given collections (every collection when undefined). */
  scope(collectionIds: string[] | undefined): Scope {
    if (collectionIds === undefined) return { collections: null, live: this.live, totalLen: this.totalLen, key: '*' };
    const ids = [...new Set(this.collectionIds.known(collectionIds))].sort((a, b) => a - b);
    let live = 0;
    let totalLen = 0;
    for (const id of ids) {
      live += this.colLive[id] ?? 0;
      totalLen += this.colLen[id] ?? 0;
    }
    return { collections: this.collectionIds.mask(collectionIds), live, totalLen, key: ids.join(',') };
  }

  alive(doc: number): boolean {
    return (this.lens[doc] ?? 0) > 0;
  }

  len(doc: number): number {
    return (this.lens[doc] as number) - 1;
  }

  /** Every chunk's length + 1 (0: deleted or never added), by chunk number: the table's own array, only to be read (and only until the next add). */
  storedLensView(): Int32Array {
    return this.lens;
  }

  /** Every chunk's length + 1 (0: deleted or never added), by chunk number: a copy. */
  storedLens(): Int32Array {
    return this.lens.slice(0, this.capacity);
  }

  /** The filter as masks; 'none' when it can match nothing. */
  mask(filter: SearchFilter | undefined): FilterMask | 'none' {
    const f = filter ?? {};
    if ([f.collectionIds, f.documentIds, f.versionIds, f.pageIndexes].some((list) => list?.length === 0)) return 'none';
    return {
      version: f.versionIds ? this.versionIds.mask(f.versionIds) : null,
      document: f.documentIds ? this.documentIds.mask(f.documentIds) : null,
      collection: f.collectionIds ? this.collectionIds.mask(f.collectionIds) : null,
      pages: f.pageIndexes ? new Set(f.pageIndexes) : null,
    };
  }

  accepts(doc: number, m: FilterMask): boolean {
    return (
      (this.lens[doc] as number) > 0 &&
      (m.version === null || m.version[this.versions[doc] as number] === 1) &&
      (m.collection === null || m.collection[this.collections[doc] as number] === 1) &&
      (m.document === null || m.document[this.documents[doc] as number] === 1) &&
      (m.pages === null || m.pages.has(this.pages[doc] as number))
    );
  }
}
