import { existsSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { GRAPH_CONFIG, newGraph, type SavedGraph } from './vector-index.js';

/**
 * The graph saved beside the SQLite file at close (`<db>.usearch`, and `<db>.usearch.json` with its
 * settings and the chunk id of each label), so a restart does not rebuild it. A snapshot is only used
 * when it was written at the store's current generation (bumped by every write) with today's graph
 * settings, so a crash leaves no stale graph. The HNSW files of earlier releases (`<db>.hnsw*`, float
 * graphs of another library) are removed: their vectors are rebuilt from the SQLite file.
 */
interface SnapshotMeta {
  generation: number;
  dimensions: number;
  config: typeof GRAPH_CONFIG;
  labels: (string | null)[];
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

export function saveSnapshot(dbPath: string, graph: SavedGraph, generation: number, dimensions: number): void {
  rmSync(metaFile(dbPath), { force: true });
  graph.index.save(graphFile(dbPath));
  removeOldGraphs(dbPath);
  const meta: SnapshotMeta = { generation, dimensions, config: GRAPH_CONFIG, labels: graph.labels };
  writeFileSync(`${metaFile(dbPath)}.tmp`, JSON.stringify(meta));
  renameSync(`${metaFile(dbPath)}.tmp`, metaFile(dbPath));
}

export function loadSnapshot(dbPath: string, generation: number, dimensions: number): SavedGraph | null {
  removeOldGraphs(dbPath);
  if (!existsSync(metaFile(dbPath)) || !existsSync(graphFile(dbPath))) return null;
  try {
    const meta = JSON.parse(readFileSync(metaFile(dbPath), 'utf8')) as Partial<SnapshotMeta>;
    if (meta.generation !== generation || meta.dimensions !== dimensions || !meta.labels) return null;
    if (JSON.stringify(meta.config) !== JSON.stringify(GRAPH_CONFIG)) return null;
    const index = newGraph(dimensions);
    index.load(graphFile(dbPath));
    return { index, labels: meta.labels };
  } catch {
    return null;
  }
}
