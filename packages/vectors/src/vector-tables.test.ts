import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { VectorRecord } from '@pinpoint/core';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { singleTableFile } from '../test/single-table-file.js';
import { openEmbeddedVectorStore } from './embedded-store.js';

const DIMS = 384;

/** An id as the store gives them: a prefix and 20 hex digits. */
const idOf = (prefix: string, n: number) => `${prefix}_${n.toString(16).padStart(20, '0')}`;

/** Seeded vectors of the test encoder's size, ten chunks a version, every fifth with a page; ids as long as the store's. */
function records(count: number, seed: number, version = (i: number) => idOf('ver', Math.floor(i / 10))): VectorRecord[] {
  let s = seed >>> 0;
  const next = () => {
    s = (Math.imul(s, 1_664_525) + 1_013_904_223) >>> 0;
    return s / 2 ** 32 - 0.5;
  };
  return Array.from({ length: count }, (_, i) => ({
    chunk_id: `${version(i)}:c${String(i).padStart(6, '0')}`,
    version_id: version(i),
    document_id: idOf('doc', Math.floor(i / 30)),
    collection_id: idOf('col', 1),
    ...(i % 5 === 0 ? { page_index: i % 7 } : {}),
    vector: Float32Array.from({ length: DIMS }, next),
  }));
}

function tablesOf(path: string): { counts: Record<string, number>; pages: number; schema: string[] } {
  const db = new Database(path, { readonly: true });
  try {
    const schema = (
      db.prepare("SELECT type || ' ' || name AS s FROM sqlite_schema WHERE name LIKE 'pp_vector%' ORDER BY name").all() as {
        s: string;
      }[]
    ).map((r) => r.s);
    const counts: Record<string, number> = {};
    for (const t of ['pp_vectors', 'pp_vector_rows', 'pp_vector_data', 'pp_vector_versions'])
      if (schema.some((s) => s.endsWith(` ${t}`)))
        counts[t] = (db.prepare(`SELECT COUNT(*) AS n FROM ${t}`).get() as { n: number }).n;
    const pages = db.pragma('page_count', { simple: true }) as number;
    return { counts, pages, schema };
  } finally {
    db.close();
  }
}

describe('vector tables: ids and vectors apart', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'pp-vector-tables-'));
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('makes a new file split, a tenth smaller than one table, and answers as the one table does', async () => {
    const split = join(dir, 'split.db');
    const single = join(dir, 'single.db');
    singleTableFile(single, `dims:${DIMS}`);
    const rows = records(3_000, 1);
    const queries = records(20, 2).map((r) => r.vector);
    const answers: unknown[][] = [];
    for (const path of [split, single]) {
      const store = openEmbeddedVectorStore({ path, dimensions: DIMS, annThreshold: 100_000 });
      for (let i = 0; i < rows.length; i += 500) await store.upsert(rows.slice(i, i + 500));
      const found: unknown[] = [];
      for (const q of queries) {
        found.push(await store.search(q, { k: 10 }));
        found.push(
          await store.search(q, { k: 5, filter: { versionIds: [idOf('ver', 3), idOf('ver', 250)], pageIndexes: [0, 3] } }),
        );
      }
      answers.push(found);
      await store.close();
    }
    expect(answers[0]).toEqual(answers[1]);
    const [a, b] = [tablesOf(split), tablesOf(single)];
    expect(a.schema).toEqual([
      'table pp_vector_data',
      'view pp_vector_ids',
      'table pp_vector_rows',
      'index pp_vector_rows_version',
      'table pp_vector_versions',
      'view pp_vectors',
      'table pp_vectors_generation',
      'table pp_vectors_space',
    ]);
    expect(b.schema).toContain('table pp_vectors');
    expect(a.counts).toEqual({ pp_vectors: 3_000, pp_vector_rows: 3_000, pp_vector_data: 3_000, pp_vector_versions: 300 });
    expect(b.counts).toEqual({ pp_vectors: 3_000 });
    expect(a.pages).toBeLessThan(b.pages * 0.88);
  });

  it('replaces a chunk moved to another version, deletes a version whole and empties for another space: no vector left without its ids', async () => {
    const path = join(dir, 'writes.db');
    let store = openEmbeddedVectorStore({ path, dimensions: DIMS, space: 'model-a' });
    await store.upsert(records(40, 3));
    // the chunks of version 1 written again under version 9, with other vectors
    const [v1, v2, v9] = [1, 2, 9].map((n) => idOf('ver', n)) as [string, string, string];
    const moved = records(40, 4, (i) => (i >= 10 && i < 20 ? v9 : idOf('ver', Math.floor(i / 10))))
      .slice(10, 20)
      .map((r) => ({ ...r, chunk_id: r.chunk_id.replace(v9, v1) }));
    await store.upsert(moved);
    const [top] = await store.search(moved[3]?.vector as Float32Array, { k: 1 });
    expect(top?.chunk_id).toBe(moved[3]?.chunk_id);
    expect(await store.search(moved[3]?.vector as Float32Array, { k: 40, filter: { versionIds: [v1] } })).toEqual([]);
    await store.deleteVersion(v9);
    await store.deleteVersion(v2);
    expect((await store.search(moved[3]?.vector as Float32Array, { k: 40 })).length).toBe(20);
    await store.close();
    // ids of versions 0 and 3 are left, and of version 1, which no chunk names since its chunks moved (until
    // version 1 is deleted); version 9's went with its chunks
    expect(tablesOf(path).counts).toEqual({ pp_vectors: 20, pp_vector_rows: 20, pp_vector_data: 20, pp_vector_versions: 3 });
    store = openEmbeddedVectorStore({ path, dimensions: DIMS, space: 'model-b' });
    expect(await store.search(moved[3]?.vector as Float32Array, { k: 40 })).toEqual([]);
    await store.close();
    expect(tablesOf(path).counts).toEqual({ pp_vectors: 0, pp_vector_rows: 0, pp_vector_data: 0, pp_vector_versions: 0 });
  });
});
