import type { Chunk, Element, MetadataStore } from '@pinpoint/core';
import { chunkId, elementId } from '@pinpoint/core';

/** A table's rows (header rows included, in order) and the chunk of each row that is a chunk of its own. */
export interface LoadedTable {
  rows: Element[];
  chunks: Map<string, Chunk>;
  /**
   * The text just above the table (its page's, for a page's table): the lines a report sets
   * between a statement's title and its rows ("(in thousands, except per share data)").
   */
  lead: string[];
}

/** Elements above a table read as its lead. */
const LEAD = 3;

const pageOf = (e: Element): number | undefined => (e.anchor.kind === 'page' ? e.anchor.page_index : undefined);
const samePage = (a: Element, b: Element): boolean => pageOf(a) !== undefined && pageOf(a) === pageOf(b);

/** The lead of a table: the elements just before its first row that are no table's, on its page. */
function leadOf(before: (Element | undefined)[], first: Element): string[] {
  const page = pageOf(first);
  const out: string[] = [];
  for (const e of before.slice(-LEAD).reverse()) {
    if (!e || e.table || (page !== undefined && pageOf(e) !== page)) break;
    out.unshift(e.text);
  }
  return out;
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
 * Elements of other kinds a table's rows may have between them: where a table goes on over a page
 * break, the page's foot and the next page's head stand between its runs. A table read by its run
 * goes on past this many; one whose rows stand further apart is read from the whole version.
 */
const GAP = 16;

/**
 * The table's rows: its run of elements around the hit's position, across gaps of at most GAP
 * other elements (a table joined over pages). Behind the hit, back to the table's row 0 (a row's
 * number bounds how many rows can precede it; a row with no cell is left out, never added); ahead,
 * in windows that start small and double, until GAP elements in a row are not the table's.
 * Undefined (read the version whole) when the run does not reach row 0 within the gaps, or its
 * rows are not in the order of their numbers.
 */
async function readRows(metadata: MetadataStore, row: Element, at: number, versionId: string): Promise<Element[] | undefined> {
  const index = row.table?.index;
  const inTable = (e: Element | undefined): e is Element => e?.table?.index === index;
  const behind: Element[] = [];
  if ((row.table?.row ?? 0) > 0) {
    let read = new Map<number, Element>();
    let readFrom = at;
    let gap = 0;
    for (let p = at - 1; ; p--) {
      if (p < 0 || gap > GAP) return undefined;
      if (p < readFrom) {
        // first the rows the hit's number allows behind it, then windows further back
        const from = readFrom === at ? at - (row.table?.row ?? 0) - 1 : readFrom - WINDOW;
        read = await readPositions(metadata, versionId, from, readFrom);
        readFrom = Math.max(0, from);
      }
      const e = read.get(p);
      if (!inTable(e)) {
        gap++;
        continue;
      }
      behind.push(e);
      gap = 0;
      if ((e.table?.row ?? 0) === 0) break;
    }
  }
  const rows = [...behind.reverse(), row];
  let gap = 0;
  for (let from = at + 1, size = FIRST_WINDOW; gap <= GAP; from += size, size = Math.min(2 * size, WINDOW)) {
    const ahead = await readPositions(metadata, versionId, from, from + size);
    for (let p = from; p < from + size && gap <= GAP; p++) {
      const e = ahead.get(p);
      if (inTable(e)) {
        rows.push(e);
        gap = 0;
      } else gap++;
    }
  }
  // rows in order of their number, each once, from the table's first: else the run is not the table's rows
  if ((rows[0]?.table?.row ?? 0) !== 0) return undefined;
  return rows.every((e, i) => i === 0 || (e.table?.row ?? 0) > (rows[i - 1]?.table?.row ?? 0)) ? rows : undefined;
}

/**
 * The table's rows from its run of element positions, and its data rows' chunks. A data row is one
 * chunk and chunks follow the elements' order, so the rows' chunks are a run of ordinals around the
 * hit's, with the chunks of the elements between the rows (a page's foot and head; a chunk never
 * holds more than one page, and one element makes at most a few) in it too: the ordinals read are
 * widened by the elements between, and each row's chunk is found by its element. Undefined when the
 * rows or their chunks do not check out.
 */
async function readRun(metadata: MetadataStore, row: Element, hit: Chunk): Promise<LoadedTable | undefined> {
  const at = positionOf(row.element_id);
  if (at === null || hit.chunk_id !== chunkId(hit.version_id, hit.ordinal)) return undefined;
  const rows = await readRows(metadata, row, at, hit.version_id);
  if (!rows) return undefined;
  const data = rows.filter((e) => !e.table?.header);
  const h = data.findIndex((e) => e.element_id === row.element_id);
  const position = (e: Element | undefined): number => positionOf(e?.element_id ?? '') ?? at;
  // elements between the rows that are not data rows (gaps and header rows), behind and ahead of the hit
  const between = (from: Element | undefined, to: Element | undefined, count: number): number =>
    Math.max(0, position(to) - position(from) + 1 - count);
  const slackBehind = 2 * between(data[0], row, h + 1);
  const slackAhead = 2 * between(row, data.at(-1), data.length - h);
  const first = Math.max(0, hit.ordinal - h - slackBehind);
  const last = hit.ordinal + (data.length - 1 - h) + slackAhead;
  const ids = Array.from({ length: last - first + 1 }, (_, i) => chunkId(hit.version_id, first + i));
  const found = await metadata.getChunks(ids);
  const byElement = new Map<string, Chunk>();
  for (const c of found) {
    const only = c.elements.length === 1 ? c.elements[0]?.element_id : undefined;
    if (only !== undefined) byElement.set(only, c);
  }
  const chunks = new Map<string, Chunk>();
  let ordinal = -1;
  for (const e of data) {
    const c = byElement.get(e.element_id);
    if (!c || c.ordinal <= ordinal) return undefined;
    ordinal = c.ordinal;
    chunks.set(e.element_id, c);
  }
  if (chunks.get(row.element_id)?.chunk_id !== hit.chunk_id) return undefined;
  const top = position(rows[0]);
  // the elements above it, read once: its lead's, and for a table with no header row the first window
  // the header it goes on under is looked for in
  const headerless = !rows.some((e) => e.table?.header);
  const above = await readPositions(metadata, hit.version_id, top - (headerless ? WINDOW : LEAD), top);
  const lead = leadOf(
    Array.from({ length: LEAD }, (_, i) => above.get(top - LEAD + i)),
    rows[0] as Element,
  );
  const head = headerless ? await headerAbove(metadata, hit.version_id, top, rows[0] as Element, above) : undefined;
  return { rows: head ? goOnUnder(head, rows) : rows, chunks, lead };
}

/** Elements read back from a page's table with no header row, looking for the header of the table it goes on from. */
const HEADER_REACH = 128;

/**
 * The header rows of the table a page's headerless table goes on from: a statement parted by its
 * section headings ("LIABILITIES AND EQUITY") is read as several tables, and only the first carries
 * the periods ("As of January 31, | 2020 | 2019"). The nearest header above on the same page, whose
 * columns are the table's; none when another page or another shape of table comes first. `nearest`
 * is the window of elements just above the table, already read.
 */
async function headerAbove(
  metadata: MetadataStore,
  versionId: string,
  top: number,
  first: Element,
  nearest: Map<number, Element>,
): Promise<TableHead | undefined> {
  const found: Element[] = [];
  // the data rows passed on the way: the header table's name their columns as the header reads
  const passed: Element[] = [];
  const head = (): TableHead | undefined => {
    if (found.length === 0 || !continues(found, first)) return undefined;
    const index = found[0]?.table?.index;
    return { rows: found, names: namesAcross(passed.filter((e) => e.table?.index === index)) };
  };
  for (let to = top; to > Math.max(0, top - HEADER_REACH); to -= WINDOW) {
    const read = to === top ? nearest : await readPositions(metadata, versionId, to - WINDOW, to);
    for (let p = to - 1; p >= to - WINDOW && p >= 0; p--) {
      const e = read.get(p);
      if (!e) continue;
      if (!samePage(e, first)) return head();
      if (!e.table) {
        if (found.length > 0) return head();
        continue;
      }
      if (e.table.header) found.unshift(e);
      // the data rows of the tables it goes on from: their header is above them
      else if (found.length > 0) return head();
      else passed.push(e);
    }
  }
  return head();
}

/** A table's header rows, and the name each column's cells carry under them ("As of January 31, / 2020"). */
interface TableHead {
  rows: Element[];
  names: Map<number, string>;
}

/** The name each column's cells carry, from the first of the rows that names it. */
function namesAcross(rows: Element[]): Map<number, string> {
  const names = new Map<number, string>();
  for (const row of rows) for (const c of row.cells ?? []) if (c.header && !names.has(c.col)) names.set(c.col, c.header);
  return names;
}

/** A headerless table's rows under the header of the table it goes on from, its cells named as that table's are. */
function goOnUnder(head: TableHead, rows: Element[]): Element[] {
  const named = rows.map((e) =>
    e.cells?.some((c) => !c.header && head.names.has(c.col))
      ? { ...e, cells: e.cells.map((c) => (c.header ? c : { ...c, header: head.names.get(c.col) })) }
      : e,
  );
  return [...head.rows, ...named];
}

/** How many columns a row spans: one past its last cell's. */
const columnsOf = (e: Element): number => Math.max(0, ...(e.cells ?? []).map((c) => c.col + 1));
/** Header rows a table goes on under: on its page, and their last row as wide as its rows. */
const continues = (header: Element[], first: Element): boolean =>
  samePage(header[0] as Element, first) && columnsOf(header.at(-1) as Element) === columnsOf(first);

async function loadVersion(metadata: MetadataStore, versionId: string): Promise<LoadedVersion> {
  const elements = await metadata.getElements(versionId);
  const all = elements.filter((e) => e.table);
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
  for (const [i, e] of elements.entries()) {
    if (!e.table) continue;
    let t = byIndex.get(e.table.index);
    if (!t) {
      t = { rows: [], chunks, lead: leadOf(elements.slice(Math.max(0, i - LEAD), i), e) };
      byIndex.set(e.table.index, t);
    }
    t.rows.push(e);
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
 * reads under the header of the table above it on the same sheet (sheets are always read whole), or
 * on the same page where its columns are the header's.
 */
function inheritHeaders(tables: Map<number, LoadedTable>): void {
  let header: Element[] = [];
  let names = new Map<number, string>();
  let sheet = '';
  for (const index of [...tables.keys()].sort((a, b) => a - b)) {
    const t = tables.get(index) as LoadedTable;
    const own = t.rows.filter((e) => e.table?.header);
    if (sheetOf(t.rows[0]) !== sheet) header = [];
    sheet = sheetOf(t.rows[0]);
    const first = t.rows[0];
    if (own.length > 0) {
      header = own;
      names = namesAcross(t.rows.filter((e) => !e.table?.header));
    } else if (header.length > 0 && sheet !== '') t.rows = [...header, ...t.rows];
    // a page's table parted from the one above it by a section heading: under its header, as readRun reads it
    else if (header.length > 0 && first && pageOf(first) !== undefined && continues(header, first))
      t.rows = goOnUnder({ rows: header, names }, t.rows);
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
