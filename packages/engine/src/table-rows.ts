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
  /** Table rows held, what the version weighs in the cache. */
  rows: number;
}

/** Tables kept per store (versions are immutable): a report's few statement tables serve many questions. */
const TABLE_CACHE = 512;
/**
 * Versions read whole (the rows of a table that is not one run of a page's elements), kept per
 * store up to this many table rows in all: a collection of a few hundred sheets and pages of tables
 * is read once, not once per question that reaches past the last few dozen.
 */
const VERSION_ROWS = 50_000;
/** Elements read at once ahead of a row when a page's table is read by its run of element positions: the first window, and the largest. */
const FIRST_WINDOW = 16;
const WINDOW = 64;

/** Hit elements kept per store: the table row each is, or null for any other element. */
const HIT_CACHE = 20_000;

const tables = new WeakMap<MetadataStore, Map<string, LoadedTable>>();
const hits = new WeakMap<MetadataStore, Map<string, Element | null>>();
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

/**
 * The data rows among a version's hit elements (by id; any other element is absent): read once per
 * store, since every question reads its candidates' elements to find the table rows among them.
 */
export async function dataRows(metadata: MetadataStore, versionId: string, ids: string[]): Promise<Map<string, Element>> {
  const cache = cacheOf(hits, metadata);
  const key = (id: string): string => `${versionId}\u0000${id}`;
  const unread = [...new Set(ids)].filter((id) => !cache.has(key(id)));
  if (unread.length > 0) {
    const read = new Map((await metadata.getElements(versionId, unread)).map((e) => [e.element_id, e]));
    for (const id of unread) {
      const e = read.get(id);
      keep(cache, key(id), e?.table && !e.table.header ? e : null, HIT_CACHE);
    }
  }
  const out = new Map<string, Element>();
  for (const id of ids) {
    const e = touch(cache, key(id));
    if (e) out.set(id, e);
  }
  return out;
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

/** The elements at positions [from, to) of a version that exist, by position. */
async function readPositions(
  metadata: MetadataStore,
  versionId: string,
  from: number,
  to: number,
): Promise<Map<number, Element>> {
  const ids = Array.from({ length: Math.max(0, to - Math.max(0, from)) }, (_, i) => elementId(Math.max(0, from) + i));
  const read = await metadata.getElements(versionId, ids);
  return new Map(read.map((e) => [positionOf(e.element_id) ?? -1, e]));
}

/**
 * The table's rows: the run of elements of its index around the hit's position. A row's number
 * bounds how many rows can precede it (a row with no cell is left out, never added), so one read
 * behind it reaches the run's start; ahead, windows until the run ends. Undefined (read the version
 * whole) when the run may not be the whole table: it does not open on row 0, or rows of the table
 * stand a little after it — a table joined over two pages has the page's foot between its runs.
 */
async function readRows(metadata: MetadataStore, row: Element, at: number, versionId: string): Promise<Element[] | undefined> {
  const index = row.table?.index;
  const before = row.table?.row ?? 0;
  const inTable = (e: Element | undefined): e is Element => e?.table?.index === index;
  const behind = await readPositions(metadata, versionId, at - before - 1, at);
  let start = at;
  while (inTable(behind.get(start - 1))) start--;
  if (start === at - before - 1) return undefined;
  const rows = Array.from({ length: at - start }, (_, i) => behind.get(start + i) as Element);
  // most tables end within a few rows of a hit: the windows ahead start small and double
  for (let from = at, size = FIRST_WINDOW; ; from += size, size = Math.min(2 * size, WINDOW)) {
    const ahead = await readPositions(metadata, versionId, from, from + size);
    let p = from;
    for (; p < from + size && inTable(ahead.get(p)); p++) rows.push(ahead.get(p) as Element);
    if (p < from + size) break;
  }
  // rows in order of their number, each once: a run that is not the table's rows is not used
  if (!rows.every((e, i) => i === 0 || (e.table?.row ?? 0) > (rows[i - 1]?.table?.row ?? 0))) return undefined;
  // a table joined over pages (a page's foot and the next one's head between its runs) is read whole:
  // the run must open on the table's first row, and nothing of the table may follow it closely
  if ((rows[0]?.table?.row ?? 0) > 0) return undefined;
  const end = positionOf(rows.at(-1)?.element_id ?? '') ?? at;
  const after = await readPositions(metadata, versionId, end + 1, end + 1 + FIRST_WINDOW);
  return [...after.values()].some((e) => e.table?.index === index) ? undefined : rows;
}

/** The table's rows from its run of element positions and its data rows' chunks by their ordinals; undefined when either does not check out. */
async function readRun(metadata: MetadataStore, row: Element, hit: Chunk): Promise<LoadedTable | undefined> {
  const at = positionOf(row.element_id);
  if (at === null || hit.chunk_id !== chunkId(hit.version_id, hit.ordinal)) return undefined;
  const rows = await readRows(metadata, row, at, hit.version_id);
  if (!rows) return undefined;
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
  const all = (await metadata.getElements(versionId)).filter((e) => e.table);
  const rowIds = new Set(all.map((e) => e.element_id));
  // only the rows' chunks are kept: a report's prose chunks are no table's
  const list = await metadata.listChunks(versionId);
  const chunks = new Map<string, Chunk>();
  for (const x of list) {
    const id = x.elements[0]?.element_id;
    if (x.elements.length === 1 && id !== undefined && rowIds.has(id)) chunks.set(id, x);
  }
  const byIndex = new Map<number, LoadedTable>();
  const tableOf = new Map<string, number>();
  for (const e of all) {
    if (!e.table) continue;
    const t = byIndex.get(e.table.index) ?? { rows: [], chunks };
    t.rows.push(e);
    byIndex.set(e.table.index, t);
    if (!e.table.header) tableOf.set(e.element_id, e.table.index);
  }
  inheritHeaders(byIndex);
  return { tables: byIndex, tableOf, rows: all.length };
}

/** The sheet a row is on (a spreadsheet's record anchor), '' for other documents. */
const sheetOf = (e: Element | undefined): string => (e?.anchor.kind === 'record' ? (e.anchor.sheet ?? '') : '');

/**
 * A sheet's blocks parted by blank rows are read as tables of their own, and only the first has the
 * header row (「前年度 (自 2019年…)」 over every block of a statement): a table with no header row
 * reads under the header of the table above it on the same sheet. (Sheets are always read whole.)
 */
function inheritHeaders(tables: Map<number, LoadedTable>): void {
  let header: Element[] = [];
  let sheet = '';
  for (const index of [...tables.keys()].sort((a, b) => a - b)) {
    const t = tables.get(index) as LoadedTable;
    const own = t.rows.filter((e) => e.table?.header);
    if (sheetOf(t.rows[0]) !== sheet) header = [];
    sheet = sheetOf(t.rows[0]);
    if (own.length > 0) header = own;
    else if (header.length > 0 && sheet !== '') t.rows = [...header, ...t.rows];
  }
}

async function versionOf(metadata: MetadataStore, versionId: string): Promise<LoadedVersion> {
  const cache = cacheOf(versions, metadata);
  const known = touch(cache, versionId);
  if (known) return known;
  const loaded = await loadVersion(metadata, versionId);
  cache.set(versionId, loaded);
  // least recently read first out, until the rows held fit (the one just read always stays)
  let held = 0;
  for (const v of cache.values()) held += v.rows;
  for (const [id, v] of cache) {
    if (held <= VERSION_ROWS || id === versionId) break;
    cache.delete(id);
    held -= v.rows;
  }
  return loaded;
}
