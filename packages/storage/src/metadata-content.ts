import type { Chunk, Element } from '@pinpoint/core';
import { CodepointIndex, chunkSchema, createError, elementSchema } from '@pinpoint/core';
import type { ChunkMeta, ChunkRef } from './chunk-meta.js';
import { ChunkMetaReader, ChunkMetaWriter, compactChunkElementIds } from './chunk-meta.js';
import type { SqliteDatabase } from './database.js';
import { derivedElementId, pad6 } from './derived-ids.js';
import type { ElementMetaReader } from './element-meta.js';
import { ElementMetaWriter } from './element-meta.js';
import type { StoredText } from './element-text.js';
import { decodeElementText, encodeElementText } from './element-text.js';

/**
 * How a version's elements and chunks are stored: what can be derived is not written twice.
 *
 * A row's key is the version's `seq` (an integer given in creation order) times 2^24 plus the
 * element's position or the chunk's ordinal, so every version's rows append at the end of their
 * table and of its one index, and a version's rows are one key range. An element's id is kept only
 * when it is not `e` + its position in six digits (what every parser gives); its text has a column
 * of its own, its other fields a compact array without keys (element-meta.ts). A chunk keeps its id only when it is not `<version_id>:c<ordinal in six digits>`; its
 * text only when the element ranges it cites, joined by newlines, do not give it back exactly; its
 * retrieval text as the prefix before the text (title and heading trail) when it ends with the text;
 * its version, document and collection ids only when they differ from its version's; its other
 * fields a compact array, values its version's chunks share stored once (chunk-meta.ts).
 */
export const ROW_KEY_BITS = 24;
const PER_VERSION = 2 ** ROW_KEY_BITS;

/** The key range [first, end) of a version's rows. */
export function versionRange(seq: number): [number, number] {
  return [seq * PER_VERSION, (seq + 1) * PER_VERSION];
}

export function rowKey(seq: number, position: number): number {
  if (!Number.isInteger(position) || position < 0 || position >= PER_VERSION)
    throw createError(
      'PP_VALIDATION',
      `A version holds at most ${PER_VERSION} elements and chunks; position ${position} is outside.`,
    );
  return seq * PER_VERSION + position;
}

const derivedChunkId = (versionId: string, ordinal: number): string => `${versionId}:c${pad6(ordinal)}`;

/** The (version, ordinal) a chunk id of the derived form names; null for any other id. */
function parseChunkId(chunkId: string): { versionId: string; ordinal: number } | null {
  const m = /^(.+):c(\d{6,})$/.exec(chunkId);
  if (!m) return null;
  const ordinal = Number(m[2]);
  return pad6(ordinal) === m[2] ? { versionId: m[1] as string, ordinal } : null;
}

const ELEMENT_KEYS = Object.keys(elementSchema.shape) as (keyof Element)[];
const CHUNK_KEYS = Object.keys(chunkSchema.shape) as (keyof Chunk)[];

export interface ElementRow {
  id: number;
  element_id: string | null;
  meta: string;
  /** TEXT, or Brotli-compressed bytes (element-text.ts). */
  text: StoredText;
}

/** The element as it was written, its keys in the schema's order: its meta a JSON object (rows written before the compact form) or a compact array (element-meta.ts). */
export function decodeElement(row: ElementRow, reader: ElementMetaReader): Element {
  const elementId = row.element_id ?? derivedElementId(row.id % PER_VERSION);
  const text = decodeElementText(row.text);
  if (!row.meta.startsWith('{')) return reader.decode(row.id % PER_VERSION, elementId, text, row.meta);
  const meta = JSON.parse(row.meta) as Record<string, unknown>;
  const out: Record<string, unknown> = {};
  for (const key of ELEMENT_KEYS) {
    if (key === 'element_id') out[key] = elementId;
    else if (key === 'text') out[key] = text;
    else if (key in meta) out[key] = meta[key];
  }
  return out as Element;
}

/** The chunk's text as its element ranges give it (codepoints, joined by newlines); null when an element is missing. */
function textFromElements(refs: readonly ChunkRef[], texts: (elementId: string) => CodepointText | undefined): string | null {
  const parts: string[] = [];
  for (const [id, start, end] of refs) {
    const t = texts(id);
    if (!t || start > end || end > t.index.length) return null;
    parts.push(t.text.slice(t.index.toUtf16(start), t.index.toUtf16(end)));
  }
  return parts.join('\n');
}

/** An element's text with its codepoint index, built once per element however many chunks cite it. */
export interface CodepointText {
  text: string;
  index: CodepointIndex;
}

export function codepointText(text: string): CodepointText {
  return { text, index: new CodepointIndex(text) };
}

export interface ChunkRow {
  id: number;
  chunk_id: string | null;
  meta: string;
  text: string | null;
  retrieval_prefix: string | null;
  retrieval_text: string | null;
}

export interface VersionIds {
  seq: number;
  version_id: string;
  document_id: string;
  collection_id: string;
}

/** A chunk's row in the form of before: its meta a JSON object (ChunkMeta). */
function jsonChunkRow(v: VersionIds, c: Chunk, texts: (elementId: string) => CodepointText | undefined): ChunkRow {
  const refs: ChunkRef[] = c.elements.map((r) => [r.element_id, r.start, r.end]);
  const meta: ChunkMeta = { s: c.chunk_set_id, e: refs, p: c.section_path };
  if (c.page_index !== undefined) meta.pi = c.page_index;
  if (c.sheet !== undefined) meta.sh = c.sheet;
  if (c.version_id !== v.version_id) meta.v = c.version_id;
  if (c.document_id !== v.document_id) meta.d = c.document_id;
  if (c.collection_id !== v.collection_id) meta.c = c.collection_id;
  const derived = textFromElements(refs, texts) === c.text;
  const prefixed = c.retrieval_text.endsWith(c.text);
  return {
    id: rowKey(v.seq, c.ordinal),
    chunk_id: c.chunk_id === derivedChunkId(v.version_id, c.ordinal) ? null : c.chunk_id,
    meta: JSON.stringify(meta),
    text: derived ? null : c.text,
    retrieval_prefix: prefixed ? c.retrieval_text.slice(0, c.retrieval_text.length - c.text.length) : null,
    retrieval_text: prefixed ? null : c.retrieval_text,
  };
}

/** Encodes the chunks of one version in the order they are written: compact rows (chunk-meta.ts), or the JSON row of before when that would not give the chunk back. */
class ChunkRowWriter {
  readonly #metas = new ChunkMetaWriter();
  readonly #check = new ChunkMetaReader(() => new Map());
  readonly #v: VersionIds;
  readonly #texts: (elementId: string) => CodepointText | undefined;

  constructor(v: VersionIds, texts: (elementId: string) => CodepointText | undefined) {
    this.#v = v;
    this.#texts = texts;
  }

  encode(c: Chunk): ChunkRow {
    const json = jsonChunkRow(this.#v, c, this.#texts);
    try {
      const compact = {
        ...json,
        ...this.#metas.encode({ meta: JSON.parse(json.meta) as ChunkMeta, prefix: json.retrieval_prefix }),
      };
      const again = JSON.stringify(decodeChunk(this.#v, compact, this.#texts, this.#check));
      if (again === JSON.stringify(decodeChunk(this.#v, json, this.#texts, this.#check))) {
        this.#metas.remember(c.ordinal, compact);
        return compact;
      }
    } catch {
      // a value of a shape the compact form does not know: stored as JSON below
    }
    return json;
  }
}

/** The element ids a stored chunk's text is made of (none when it kept its text). */
export function chunkTextSources(row: ChunkRow): string[] {
  if (row.text !== null) return [];
  return row.meta.startsWith('{') ? (JSON.parse(row.meta) as ChunkMeta).e.map((r) => r[0]) : compactChunkElementIds(row.meta);
}

/**
 * The chunk as it was written, its keys in the schema's order: its meta a JSON object (rows written
 * before the compact form) or a compact array read with the version's `reader` (chunk-meta.ts).
 */
export function decodeChunk(
  v: VersionIds,
  row: ChunkRow,
  texts: (elementId: string) => CodepointText | undefined,
  reader: ChunkMetaReader,
): Chunk {
  const ordinal = row.id % PER_VERSION;
  const { meta, prefix } = row.meta.startsWith('{')
    ? { meta: JSON.parse(row.meta) as ChunkMeta, prefix: row.retrieval_prefix }
    : reader.decode(ordinal, row);
  const text = row.text ?? textFromElements(meta.e, texts);
  if (text === null)
    throw createError('PP_INTERNAL', `Chunk ${ordinal} of version ${v.version_id} cites an element that is not stored.`);
  const fields: Record<string, unknown> = {
    chunk_id: row.chunk_id ?? derivedChunkId(v.version_id, ordinal),
    chunk_set_id: meta.s,
    version_id: meta.v ?? v.version_id,
    document_id: meta.d ?? v.document_id,
    collection_id: meta.c ?? v.collection_id,
    ordinal,
    elements: meta.e.map(([element_id, start, end]) => ({ element_id, start, end })),
    text,
    retrieval_text: row.retrieval_text ?? `${prefix ?? ''}${text}`,
    page_index: meta.pi,
    sheet: meta.sh,
    section_path: meta.p,
  };
  const out: Record<string, unknown> = {};
  for (const key of CHUNK_KEYS) if (fields[key] !== undefined) out[key] = fields[key];
  return out as Chunk;
}

/** The version's seq and ids (what its content rows are keyed and completed by); null when no such version. */
export function versionIds(db: SqliteDatabase, versionId: string): VersionIds | null {
  return (
    (db.prepare('SELECT seq, version_id, document_id, collection_id FROM versions WHERE version_id = ?').get(versionId) as
      | VersionIds
      | undefined) ?? null
  );
}

/** The stored chunk a derived-form id names, when that chunk kept no id of its own. */
export function findDerivedChunk(
  db: SqliteDatabase,
  chunkId: string,
  versions?: Map<string, VersionIds | null>,
): { v: VersionIds; row: ChunkRow } | null {
  const parsed = parseChunkId(chunkId);
  if (!parsed || parsed.ordinal >= PER_VERSION) return null;
  let v = versions?.get(parsed.versionId);
  if (v === undefined) {
    v = versionIds(db, parsed.versionId);
    versions?.set(parsed.versionId, v);
  }
  if (!v) return null;
  const row = db.prepare('SELECT * FROM version_chunks WHERE id = ? AND chunk_id IS NULL').get(rowKey(v.seq, parsed.ordinal)) as
    | ChunkRow
    | undefined;
  return row ? { v, row } : null;
}

/**
 * Chunk ids are unique across the store. A derived id is unique by its version and ordinal, so
 * only the few ids kept whole can collide: with another kept id, or with a derived one.
 */
function checkChunkIdFree(db: SqliteDatabase, chunkId: string, kept: boolean): void {
  const taken = () => createError('PP_CONFLICT', `Chunk id ${chunkId} is already stored.`);
  if (db.prepare('SELECT 1 FROM version_chunks WHERE chunk_id = ?').get(chunkId)) throw taken();
  if (kept && findDerivedChunk(db, chunkId)) throw taken();
}

/** Writes a version's elements and chunks (validated, the version's old content deleted) inside the caller's transaction. */
export function insertContent(db: SqliteDatabase, v: VersionIds, elements: Element[], chunks: Chunk[]): void {
  const insertElement = db.prepare(
    'INSERT INTO version_elements (id, element_id, meta, text) VALUES (@id, @element_id, @meta, @text)',
  );
  const insertChunk = db.prepare(
    `INSERT INTO version_chunks (id, chunk_id, meta, text, retrieval_prefix, retrieval_text)
     VALUES (@id, @chunk_id, @meta, @text, @retrieval_prefix, @retrieval_text)`,
  );
  const byId = new Map<string, Element>();
  const metas = new ElementMetaWriter();
  elements.forEach((e, i) => {
    if (byId.has(e.element_id))
      throw createError('PP_VALIDATION', `Element id ${e.element_id} appears twice in version ${v.version_id}.`);
    byId.set(e.element_id, e);
    insertElement.run({
      id: rowKey(v.seq, i),
      element_id: e.element_id === derivedElementId(i) ? null : e.element_id,
      meta: metas.encode(i, e),
      text: encodeElementText(e.text),
    });
  });
  const texts = new Map<string, CodepointText>();
  const lookup = (id: string): CodepointText | undefined => {
    let t = texts.get(id);
    if (!t) {
      const e = byId.get(id);
      if (!e) return undefined;
      t = codepointText(e.text);
      texts.set(id, t);
    }
    return t;
  };
  const chunkIds = new Set<string>();
  const rows = new ChunkRowWriter(v, lookup);
  for (const c of chunks) {
    if (chunkIds.has(c.chunk_id))
      throw createError('PP_VALIDATION', `Chunk id ${c.chunk_id} appears twice in version ${v.version_id}.`);
    chunkIds.add(c.chunk_id);
    const row = rows.encode(c);
    checkChunkIdFree(db, c.chunk_id, row.chunk_id !== null);
    insertChunk.run(row);
  }
}
