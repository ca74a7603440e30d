import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { SearchFilter, VectorRecord, VectorStore } from '@pinpoint/core';
import { seededRandom } from '@pinpoint/testing';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openEmbeddedVectorStore } from './embedded-store.js';
import { type LabelMeta, savedChunkIds } from './label-table.js';
import { GRAPH_CONFIG, type SavedGraph } from './vector-index.js';
import { openVectorIndex } from './vector-index-host.js';

const DIMS = 8;
const THRESHOLD = 20;
let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'pp-snapshot-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

const filters: (SearchFilter | undefined)[] = [
  undefined,
  { collectionIds: ['c1'] },
  { documentIds: ['d2', 'd4'] },
  { versionIds: ['v0', 'v3', 'v3', 'missing'] },
  { pageIndexes: [1, 2] },
  { collectionIds: ['c0', 'c2'], pageIndexes: [0] },
  { versionIds: ['v1', 'v5'], documentIds: ['d5'] },
  { versionIds: [] },
  { pageIndexes: [] },
];

function records(seed: number, n: number): VectorRecord[] {
  const rnd = seededRandom(seed);
  return Array.from({ length: n }, (_, i) => ({
    // the engine's shape of chunk id (version, ":c", six digits) and another, as the label table keeps each
    chunk_id: i % 3 ? `v${i % 6}:c${String(i).padStart(6, '0')}` : `k${i}`,
    version_id: `v${i % 6}`,
    document_id: `d${i % 6}`,
    collection_id: `c${i % 3}`,
    ...(i % 5 === 0 ? {} : { page_index: i % 4 }),
    vector: Float32Array.from({ length: DIMS }, () => rnd() - 0.5),
  }));
}

const queries = Array.from({ length: 5 }, (_, q) => Float32Array.from({ length: DIMS }, seededRandom(100 + q)));

async function answers(store: VectorStore): Promise<unknown[]> {
  const all: unknown[] = [];
  for (const q of queries)
    for (const filter of filters) all.push(await store.search(q, { k: 200, ...(filter ? { filter } : {}) }));
  return all;
}

/** A store past its threshold with replaced chunks and a deleted version (tombstones), closed cleanly; its answers. */
async function savedStore(name: string): Promise<{ path: string; before: unknown[] }> {
  const path = join(dir, `${name}.db`);
  const store = openEmbeddedVectorStore({ path, dimensions: DIMS, annThreshold: THRESHOLD });
  await store.upsert(records(1, 90));
  await store.upsert(records(2, 30).map((r) => ({ ...r, version_id: 'v5', document_id: 'd5', collection_id: 'c2' })));
  await store.deleteVersion('v4');
  const before = await answers(store);
  await store.close();
  return { path, before };
}

/** The table's metadata changed behind the generation's back: only a reader of the rows would see it. */
function alterRows(path: string): void {
  const db = new Database(path);
  db.exec(`INSERT INTO pp_vector_versions (version_id, document_id, collection_id) VALUES ('altered', 'altered', 'altered');
    UPDATE pp_vector_rows SET version = last_insert_rowid(), page_index = NULL`);
  db.close();
}

/** The chunk id of each label a snapshot file holds (null: a tombstone), from its ordinals and groups. */
function savedLabels(path: string): (string | null)[] {
  const saved = JSON.parse(readFileSync(`${path}.usearch.json`, 'utf8'));
  const ints = (b64: string) => {
    const bytes = Buffer.from(b64, 'base64');
    return new Int32Array(bytes.buffer, bytes.byteOffset, bytes.byteLength / 4);
  };
  const meta = { groups: saved.groups, groupOf: ints(saved.groupOf), pageOf: ints(saved.pageOf) };
  return savedChunkIds({ ordinal: ints(saved.ordinals), odd: saved.odd }, meta);
}

/** The chunk id of each label of a graph (null: a tombstone). */
function graphLabels(graph: SavedGraph | null): (string | null)[] | undefined {
  if (!graph) return undefined;
  return Array.isArray(graph.labels) ? graph.labels : savedChunkIds(graph.labels, graph.meta as LabelMeta);
}

/** The snapshot as the release before wrote it: each label's chunk id, and no metadata. */
function asReleaseBefore(path: string): (string | null)[] {
  const labels = savedLabels(path);
  const {
    groups: _,
    groupOf: __,
    pageOf: ___,
    ordinals: ____,
    odd: _____,
    ...rest
  } = JSON.parse(readFileSync(`${path}.usearch.json`, 'utf8'));
  writeFileSync(`${path}.usearch.json`, JSON.stringify({ ...rest, labels }));
  return labels;
}

describe('ANN snapshot with the labels’ metadata', () => {
  it('opens with the same answers under every filter without reading the metadata rows', async () => {
    const { path, before } = await savedStore('with-meta');
    const saved = JSON.parse(readFileSync(`${path}.usearch.json`, 'utf8'));
    expect(Object.keys(saved)).toEqual(expect.arrayContaining(['ordinals', 'odd', 'groups', 'groupOf', 'pageOf']));
    expect(Object.keys(saved)).not.toContain('labels');
    alterRows(path);
    const index = openVectorIndex({ dimensions: DIMS, threshold: THRESHOLD, path, source: { kind: 'file', path } });
    // the saved graph was taken as it was, tombstones included (a rebuild from the rows has none)
    expect(graphLabels(index.graph())).toEqual(savedLabels(path));
    expect(savedLabels(path)).toContain(null);
    const reopened = openEmbeddedVectorStore({ path, dimensions: DIMS, annThreshold: THRESHOLD });
    expect(await answers(reopened)).toEqual(before);
    expect(await reopened.search(queries[0] as Float32Array, { k: 5, filter: { collectionIds: ['altered'] } })).toEqual([]);
    await reopened.close();
  });

  it('opens a snapshot saved without metadata (the release before) from the rows, with the same answers, and saves it whole at close', async () => {
    const { path, before } = await savedStore('labels-only');
    const labels = asReleaseBefore(path);
    expect(labels).toContain(null);
    const index = openVectorIndex({ dimensions: DIMS, threshold: THRESHOLD, path, source: { kind: 'file', path } });
    expect(graphLabels(index.graph())).toEqual(labels);
    const reopened = openEmbeddedVectorStore({ path, dimensions: DIMS, annThreshold: THRESHOLD });
    expect(await answers(reopened)).toEqual(before);
    await reopened.close();
    expect(Object.keys(JSON.parse(readFileSync(`${path}.usearch.json`, 'utf8')))).toEqual(
      expect.arrayContaining(['groups', 'ordinals']),
    );
    expect(savedLabels(path)).toEqual(labels);
  });

  it('reads the rows, not a snapshot’s metadata, when the snapshot has none or is stale', async () => {
    const { path } = await savedStore('rows');
    const labels = asReleaseBefore(path);
    alterRows(path);
    const live = labels.filter((l: string | null) => l !== null).length;
    const index = openVectorIndex({ dimensions: DIMS, threshold: THRESHOLD, path, source: { kind: 'file', path } });
    expect(index.search(queries[0] as Float32Array, 500, { collectionIds: ['altered'] })).toHaveLength(live);
    expect(index.search(queries[0] as Float32Array, 500, { collectionIds: ['c1'] })).toEqual([]);
    // a write since the (whole) snapshot: it is ignored and the graph built again from the rows
    const store = openEmbeddedVectorStore({ path, dimensions: DIMS, annThreshold: THRESHOLD });
    await store.close();
    const stale = new Database(path);
    stale.exec("UPDATE pp_vectors_generation SET n = n + 1; UPDATE pp_vector_versions SET collection_id = 'again'");
    stale.close();
    const rebuilt = openVectorIndex({ dimensions: DIMS, threshold: THRESHOLD, path, source: { kind: 'file', path } });
    expect(graphLabels(rebuilt.graph())).not.toContain(null);
    expect(rebuilt.search(queries[0] as Float32Array, 500, { collectionIds: ['again'] })).toHaveLength(live);
  });

  it('keeps a graph saved with other expansions, and builds again one of another shape', async () => {
    const { path, before } = await savedStore('settings');
    const saved = JSON.parse(readFileSync(`${path}.usearch.json`, 'utf8'));
    // a graph built with another expansion on add is still a graph of today's shape
    writeFileSync(
      `${path}.usearch.json`,
      JSON.stringify({ ...saved, config: { ...saved.config, expansion_search: 7, expansion_add: 7 } }),
    );
    const kept = openVectorIndex({ dimensions: DIMS, threshold: THRESHOLD, path, source: { kind: 'file', path } });
    // the saved graph, tombstones and all: not a rebuild
    expect(graphLabels(kept.graph())).toEqual(savedLabels(path));
    const reopened = openEmbeddedVectorStore({ path, dimensions: DIMS, annThreshold: THRESHOLD });
    expect(await answers(reopened)).toEqual(before);
    await reopened.close();
    const again = JSON.parse(readFileSync(`${path}.usearch.json`, 'utf8'));
    // each setting of the graph's shape, as a graph of the release before was saved with another value of it
    const others = { metric: 'ip', quantization: 'f16', connectivity: 7 };
    expect(Object.keys(others).sort()).toEqual(
      Object.keys(GRAPH_CONFIG)
        .filter((key) => !key.startsWith('expansion_'))
        .sort(),
    );
    for (const [key, value] of Object.entries(others)) {
      writeFileSync(`${path}.usearch.json`, JSON.stringify({ ...again, config: { ...again.config, [key]: value } }));
      const rebuilt = openVectorIndex({ dimensions: DIMS, threshold: THRESHOLD, path, source: { kind: 'file', path } });
      expect(graphLabels(rebuilt.graph()), key).not.toContain(null);
    }
  });

  it('tells how far a graph built again at open has come, from none to all, and answers as before', async () => {
    const { path, before } = await savedStore('progress');
    const stale = new Database(path);
    stale.exec('UPDATE pp_vectors_generation SET n = n + 1');
    const { total } = stale.prepare('SELECT COUNT(*) AS total FROM pp_vectors').get() as { total: number };
    stale.close();
    const seen: { done: number; total: number }[] = [];
    const store = openEmbeddedVectorStore({ path, dimensions: DIMS, annThreshold: THRESHOLD, onRebuild: (p) => seen.push(p) });
    const after = await answers(store);
    await store.close();
    expect(seen[0]).toEqual({ done: 0, total });
    expect(seen.at(-1)).toEqual({ done: total, total });
    expect(seen.map((p) => p.done)).toEqual([...seen.map((p) => p.done)].sort((a, b) => a - b));
    // the same hits; a graph without tombstones may order exact ties differently, so by id and score
    const bySet = (a: unknown[]) =>
      a.map((hits) => JSON.stringify([...(hits as { chunk_id: string }[])].map((h) => h.chunk_id).sort()));
    expect(bySet(after)).toEqual(bySet(before));
  });

  it('says on stderr, by default, that a large store builds its graph again, every tenth', async () => {
    const path = join(dir, 'large.db');
    const n = 50_000;
    const rnd = seededRandom(7);
    const store = openEmbeddedVectorStore({ path, dimensions: 4, annThreshold: 1000 });
    for (let at = 0; at < n; at += 10_000)
      await store.upsert(
        Array.from({ length: 10_000 }, (_, i) => ({
          chunk_id: `c${at + i}`,
          version_id: `v${(at + i) % 50}`,
          document_id: `d${(at + i) % 50}`,
          collection_id: 'c',
          vector: Float32Array.from({ length: 4 }, () => rnd() - 0.5),
        })),
      );
    await store.close();
    rmSync(`${path}.usearch.json`);
    const lines: string[] = [];
    const write = process.stderr.write.bind(process.stderr);
    process.stderr.write = ((chunk: string) => {
      lines.push(String(chunk));
      return true;
    }) as typeof process.stderr.write;
    try {
      const reopened = openEmbeddedVectorStore({ path, dimensions: 4, annThreshold: 1000 });
      expect(await reopened.search(Float32Array.of(1, 0, 0, 0), { k: 3 })).toHaveLength(3);
      await reopened.close();
    } finally {
      process.stderr.write = write;
    }
    const ours = lines.filter((l) => l.includes('vector graph'));
    expect(ours[0]).toContain('building the vector graph again from the stored vectors: 0 of 50,000 (0 %)');
    expect(ours.at(-1)).toContain('50,000 of 50,000 (100 %), done');
    expect(ours.length).toBeGreaterThanOrEqual(3);
    expect(ours.length).toBeLessThanOrEqual(12);
  }, 60_000);
});

describe('a saved graph opened as a view of its file', () => {
  const graphBytes = (path: string) => readFileSync(`${path}.usearch`);

  it('answers from the file as it is, reads it in at the first write, and saves only what changed', async () => {
    const { path, before } = await savedStore('view');
    const saved = graphBytes(path);
    const viewing = openVectorIndex({ dimensions: DIMS, threshold: THRESHOLD, path, source: { kind: 'file', path } });
    expect(viewing.graph()?.viewOf).toBe(`${path}.usearch`);
    const reopened = openEmbeddedVectorStore({ path, dimensions: DIMS, annThreshold: THRESHOLD });
    expect(await answers(reopened)).toEqual(before);
    // a delete changes the labels, not the graph: the file the graph views is left as it is
    await reopened.deleteVersion('v1');
    const afterDelete = await answers(reopened);
    await reopened.close();
    expect(graphBytes(path).equals(saved)).toBe(true);
    // the first write reads the graph into memory; the save then writes a new file in its place
    const writer = openEmbeddedVectorStore({ path, dimensions: DIMS, annThreshold: THRESHOLD });
    expect(await answers(writer)).toEqual(afterDelete);
    await writer.upsert(records(3, 10).map((r) => ({ ...r, chunk_id: `new-${r.chunk_id}`, version_id: 'v9' })));
    const afterWrite = await answers(writer);
    // the index opened before still views the old file, whole, while the writer saves over it
    const still = viewing.search(queries[0] as Float32Array, 200);
    await writer.close();
    expect(graphBytes(path).equals(saved)).toBe(false);
    expect(viewing.search(queries[0] as Float32Array, 200)).toEqual(still);
    const last = openEmbeddedVectorStore({ path, dimensions: DIMS, annThreshold: THRESHOLD });
    expect(await answers(last)).toEqual(afterWrite);
    await last.close();
  });
});
