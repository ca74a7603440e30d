import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Chunk, Element, MetadataStore } from '@pinpoint/core';
import { SqliteMetadataStore } from '@pinpoint/storage';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Engine } from './engine.js';
import { tableOfRow } from './table-rows.js';
import { openTestEngine, uploadSettled } from './test-engine.js';

/** A PDF of several pages with tables among its prose (docling's test file), and a CSV. */
const PDF = join(import.meta.dirname, '../../../../shared/eval/pdf-tables-dev/docs/redp5110_sampled.pdf');
/** Five turned pages of one table, its header repeated on each: one table joined over the pages. */
const JOINED = join(import.meta.dirname, '../../../../shared/eval/pdf-tables-tabula/docs/schools.pdf');
const CSV = 'Year,Revenue,Cost\n2021,100,60\n2022,120,70\n2023,150,80\n';

let engine: Engine;
let dir: string;
let close: () => Promise<void>;
const versions = new Map<string, string>();

beforeAll(async () => {
  ({ engine, dir, close } = openTestEngine('pp-table-rows-', { isolate: false }));
  const collection = await engine.ensureCollection('default');
  const uploaded = await uploadSettled(
    engine,
    collection.collection_id,
    [
      { name: 'redp5110_sampled.pdf', bytes: new Uint8Array(readFileSync(PDF)) },
      { name: 'figures.csv', bytes: new TextEncoder().encode(CSV) },
      { name: 'schools.pdf', bytes: new Uint8Array(readFileSync(JOINED)) },
    ],
    120_000,
  );
  for (const u of uploaded) versions.set(u.file, u.version.version_id);
}, 150_000);

afterAll(async () => close());

/** The store, counting the reads of a whole version (all elements, all chunks). */
function counted(store: MetadataStore): { store: MetadataStore; whole: () => number } {
  let whole = 0;
  const wrapped = new Proxy(store, {
    get(target, key) {
      if (key === 'getElements')
        return (versionId: string, ids?: string[]) => {
          if (!ids) whole++;
          return target.getElements(versionId, ids);
        };
      if (key === 'listChunks')
        return (versionId: string) => {
          whole++;
          return target.listChunks(versionId);
        };
      const value = Reflect.get(target, key) as unknown;
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
  return { store: wrapped, whole: () => whole };
}

/** Every data row with its own chunk, and what reading the whole version says its table is. */
async function rowsOf(store: MetadataStore, versionId: string): Promise<{ row: Element; hit: Chunk; table: Element[] }[]> {
  const elements = await store.getElements(versionId);
  const chunks = await store.listChunks(versionId);
  return elements.flatMap((row) => {
    const hit = chunks.find((c) => c.elements.length === 1 && c.elements[0]?.element_id === row.element_id);
    if (!row.table || row.table.header || !hit) return [];
    return [{ row, hit, table: elements.filter((e) => e.table?.index === row.table?.index) }];
  });
}

describe('a table read for its rows', () => {
  it("reads a PDF page's table by its run of rows, never the whole report, with the rows and chunks the whole read gives", async () => {
    const store = new SqliteMetadataStore(join(dir, 'metadata.db'));
    try {
      const rows = await rowsOf(store, versions.get('redp5110_sampled.pdf') as string);
      expect(new Set(rows.map((r) => r.row.table?.index)).size).toBeGreaterThan(1);
      const { store: reads, whole } = counted(store);
      for (const { row, hit, table } of rows) {
        const read = await tableOfRow(reads, row, hit);
        expect(read?.rows.map((e) => e.element_id)).toEqual(table.map((e) => e.element_id));
        for (const e of table.filter((x) => !x.table?.header)) {
          const own = (await store.listChunks(hit.version_id)).find((c) => c.elements[0]?.element_id === e.element_id);
          expect(read?.chunks.get(e.element_id)?.chunk_id).toBe(own?.chunk_id);
        }
      }
      expect(whole()).toBe(0);
    } finally {
      await store.close();
    }
  });

  it('reads a table joined over pages by its runs, across the page breaks, whichever page its hit row is on', async () => {
    const store = new SqliteMetadataStore(join(dir, 'metadata.db'));
    try {
      const rows = await rowsOf(store, versions.get('schools.pdf') as string);
      const { store: reads, whole } = counted(store);
      const pages = (index: number | undefined) =>
        new Set(
          rows
            .filter((r) => r.row.table?.index === index)
            .map((r) => (r.row.anchor.kind === 'page' ? r.row.anchor.page_index : -1)),
        );
      const joined = rows.find((r) => pages(r.row.table?.index).size > 1);
      expect(joined, 'a table of schools.pdf spans pages').toBeDefined();
      const chunks = await store.listChunks(versions.get('schools.pdf') as string);
      for (const { row, hit, table } of rows.filter((r) => r.row.table?.index === joined?.row.table?.index)) {
        const read = await tableOfRow(reads, row, hit);
        expect(read?.rows.map((e) => e.element_id)).toEqual(table.map((e) => e.element_id));
        for (const e of table.filter((x) => !x.table?.header)) {
          const own = chunks.find((c) => c.elements.length === 1 && c.elements[0]?.element_id === e.element_id);
          expect(read?.chunks.get(e.element_id)?.chunk_id).toBe(own?.chunk_id);
        }
      }
      expect(whole()).toBe(0);
    } finally {
      await store.close();
    }
  });

  it('reads a table that is not on pages (a CSV) from the whole version, as before', async () => {
    const store = new SqliteMetadataStore(join(dir, 'metadata.db'));
    try {
      const rows = await rowsOf(store, versions.get('figures.csv') as string);
      expect(rows).toHaveLength(3);
      const { store: reads, whole } = counted(store);
      for (const { row, hit, table } of rows) {
        const read = await tableOfRow(reads, row, hit);
        expect(read?.rows.map((e) => e.element_id)).toEqual(table.map((e) => e.element_id));
        expect(read?.chunks.get(row.element_id)?.chunk_id).toBe(hit.chunk_id);
      }
      expect(whole()).toBe(2);
    } finally {
      await store.close();
    }
  });
});
