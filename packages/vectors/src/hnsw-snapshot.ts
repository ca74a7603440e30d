import { existsSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import hnswlib from 'hnswlib-node';

/**
 * The HNSW graphs saved beside the SQLite file at close (`<db>.hnsw.<g>` for graph g, and
 * `<db>.hnsw.json` with the segment size and the chunk id of each label), so a restart does not
 * rebuild them. A snapshot is only used when it was written at the store's current generation (bumped
 * by every write) and for the index's segment size, so a crash leaves no stale graph.
 */
interface SnapshotMeta {
  generation: number;
  dimensions: number;
  segment_size: number;
  segments: number;
  labels: (string | null)[];
}

export interface SavedGraphs {
  segments: hnswlib.HierarchicalNSW[];
  segmentSize: number;
  labels: (string | null)[];
}

const segmentFile = (dbPath: string, g: number): string => `${dbPath}.hnsw.${g}`;

export function saveSnapshot(dbPath: string, graphs: SavedGraphs, generation: number, dimensions: number): void {
  for (const [g, ann] of graphs.segments.entries()) ann.writeIndexSync(segmentFile(dbPath, g));
  // Graphs of an earlier, larger snapshot, and the single graph file snapshots once had.
  for (let g = graphs.segments.length; existsSync(segmentFile(dbPath, g)); g++) rmSync(segmentFile(dbPath, g));
  rmSync(`${dbPath}.hnsw`, { force: true });
  const meta: SnapshotMeta = {
    generation,
    dimensions,
    segment_size: graphs.segmentSize,
    segments: graphs.segments.length,
    labels: graphs.labels,
  };
  writeFileSync(`${dbPath}.hnsw.json.tmp`, JSON.stringify(meta));
  renameSync(`${dbPath}.hnsw.json.tmp`, `${dbPath}.hnsw.json`);
}

export function loadSnapshot(dbPath: string, generation: number, dimensions: number): SavedGraphs | null {
  if (!existsSync(`${dbPath}.hnsw.json`)) return null;
  try {
    const meta = JSON.parse(readFileSync(`${dbPath}.hnsw.json`, 'utf8')) as Partial<SnapshotMeta>;
    if (meta.generation !== generation || meta.dimensions !== dimensions) return null;
    if (typeof meta.segment_size !== 'number' || typeof meta.segments !== 'number' || !meta.labels) return null;
    const segments: hnswlib.HierarchicalNSW[] = [];
    for (let g = 0; g < meta.segments; g++) {
      const ann = new hnswlib.HierarchicalNSW('ip', dimensions);
      ann.readIndexSync(segmentFile(dbPath, g));
      segments.push(ann);
    }
    return { segments, segmentSize: meta.segment_size, labels: meta.labels };
  } catch {
    return null;
  }
}
