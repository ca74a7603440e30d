import type { Chunk, Element, MetadataStore } from '@pinpoint/core';
import { chunkId, elementId } from '@pinpoint/core';

/** A table's rows (header rows included, in order) and the chunk of each row that is a chunk of its own. */
export interface LoadedTable {
  rows: Element[];
  chunks: Map<string, Chunk>;
}

/** The tables of one version read whole, and which table each data row belongs to. */
interface LoadedVersion {
  tables: Map<number, LoadedTable>;
  tableOf: Map<string, number>;
}

/** Tables kept per store (versions are immutable): a report's few statement tables serve many questions. */
const TABLE_CACHE = 512;
/** Versions read whole (the rows of a table that is not one run of a page's elements), kept per store. */
const VERSION_CACHE = 64;
/** Elements read at once when a page's table is read by its run of element positions. */
const WINDOW = 64;

const tables = new WeakMap<MetadataStore, Map<string, LoadedTable>>();
const versions = new WeakMap<MetadataStore, Map<string, LoadedVersion>>();

/** Least recently used first: a value read again moves to the end of the map's order. */
function cacheOf<T>(store: WeakMap<MetadataStore, Map<string, T>>, metadata: MetadataStore): Map<string, T> {
  let cache = store.get(metadata);
  if (!cache) {
    cache = new Map();
    store.set(metadata, cache);
  }
  return cache;
}

function touch<T>(cache: Map<string, T>, key: string): T | undefined {
  const v = cache.get(key);
  if (v !== undefined) {
    cache.delete(key);
    cache.set(key, v);
  }
  return v;
}

function keep<T>(cache: Map<string, T>, key: string, value: T, size: number): T {
  cache.set(key, value);
  while (cache.size > size) cache.delete(cache.keys().next().value as string);
  return value;
}

const positionOf = (id: string): number | null => {
  const m = /^e(\d{6,})$/.exec(id);
  return m && String(Number(m[1])).padStart(6, '0') === m[1] ? Number(m[1]) : null;
};

/**
 * The table a data row belongs to, with every row of it and the chunk of each data row. A page's
 * table (PDF, slides, scans) is one run of element positions, its data rows one run of chunks:
 * it is read by that run (a few point reads), never by reading the whole report. Any other table,
 * or a run that does not check out, is read from the whole version, as before.
 */
export async function tableOfRow(metadata: MetadataStore, row: Element, hit: Chunk): Promise<LoadedTable | undefined> {
  const index = row.table?.index;
  if (index === undefined || row.table?.header) return undefined;
  const key = `${hit.version_id}:${index}`;
  const cache = cacheOf(tables, metadata);
  const known = touch(cache, key);
  if (known) return known;
  const run = row.anchor.kind === 'page' ? await readRun(metadata, row, hit) : undefined;
  if (run) return keep(cache, key, run, TABLE_CACHE);
  const whole = await versionOf(metadata, hit.version_id);
  return whole.tableOf.get(row.element_id) === index ? whole.tables.get(index) : undefined;
}

/** The table's rows from its run of element positions and its data rows' chunks by their ordinals; undefined when either does not check out. */
async function readRun(metadata: MetadataStore, row: Element, hit: Chunk): Promise<LoadedTable | undefined> {
  const at = positionOf(row.element_id);
  const index = row.table?.index;
  if (at === null || index === undefined || hit.chunk_id !== chunkId(hit.version_id, hit.ordinal)) return undefined;
  const start = at - (row.table?.row ?? 0);
  if (start < 0) return undefined;
  const rows: Element[] = [];
  for (let from = start; ; from += WINDOW) {
    const ids = Array.from({ length: WINDOW }, (_, i) => elementId(from + i));
    const read = new Map((await metadata.getElements(hit.version_id, ids)).map((e) => [e.element_id, e]));
    let ended = false;
    for (const id of ids) {
      const e = read.get(id);
      if (e?.table?.index !== index) {
        ended = true;
        break;
      }
      if (e.table.row !== rows.length) return undefined;
      rows.push(e);
    }
    if (ended) break;
  }
  const data = rows.filter((e) => !e.table?.header);
  const first = hit.ordinal - data.findIndex((e) => e.element_id === row.element_id);
  if (first > hit.ordinal || first < 0) return undefined;
  const found = await metadata.getChunks(data.map((_, i) => chunkId(hit.version_id, first + i)));
  const chunks = new Map<string, Chunk>();
  for (const [i, e] of data.entries()) {
    const c = found[i];
    const ref = c?.elements[0];
    if (!c || c.ordinal !== first + i || c.elements.length !== 1 || ref?.element_id !== e.element_id) return undefined;
    chunks.set(e.element_id, c);
  }
  return { rows, chunks };
}

async function loadVersion(metadata: MetadataStore, versionId: string): Promise<LoadedVersion> {
  const all = await metadata.getElements(versionId);
  const list = await metadata.listChunks(versionId);
  const chunks = new Map(list.filter((x) => x.elements.length === 1).map((x) => [x.elements[0]?.element_id as string, x]));
  const byIndex = new Map<number, LoadedTable>();
  const tableOf = new Map<string, number>();
  for (const e of all) {
    if (!e.table) continue;
    const t = byIndex.get(e.table.index) ?? { rows: [], chunks };
    t.rows.push(e);
    byIndex.set(e.table.index, t);
    if (!e.table.header) tableOf.set(e.element_id, e.table.index);
  }
  return { tables: byIndex, tableOf };
}

async function versionOf(metadata: MetadataStore, versionId: string): Promise<LoadedVersion> {
  const cache = cacheOf(versions, metadata);
  return touch(cache, versionId) ?? keep(cache, versionId, await loadVersion(metadata, versionId), VERSION_CACHE);
}
