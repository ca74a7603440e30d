import { existsSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { endianness } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { type LabelMeta, type SavedChunks, savedChunkIds } from './label-table.js';
import { GRAPH_CONFIG, newGraph, type SavedGraph } from './vector-index.js';

/**
 * The graph saved beside the SQLite file at close (`<db>.usearch`, and `<db>.usearch.json` with its
 * settings, the chunk id of each label and the labels' metadata), so a restart neither rebuilds the
 * graph nor reads the metadata rows back. A snapshot is only used when it was written at the store's
 * current generation (bumped by every write) with today's graph settings, so a crash leaves no stale
 * graph, and its metadata is then exactly the table's. Snapshots of the release before the metadata
 * was saved have `labels` alone: the host reads the rest from SQLite. The HNSW files of earlier
 * releases (`<db>.hnsw*`, float graphs of another library) are removed: their vectors are rebuilt from
 * the SQLite file. The graph is opened as a view of its file (see SavedGraph.viewOf).
 */
interface SnapshotMeta {
  generation: number;
  dimensions: number;
  config: typeof GRAPH_CONFIG;
  /** Each label's chunk id (null: a tombstone): snapshots of earlier releases, which had no `ordinals`. */
  labels?: (string | null)[];
  /** SavedChunks.ordinal as base64 (see groupOf), and its odd ids. */
  ordinals?: string;
  odd?: [number, string][];
  /** [version_id, document_id, collection_id] of each group. */
  groups?: [string, string, string][];
  /**
   * Each label's group and page (−1: none), as the little-endian bytes of an Int32Array in base64: a
   * million decode in under a millisecond, where the same as a JSON array of numbers parsed in ~20 ms.
   * A big-endian machine neither writes nor reads them (its opens read the rows).
   */
  groupOf?: string;
  pageOf?: string;
}

const graphFile = (dbPath: string): string => `${dbPath}.usearch`;
const metaFile = (dbPath: string): string => `${dbPath}.usearch.json`;

/** `<db>.hnsw`, `<db>.hnsw.json` and `<db>.hnsw.<g>`: snapshots of the releases before int8 graphs. */
function removeOldGraphs(dbPath: string): void {
  const dir = dirname(dbPath);
  const prefix = `${basename(dbPath)}.hnsw`;
  if (!existsSync(dir)) return;
  for (const f of readdirSync(dir)) if (f === prefix || f.startsWith(`${prefix}.`)) rmSync(join(dir, f), { force: true });
}

const base64Of = (a: Int32Array): string => Buffer.from(a.buffer, a.byteOffset, a.byteLength).toString('base64');

const littleEndian = endianness() === 'LE';

function int32sOf(base64: unknown, length: number): Int32Array | null {
  if (typeof base64 !== 'string' || !littleEndian) return null;
  const bytes = Buffer.from(base64, 'base64');
  if (bytes.byteLength !== length * 4) return null;
  const a = new Int32Array(length);
  new Uint8Array(a.buffer).set(bytes);
  return a;
}

const isIds = (g: unknown): g is [string, string, string] =>
  Array.isArray(g) && g.length === 3 && g.every((id) => typeof id === 'string');

/** The chunk of each label, as ordinals or (earlier releases) as chunk ids; null when the snapshot has neither whole. */
function savedLabelsOf(meta: Partial<SnapshotMeta>): SavedChunks | (string | null)[] | null {
  if (Array.isArray(meta.labels)) return meta.labels;
  if (typeof meta.ordinals !== 'string' || !Array.isArray(meta.odd)) return null;
  const ordinal = int32sOf(meta.ordinals, Buffer.byteLength(meta.ordinals, 'base64') / 4);
  const odd = meta.odd.every((e) => Array.isArray(e) && typeof e[0] === 'number' && typeof e[1] === 'string');
  return ordinal && odd ? { ordinal, odd: meta.odd } : null;
}

/** The labels' metadata, when the snapshot holds it whole. */
function savedMetaOf(meta: Partial<SnapshotMeta>, length: number): LabelMeta | null {
  const groupOf = int32sOf(meta.groupOf, length);
  const pageOf = int32sOf(meta.pageOf, length);
  if (!groupOf || !pageOf || !Array.isArray(meta.groups) || !meta.groups.every(isIds)) return null;
  return { groups: meta.groups, groupOf, pageOf };
}

export function saveSnapshot(dbPath: string, graph: SavedGraph, generation: number, dimensions: number): void {
  rmSync(metaFile(dbPath), { force: true });
  // A graph still viewing the file is the file: only the labels can have changed (deletes). Another
  // graph is written beside it and renamed over it, so a view of the old file (this process's, or
  // another's) keeps reading the old one, never a file cut short under it.
  if (graph.viewOf !== graphFile(dbPath)) {
    graph.index.save(`${graphFile(dbPath)}.tmp`);
    renameSync(`${graphFile(dbPath)}.tmp`, graphFile(dbPath));
  }
  removeOldGraphs(dbPath);
  const meta: SnapshotMeta = { generation, dimensions, config: GRAPH_CONFIG };
  if (graph.meta && littleEndian) {
    meta.groups = graph.meta.groups;
    meta.groupOf = base64Of(graph.meta.groupOf);
    meta.pageOf = base64Of(graph.meta.pageOf);
  }
  // ordinals only beside the groups they count in; else (a big-endian machine) the chunk ids
  if (!Array.isArray(graph.labels) && meta.groups) {
    meta.ordinals = base64Of(graph.labels.ordinal);
    meta.odd = graph.labels.odd;
  } else
    meta.labels =
      graph.meta && !Array.isArray(graph.labels) ? savedChunkIds(graph.labels, graph.meta) : (graph.labels as (string | null)[]);
  writeFileSync(`${metaFile(dbPath)}.tmp`, JSON.stringify(meta));
  renameSync(`${metaFile(dbPath)}.tmp`, metaFile(dbPath));
}

/**
 * The settings that make a graph what it is (metric, int8 codes, connectivity). The expansions, on
 * search and on add (how hard a new vector looks for its neighbours), are today's whatever a saved
 * graph was built with: a graph saved with others is kept, and new vectors join it with today's.
 */
function shapeOf(config: Partial<typeof GRAPH_CONFIG>): Partial<typeof GRAPH_CONFIG> {
  const { expansion_search: _, expansion_add: __, ...shape } = config;
  return shape;
}

export function loadSnapshot(dbPath: string, generation: number, dimensions: number): SavedGraph | null {
  removeOldGraphs(dbPath);
  if (!existsSync(metaFile(dbPath)) || !existsSync(graphFile(dbPath))) return null;
  try {
    const meta = JSON.parse(readFileSync(metaFile(dbPath), 'utf8')) as Partial<SnapshotMeta>;
    if (meta.generation !== generation || meta.dimensions !== dimensions) return null;
    if (JSON.stringify(shapeOf(meta.config ?? {})) !== JSON.stringify(shapeOf(GRAPH_CONFIG))) return null;
    const labels = savedLabelsOf(meta);
    if (!labels) return null;
    const index = newGraph(dimensions);
    index.view(graphFile(dbPath));
    const viewOf = graphFile(dbPath);
    const length = Array.isArray(labels) ? labels.length : labels.ordinal.length;
    const saved = savedMetaOf(meta, length);
    if (!saved && !Array.isArray(labels)) return null;
    return saved ? { index, labels, meta: saved, viewOf } : { index, labels, viewOf };
  } catch {
    return null;
  }
}
