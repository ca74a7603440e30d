import { createError, type SearchFilter } from '@pinpoint/core';
import { matchesFilter, type VectorMeta } from './filter.js';

/**
 * One distinct (version, document, collection) of the index's entries. A version's chunks share all
 * three ids, so a million entries make tens of thousands of groups, and the ids are held once each.
 */
interface Group {
  version_id: string;
  document_id: string;
  collection_id: string;
  live: number;
  /** Every label registered in the group, in order; forgotten ones stay until they outnumber the live. */
  labels: number[];
}

/** What a snapshot keeps beside each label's chunk id, so that an open reads no metadata from SQLite. */
export interface LabelMeta {
  /** [version_id, document_id, collection_id] of each group. */
  groups: [string, string, string][];
  /** Each label's group (−1: a tombstone). */
  groupOf: Int32Array;
  /** Each label's page_index (−1: none). */
  pageOf: Int32Array;
}

/**
 * The chunk of each saved label, as a snapshot keeps it: per label its chunk's ordinal in its version
 * (the engine's ids are the version id, `:c` and six digits), −1 for a tombstone, −2 for an id of
 * another shape, then in `odd` by label. A million labels are 4 MB instead of 35 MB of JSON strings,
 * and open without a string made or parsed per label.
 */
export interface SavedChunks {
  ordinal: Int32Array;
  odd: [number, string][];
}

/** The chunk ids of saved labels (null: a tombstone), from either form a snapshot holds. */
export function savedChunkIds(chunks: SavedChunks | (string | null)[], meta: LabelMeta): (string | null)[] {
  if (Array.isArray(chunks)) return chunks;
  const odd = new Map(chunks.odd);
  return Array.from(chunks.ordinal, (ordinal, label) => {
    if (ordinal === FORGOTTEN) return null;
    if (ordinal === ODD) return odd.get(label) ?? null;
    const group = meta.groups[meta.groupOf[label] as number];
    return group ? idOf(group[0], ordinal) : null;
  });
}

/** A compiled filter: what a search asks of each label, and how many live labels pass. */
export interface LabelFilter {
  passes(label: number): boolean;
  count(): number;
  /** The labels the filter can match, live or not: those of its versions when it names them, else all. */
  candidates(): Iterable<number>;
}

const NONE = -1;
const MAX_PAGE = 0x7fffffff;

/** Whether a page_index fits the Int32Array the table keeps pages in (−1 standing for none). */
export function isPageIndex(page: number): boolean {
  return Number.isInteger(page) && page >= 0 && page <= MAX_PAGE;
}

function pageCode(page: number | undefined): number {
  if (page === undefined) return NONE;
  if (isPageIndex(page)) return page;
  throw createError('PP_VALIDATION', `page_index ${page} is not an integer from 0 to ${MAX_PAGE}`);
}

/** A label's ordinal when forgotten; when its chunk id is not its version's id, ":c" and six digits (then held in `odd`). */
const FORGOTTEN = -1;
const ODD = -2;

/** The chunk id `${versionId}:c` + six digits: the id the engine gives the chunks of a version. */
function idOf(versionId: string, ordinal: number): string {
  return `${versionId}:c${String(ordinal).padStart(6, '0')}`;
}

/** The ordinal whose idOf in this version is `chunkId`, else ODD. */
function ordinalOf(versionId: string, chunkId: string): number {
  const v = versionId.length;
  if (chunkId.length !== v + 8 || !chunkId.startsWith(versionId) || chunkId[v] !== ':' || chunkId[v + 1] !== 'c') return ODD;
  const ordinal = Number(chunkId.slice(v + 2));
  return Number.isInteger(ordinal) && ordinal >= 0 && idOf(versionId, ordinal) === chunkId ? ordinal : ODD;
}

function grown(a: Int32Array<ArrayBuffer>, length: number): Int32Array<ArrayBuffer> {
  if (length <= a.length) return a;
  const b = new Int32Array(Math.max(length, 2 * a.length));
  b.set(a);
  return b;
}

/**
 * What each label of the vector index is: its chunk id (null once forgotten), its group and its page,
 * in three typed arrays instead of an object or a string per label. A chunk id is kept as its ordinal
 * in its version (the engine's chunk ids are the version's id, ":c" and six digits), and only an id
 * of another shape as a string: a million ids as strings took 48 MB of the index thread's heap. The
 * chunk id → label map is built only when an add must find a chunk whose version it is not told
 * (see labelOf).
 */
export class LabelTable {
  /** Labels ever given. */
  private labels = 0;
  /** Per label: the chunk's ordinal in its version, FORGOTTEN, or ODD (its id in `odd`). */
  private ordinal = new Int32Array(256);
  private readonly odd = new Map<number, string>();
  private groupOf = new Int32Array(256);
  private pageOf = new Int32Array(256);
  /** Undefined once a group has no live label left (a new one is made if its ids come back). */
  private readonly groups: (Group | undefined)[] = [];
  private readonly groupsOfVersion = new Map<string, number[]>();
  private readonly perCollection = new Map<string, number>();
  /** Document and collection ids repeat across groups: one string each, dropped with their last group. */
  private readonly interned = new Map<string, { id: string; groups: number }>();
  private byChunk: Map<string, number> | null = null;
  private live = 0;
  /** Bumped by every label registered or forgotten: a pool counted before is stale. */
  changes = 0;

  get size(): number {
    return this.live;
  }

  /** Labels ever given, forgotten ones included. */
  get length(): number {
    return this.labels;
  }

  private isLive(label: number): boolean {
    return label >= 0 && label < this.labels && this.ordinal[label] !== FORGOTTEN;
  }

  chunkOf(label: number): string | null {
    if (!this.isLive(label)) return null;
    const ordinal = this.ordinal[label] as number;
    if (ordinal === ODD) return this.odd.get(label) ?? null;
    return idOf((this.groups[this.groupOf[label] as number] as Group).version_id, ordinal);
  }

  /**
   * A chunk's live label. Given the version it was stored under, it is looked for among that
   * version's labels alone; else in a map of every chunk, made at the first such call and kept up
   * from then on (28 MB of heap at a million labels, which ingestion never needs: its chunks are new,
   * and the store knows the few that are not).
   */
  labelOf(chunkId: string, versionId?: string): number | undefined {
    if (versionId !== undefined && !this.byChunk) {
      for (const g of this.groupsOfVersion.get(versionId) ?? [])
        for (const label of this.groups[g]?.labels ?? []) if (this.chunkOf(label) === chunkId) return label;
      return undefined;
    }
    if (!this.byChunk) {
      this.byChunk = new Map();
      for (let label = 0; label < this.labels; label++) {
        const id = this.chunkOf(label);
        if (id !== null) this.byChunk.set(id, label);
      }
    }
    return this.byChunk.get(chunkId);
  }

  /** Live labels, in order. */
  liveLabels(): number[] {
    const labels: number[] = [];
    for (let label = 0; label < this.labels; label++) if (this.isLive(label)) labels.push(label);
    return labels;
  }

  entry(label: number): VectorMeta {
    const group = this.groups[this.groupOf[label] as number] as Group;
    const page = this.pageOf[label] as number;
    return {
      chunk_id: this.chunkOf(label) as string,
      version_id: group.version_id,
      document_id: group.document_id,
      collection_id: group.collection_id,
      ...(page === NONE ? {} : { page_index: page }),
    };
  }

  private intern(s: string): string {
    const known = this.interned.get(s);
    if (!known) this.interned.set(s, { id: s, groups: 1 });
    else known.groups++;
    return known?.id ?? s;
  }

  private release(s: string): void {
    const known = this.interned.get(s);
    if (known && --known.groups === 0) this.interned.delete(s);
  }

  private groupFor(versionId: string, documentId: string, collectionId: string): number {
    const ids = this.groupsOfVersion.get(versionId);
    for (const g of ids ?? []) {
      const group = this.groups[g] as Group;
      if (group.document_id === documentId && group.collection_id === collectionId) return g;
    }
    const g = this.groups.length;
    this.groups.push({
      version_id: versionId,
      document_id: this.intern(documentId),
      collection_id: this.intern(collectionId),
      live: 0,
      labels: [],
    });
    if (ids) ids.push(g);
    else this.groupsOfVersion.set(versionId, [g]);
    return g;
  }

  private place(label: number, chunkId: string, g: number, page: number): void {
    const group = this.groups[g] as Group;
    this.labels = Math.max(this.labels, label + 1);
    this.ordinal = grown(this.ordinal, label + 1);
    this.groupOf = grown(this.groupOf, label + 1);
    this.pageOf = grown(this.pageOf, label + 1);
    this.setChunk(label, group.version_id, chunkId);
    this.groupOf[label] = g;
    this.pageOf[label] = page;
    group.live++;
    group.labels.push(label);
    this.perCollection.set(group.collection_id, (this.perCollection.get(group.collection_id) ?? 0) + 1);
    this.live++;
    this.changes++;
  }

  private setChunk(label: number, versionId: string, chunkId: string): void {
    const ordinal = ordinalOf(versionId, chunkId);
    this.ordinal[label] = ordinal;
    if (ordinal === ODD) this.odd.set(label, chunkId);
  }

  /** The next label, for an entry. */
  register(e: VectorMeta): number {
    const page = pageCode(e.page_index);
    const label = this.labels;
    this.place(label, e.chunk_id, this.groupFor(e.version_id, e.document_id, e.collection_id), page);
    this.byChunk?.set(e.chunk_id, label);
    return label;
  }

  forget(label: number): void {
    const chunkId = this.chunkOf(label);
    if (chunkId === null) return;
    this.ordinal[label] = FORGOTTEN;
    this.odd.delete(label);
    if (this.byChunk?.get(chunkId) === label) this.byChunk.delete(chunkId);
    this.live--;
    this.changes++;
    const g = this.groupOf[label] as number;
    const group = this.groups[g] as Group;
    group.live--;
    const left = (this.perCollection.get(group.collection_id) ?? 1) - 1;
    if (left > 0) this.perCollection.set(group.collection_id, left);
    else this.perCollection.delete(group.collection_id);
    if (group.live === 0) this.dropGroup(g);
    // Chunks sent again leave their old labels here: kept until they outnumber the live ones.
    else if (group.labels.length > 2 * group.live + 16) group.labels = group.labels.filter((l) => this.isLive(l));
  }

  private dropGroup(g: number): void {
    const group = this.groups[g] as Group;
    this.groups[g] = undefined;
    const rest = (this.groupsOfVersion.get(group.version_id) ?? []).filter((x) => x !== g);
    if (rest.length > 0) this.groupsOfVersion.set(group.version_id, rest);
    else this.groupsOfVersion.delete(group.version_id);
    this.release(group.document_id);
    this.release(group.collection_id);
  }

  deleteVersion(versionId: string): void {
    for (const g of [...(this.groupsOfVersion.get(versionId) ?? [])])
      for (const label of [...(this.groups[g]?.labels ?? [])]) this.forget(label);
  }

  /**
   * The filter's predicate: its version/document/collection part is answered once per group (and
   * remembered in a byte per group), its page part per label; no object is made per candidate.
   */
  compile(filter: SearchFilter | undefined): LabelFilter {
    if (!filter) {
      return {
        passes: (label) => this.isLive(label),
        count: () => this.live,
        candidates: () => this.allLabels(),
      };
    }
    const { pageIndexes, ...ids } = filter;
    const idsMatch = matchesFilter(ids);
    const pages = pageIndexes && new Set(pageIndexes);
    // Per group: 0 not asked yet, 1 passes, 2 fails. A group's ids never change, so only new groups are unknown.
    let known = new Int8Array(this.groups.length);
    const groupPasses = (g: number): boolean => {
      if (g >= known.length) {
        const more = new Int8Array(Math.max(g + 1, 2 * known.length));
        more.set(known);
        known = more;
      }
      if (known[g] === 0) known[g] = idsMatch(this.groups[g] as Group) ? 1 : 2;
      return known[g] === 1;
    };
    const passes = (label: number): boolean => {
      if (!this.isLive(label) || !groupPasses(this.groupOf[label] as number)) return false;
      const page = this.pageOf[label] as number;
      return !pages || (page !== NONE && pages.has(page));
    };
    const candidates = () => (filter.versionIds ? this.labelsOfVersions(filter.versionIds) : this.allLabels());
    return { passes, candidates, count: () => this.count(filter, groupPasses, passes, candidates) };
  }

  private *allLabels(): Iterable<number> {
    for (let label = 0; label < this.labels; label++) yield label;
  }

  private *labelsOfVersions(versionIds: string[]): Iterable<number> {
    for (const v of new Set(versionIds))
      for (const g of this.groupsOfVersion.get(v) ?? []) yield* (this.groups[g] as Group).labels;
  }

  /** How many live labels pass, counted per group or collection where the filter allows. */
  private count(
    filter: SearchFilter,
    groupPasses: (g: number) => boolean,
    passes: (label: number) => boolean,
    candidates: () => Iterable<number>,
  ): number {
    const { versionIds, collectionIds, documentIds, pageIndexes } = filter;
    let n = 0;
    if (!pageIndexes && versionIds) {
      for (const v of new Set(versionIds))
        for (const g of this.groupsOfVersion.get(v) ?? []) if (groupPasses(g)) n += (this.groups[g] as Group).live;
    } else if (!pageIndexes && !documentIds && collectionIds) {
      for (const c of new Set(collectionIds)) n += this.perCollection.get(c) ?? 0;
    } else if (!pageIndexes) {
      for (const [g, group] of this.groups.entries()) if (group && groupPasses(g)) n += group.live;
    } else for (const label of candidates()) if (passes(label)) n++;
    return n;
  }

  /** The chunks and, for a snapshot, the groups still live and each label's group and page. */
  saved(): { labels: SavedChunks; meta: LabelMeta } {
    const renumbered = new Int32Array(this.groups.length);
    const groups: LabelMeta['groups'] = [];
    for (const [g, group] of this.groups.entries()) {
      if (!group) continue;
      renumbered[g] = groups.length;
      groups.push([group.version_id, group.document_id, group.collection_id]);
    }
    const n = this.labels;
    const groupOf = new Int32Array(n).fill(NONE);
    const pageOf = new Int32Array(n).fill(NONE);
    const ordinal = new Int32Array(n).fill(FORGOTTEN);
    const odd: [number, string][] = [];
    for (let label = 0; label < n; label++) {
      if (!this.isLive(label)) continue;
      const o = this.ordinal[label] as number;
      ordinal[label] = o;
      if (o === ODD) odd.push([label, this.odd.get(label) as string]);
      groupOf[label] = renumbered[this.groupOf[label] as number] as number;
      pageOf[label] = this.pageOf[label] as number;
    }
    return { labels: { ordinal, odd }, meta: { groups, groupOf, pageOf } };
  }

  /** A table of saved labels and their metadata; null when the two do not fit together. */
  static restore(labels: SavedChunks | (string | null)[], meta: LabelMeta): LabelTable | null {
    const { groups, groupOf, pageOf } = meta;
    const ids = Array.isArray(labels) ? labels : null;
    const saved = Array.isArray(labels) ? null : labels;
    const odd = new Map(saved?.odd);
    const n = ids ? ids.length : (saved as SavedChunks).ordinal.length;
    const isTombstone = (label: number) => (ids ? (ids[label] ?? null) === null : saved?.ordinal[label] === FORGOTTEN);
    if (groupOf.length !== n || pageOf.length !== n) return null;
    const table = new LabelTable();
    const slots = Int32Array.from(groups, ([v, d, c]) => table.groupFor(v, d, c));
    table.groupOf = new Int32Array(Math.max(n, 256)).fill(NONE);
    table.pageOf = new Int32Array(Math.max(n, 256)).fill(NONE);
    table.ordinal = new Int32Array(Math.max(n, 256)).fill(FORGOTTEN);
    table.labels = n;
    // Each group's labels in an array of its exact size: counted first, then filled in label order.
    const counts = new Int32Array(table.groups.length);
    for (let label = 0; label < n; label++) {
      if (isTombstone(label)) continue;
      const g = groupOf[label] as number;
      if (g < 0 || g >= slots.length || (pageOf[label] as number) < NONE) return null;
      const slot = slots[g] as number;
      table.groupOf[label] = slot;
      table.pageOf[label] = pageOf[label] as number;
      counts[slot] = (counts[slot] as number) + 1;
    }
    for (const [g, group] of table.groups.entries()) if (group) group.labels = new Array<number>(counts[g] as number);
    for (let label = 0; label < n; label++) {
      if (isTombstone(label)) continue;
      const group = table.groups[table.groupOf[label] as number] as Group;
      group.labels[group.live++] = label;
      if (ids) table.setChunk(label, group.version_id, ids[label] as string);
      else {
        const ordinal = (saved as SavedChunks).ordinal[label] as number;
        if (ordinal < ODD) return null;
        table.ordinal[label] = ordinal;
        if (ordinal !== ODD) continue;
        const id = odd.get(label);
        if (id === undefined) return null;
        table.odd.set(label, id);
      }
    }
    for (const [g, group] of table.groups.entries()) {
      if (!group) continue;
      table.live += group.live;
      if (group.live === 0) table.dropGroup(g);
      else table.perCollection.set(group.collection_id, (table.perCollection.get(group.collection_id) ?? 0) + group.live);
    }
    return table;
  }
}

/**
 * The metadata of saved labels from the store's rows (a snapshot written before it held them); null
 * unless the rows name exactly the live labels' chunks.
 */
export function labelMetaOf(labels: (string | null)[], rows: Iterable<VectorMeta>): LabelMeta | null {
  const labelOf = new Map<string, number>();
  for (const [label, id] of labels.entries()) {
    if (id === null) continue;
    if (labelOf.has(id)) return null;
    labelOf.set(id, label);
  }
  const groupOf = new Int32Array(labels.length).fill(NONE);
  const pageOf = new Int32Array(labels.length).fill(NONE);
  const groups: LabelMeta['groups'] = [];
  const groupsOfVersion = new Map<string, number[]>();
  let seen = 0;
  for (const row of rows) {
    const label = labelOf.get(row.chunk_id);
    if (label === undefined || groupOf[label] !== NONE) return null;
    const ids = groupsOfVersion.get(row.version_id) ?? [];
    let g = ids.find((x) => groups[x]?.[1] === row.document_id && groups[x]?.[2] === row.collection_id);
    if (g === undefined) {
      g = groups.push([row.version_id, row.document_id, row.collection_id]) - 1;
      groupsOfVersion.set(row.version_id, [...ids, g]);
    }
    if (row.page_index !== undefined && !isPageIndex(row.page_index)) return null;
    const page = row.page_index ?? NONE;
    groupOf[label] = g;
    pageOf[label] = page;
    seen++;
  }
  return seen === labelOf.size ? { groups, groupOf, pageOf } : null;
}
