import { randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { singleTableFile } from '../test/single-table-file.js';
import { openEmbeddedVectorStore } from './embedded-store.js';
import { decodeVector, encodeVector, roundToHalves, toHalf } from './vector-codec.js';

const halfValue = (h: number) => decodeVector(Uint8Array.of(h & 0xff, h >> 8), 1)[0] as number;

describe('half floats', () => {
  it('encodes every half back to itself', () => {
    for (let h = 0; h < 65536; h++) {
      const x = halfValue(h);
      if (Number.isNaN(x)) expect(Number.isNaN(halfValue(toHalf(x)))).toBe(true);
      else expect(toHalf(x)).toBe(h);
    }
  });

  it('rounds any float to the nearest half, ties to even', () => {
    const finite = (h: number) => Number.isFinite(halfValue(h));
    fc.assert(
      fc.property(fc.float({ min: -65504, max: 65504, noNaN: true }), (x) => {
        const h = toHalf(x);
        const got = Math.abs(halfValue(h) - x);
        // no half on either side of it is nearer (its neighbours by bits, where they are finite)
        for (const n of [h - 1, h + 1, h ^ 0x8000])
          if (n >= 0 && n < 65536 && finite(n) && (n & 0x7fff) !== 0x7c00)
            expect(got).toBeLessThanOrEqual(Math.abs(halfValue(n) - x));
      }),
    );
    // halfway between 1 and the next half (1 + 2⁻¹⁰) goes to the even one, 1; between that and the next, up
    expect(toHalf(1 + 2 ** -11)).toBe(0x3c00);
    expect(toHalf(1 + 3 * 2 ** -11)).toBe(0x3c02);
    expect(halfValue(toHalf(2 ** -25))).toBe(0);
    expect(halfValue(toHalf(3 * 2 ** -25))).toBe(2 ** -23);
    expect(halfValue(toHalf(1e6))).toBe(Number.POSITIVE_INFINITY);
    expect(halfValue(toHalf(-1e6))).toBe(Number.NEGATIVE_INFINITY);
  });

  it('keeps each component of a unit vector within 2⁻¹¹ of itself (2⁻²⁵ below the normal halves), two bytes a dimension', () => {
    const v = Float32Array.from({ length: 384 }, (_, i) => Math.sin(i * 7.1));
    const n = Math.hypot(...v);
    for (let i = 0; i < v.length; i++) v[i] = (v[i] as number) / n;
    const row = encodeVector(v);
    expect(row.byteLength).toBe(768);
    const back = decodeVector(row, 384);
    for (let i = 0; i < v.length; i++) {
      const x = v[i] as number;
      expect(Math.abs((back[i] as number) - x)).toBeLessThanOrEqual(Math.max(Math.abs(x) * 2 ** -11, 2 ** -25));
    }
    expect(Array.from(roundToHalves(Float32Array.from(v)))).toEqual(Array.from(back));
  });

  it('reads the 4-byte floats of an earlier release, and refuses a row of another length', () => {
    const v = Float32Array.of(0.1, -0.2, 0.3);
    expect(Array.from(decodeVector(Buffer.from(v.buffer), 3))).toEqual(Array.from(v));
    // at an odd offset, as a row can be in a larger buffer
    const odd = Buffer.alloc(13);
    Buffer.from(v.buffer).copy(odd, 1);
    expect(Array.from(decodeVector(odd.subarray(1), 3))).toEqual(Array.from(v));
    expect(() => decodeVector(Buffer.alloc(5), 3)).toThrow(expect.objectContaining({ code: 'PP_INTERNAL' }));
  });
});

describe('a store written by the release before', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'pp-vector-codec-'));
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  /** A file as the previous release made it (one table of ids and vectors), its rows 4-byte floats of unit length. */
  function writeOldRows(path: string, rows: [string, number[]][]): void {
    singleTableFile(path, 'dims:3');
    const db = new Database(path);
    const insert = db.prepare(
      'INSERT INTO pp_vectors (chunk_id, version_id, document_id, collection_id, page_index, vector) VALUES (?, ?, ?, ?, NULL, ?)',
    );
    for (const [id, v] of rows) {
      const n = Math.hypot(...v);
      insert.run(id, 'old', 'd', 'c', Buffer.from(Float32Array.from(v, (x) => x / n).buffer));
    }
    db.close();
  }

  for (const annThreshold of [100, 2]) {
    it(`scores its float rows exactly beside new half rows (${annThreshold === 2 ? 'graph' : 'exact scan'})`, async () => {
      const path = join(dir, `${randomUUID()}.db`);
      writeOldRows(path, [
        ['a', [0.6, 0.8, 0]],
        ['b', [0, 0.6, 0.8]],
      ]);
      const store = openEmbeddedVectorStore({ path, dimensions: 3, annThreshold });
      await store.upsert([
        { chunk_id: 'c', version_id: 'new', document_id: 'd', collection_id: 'c', vector: Float32Array.of(0.8, 0, 0.6) },
        { chunk_id: 'e', version_id: 'new', document_id: 'd', collection_id: 'c', vector: Float32Array.of(0, 0, 1) },
      ]);
      const [old] = await store.search(Float32Array.of(0.6, 0.8, 0), { k: 1 });
      expect(old?.chunk_id).toBe('a');
      expect(old?.score).toBeCloseTo(1, 6);
      const [fresh] = await store.search(Float32Array.of(0.8, 0, 0.6), { k: 1 });
      expect(fresh?.chunk_id).toBe('c');
      expect(fresh?.score).toBeCloseTo(1, 3);
      const before = await store.search(Float32Array.of(0.8, 0, 0.6), { k: 4 });
      expect(before.map((h) => h.chunk_id)).toEqual(['c', 'e', 'a', 'b']);
      await store.close();
      const db = new Database(path, { readonly: true });
      const lengths = db.prepare('SELECT chunk_id, length(vector) AS n FROM pp_vectors ORDER BY chunk_id').all();
      // the earlier release's file keeps its one table
      const tables = db.prepare("SELECT name, type FROM sqlite_schema WHERE name LIKE 'pp_vector%' ORDER BY name").all();
      db.close();
      expect(tables).toEqual([
        { name: 'pp_vectors', type: 'table' },
        { name: 'pp_vectors_generation', type: 'table' },
        { name: 'pp_vectors_space', type: 'table' },
        { name: 'pp_vectors_version', type: 'index' },
      ]);
      expect(lengths).toEqual([
        { chunk_id: 'a', n: 12 },
        { chunk_id: 'b', n: 12 },
        { chunk_id: 'c', n: 6 },
        { chunk_id: 'e', n: 6 },
      ]);
      // reopened (the graph from its snapshot, or the rows scanned again): the same hits, the same scores
      const again = openEmbeddedVectorStore({ path, dimensions: 3, annThreshold });
      expect(await again.search(Float32Array.of(0.8, 0, 0.6), { k: 4 })).toEqual(before);
      await again.close();
    });
  }
});
