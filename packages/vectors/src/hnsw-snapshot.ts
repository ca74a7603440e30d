import { existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import hnswlib from 'hnswlib-node';

/**
 * The HNSW graph saved beside the SQLite file at close (`<db>.hnsw` + `<db>.hnsw.json` with the
 * chunk id of each label), so a restart does not rebuild it. A snapshot is only used when it was
 * written at the store's current generation (bumped by every write), so a crash leaves no stale graph.
 */
interface SnapshotMeta {
  generation: number;
  dimensions: number;
  labels: (string | null)[];
}

export function saveSnapshot(
  dbPath: string,
  ann: hnswlib.HierarchicalNSW,
  labels: (string | null)[],
  generation: number,
  dimensions: number,
): void {
  ann.writeIndexSync(`${dbPath}.hnsw`);
  const meta: SnapshotMeta = { generation, dimensions, labels };
  writeFileSync(`${dbPath}.hnsw.json.tmp`, JSON.stringify(meta));
  renameSync(`${dbPath}.hnsw.json.tmp`, `${dbPath}.hnsw.json`);
}

export function loadSnapshot(
  dbPath: string,
  generation: number,
  dimensions: number,
): { ann: hnswlib.HierarchicalNSW; labels: (string | null)[] } | null {
  if (!existsSync(`${dbPath}.hnsw`) || !existsSync(`${dbPath}.hnsw.json`)) return null;
  try {
    const meta = JSON.parse(readFileSync(`${dbPath}.hnsw.json`, 'utf8')) as SnapshotMeta;
    if (meta.generation !== generation || meta.dimensions !== dimensions) return null;
    const ann = new hnswlib.HierarchicalNSW('ip', dimensions);
    ann.readIndexSync(`${dbPath}.hnsw`);
    return { ann, labels: meta.labels };
  } catch {
    return null;
  }
}
