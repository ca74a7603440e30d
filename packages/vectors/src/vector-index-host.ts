import { createError, type LexicalHit, type SearchFilter } from '@pinpoint/core';
import Database from 'better-sqlite3';
import { loadSnapshot, saveSnapshot } from './ann-snapshot.js';
import type { VectorMeta } from './filter.js';
import { decodeVector, decodeVectorInto } from './vector-codec.js';
import { VectorIndex, type VectorReader } from './vector-index.js';
import { idsTable, rowsTable, type VectorLayout, vectorLayout } from './vector-tables.js';

/**
 * What the embedded store's index thread does: it opens a VectorIndex from the SQLite file (or from
 * the entries the store hands over when it crosses the threshold) and answers the store's calls.
 */
export interface VectorIndexInit {
  dimensions: number;
  threshold: number;
  /** The store's SQLite file, where the exact vectors are read back past the threshold; null in memory. */
  path: string | null;
  source: { kind: 'file'; path: string } | { kind: 'entries'; entries: VectorMeta[]; vectors: Float32Array };
}

export interface VectorRow {
  chunk_id: string;
  version_id: string;
  document_id: string;
  collection_id: string;
  page_index: number | null;
  vector?: Buffer;
}

const META = 'SELECT chunk_id, version_id, document_id, collection_id, page_index FROM';

function metaOf(row: VectorRow): VectorMeta {
  const { page_index, vector: _, ...ids } = row;
  return page_index === null ? ids : { ...ids, page_index };
}

function* metaRows(db: Database.Database, layout: VectorLayout): Iterable<VectorMeta> {
  for (const row of db.prepare(`${META} ${idsTable(layout)}`).iterate() as IterableIterator<VectorRow>) yield metaOf(row);
}

/**
 * The exact vectors of chunks, read from the store's file on a connection of the index thread's own
 * (WAL: it reads what the store committed, and the store writes a vector before the index hears of it).
 */
function sqliteVectorReader(path: string, dimensions: number): VectorReader {
  const db = new Database(path, { readonly: true });
  const read = db.prepare('SELECT chunk_id, vector FROM pp_vectors WHERE chunk_id IN (SELECT value FROM json_each(?))');
  return (chunkIds) => {
    const found = new Map<string, Float32Array>();
    for (const row of read.iterate(JSON.stringify(chunkIds)) as IterableIterator<{ chunk_id: string; vector: Buffer }>)
      found.set(row.chunk_id, decodeVector(row.vector, dimensions));
    return chunkIds.map((id) => found.get(id));
  };
}

/** How far a graph built again at open has come: vectors added, of all the file holds. */
export interface RebuildProgress {
  done: number;
  total: number;
}

/** Entries none of which the index holds yet (rows of a table keyed by chunk, an index handed over whole). */
const allNew = (entries: readonly unknown[]) => entries.map(() => null);

/** Rows of pp_vectors in batches of 4,096, each batch's vectors in one array; `added` after each batch with the rows added so far. */
export function addRows(index: VectorIndex, rows: IterableIterator<VectorRow>, added?: (done: number) => void): void {
  const batch = 4096;
  let done = 0;
  let metas: VectorMeta[] = [];
  let vectors = new Float32Array(batch * index.dimensions);
  for (const row of rows) {
    decodeVectorInto(row.vector as Buffer, vectors, metas.length * index.dimensions, index.dimensions);
    metas.push(metaOf(row));
    if (metas.length === batch) {
      index.add(metas, vectors, allNew(metas));
      done += metas.length;
      added?.(done);
      metas = [];
      vectors = new Float32Array(batch * index.dimensions);
    }
  }
  index.add(metas, vectors, allNew(metas));
  added?.(done + metas.length);
}

/**
 * The saved graph when it was written at the file's current generation, with the metadata saved with
 * it (or, from a snapshot without it, read from the rows); else every vector read again and the graph
 * built anew, its progress told to `progress` (from 0 of the total to the total).
 */
function loadFile(index: VectorIndex, path: string, progress?: (p: RebuildProgress) => void): void {
  const db = new Database(path, { readonly: true });
  try {
    db.transaction(() => {
      const { n } = db.prepare('SELECT n FROM pp_vectors_generation WHERE id = 1').get() as { n: number };
      const snapshot = loadSnapshot(path, n, index.dimensions);
      if (snapshot?.meta && index.adoptGraph(snapshot)) return;
      const layout = vectorLayout(db) ?? 'single';
      if (snapshot && index.adoptGraph(snapshot, metaRows(db, layout))) return;
      const { total } = db.prepare(`SELECT COUNT(*) AS total FROM ${rowsTable(layout)}`).get() as { total: number };
      progress?.({ done: 0, total });
      addRows(index, db.prepare('SELECT * FROM pp_vectors').iterate() as IterableIterator<VectorRow>, (done) =>
        progress?.({ done, total }),
      );
    })();
  } finally {
    db.close();
  }
}

export function openVectorIndex(init: VectorIndexInit, progress?: (p: RebuildProgress) => void): VectorIndex {
  const index = new VectorIndex(
    init.dimensions,
    init.threshold,
    init.path ? sqliteVectorReader(init.path, init.dimensions) : undefined,
  );
  if (init.source.kind === 'file') loadFile(index, init.source.path, progress);
  else index.add(init.source.entries, init.source.vectors, allNew(init.source.entries));
  return index;
}

/**
 * A search names its filter whole, or — when it is the one the last search sent — by `filterId`
 * alone, so a filter of tens of thousands of version ids is not copied to the thread per question.
 */
export interface VectorSearchCall {
  q: Float32Array;
  k: number;
  filter?: SearchFilter;
  filterId?: number;
}

export function vectorIndexHandlers(index: VectorIndex) {
  let held: { id: number; filter: SearchFilter } | null = null;
  const filterOf = (p: VectorSearchCall): SearchFilter | undefined => {
    if (p.filter) {
      held = p.filterId === undefined ? null : { id: p.filterId, filter: p.filter };
      return p.filter;
    }
    if (p.filterId === undefined) return undefined;
    // Never search unfiltered in place of a filter the thread does not hold.
    if (held?.id !== p.filterId)
      throw createError('PP_INTERNAL', `vector search filter ${p.filterId} is not held by the index thread`);
    return held.filter;
  };
  return {
    add: (p: { entries: VectorMeta[]; vectors: Float32Array; stored: (string | null)[] }): void =>
      index.add(p.entries, p.vectors, p.stored),
    deleteVersion: (versionId: string): void => index.deleteVersion(versionId),
    search: (p: VectorSearchCall): LexicalHit[] => index.search(p.q, p.k, filterOf(p)),
    saveSnapshot: (p: { path: string; generation: number }): void => {
      const graph = index.graph();
      if (graph) saveSnapshot(p.path, graph, p.generation, index.dimensions);
    },
  };
}

export type VectorIndexHandlers = ReturnType<typeof vectorIndexHandlers>;
