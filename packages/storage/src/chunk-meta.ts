import { createError } from '@pinpoint/core';
import { derivedElementId, parseElementId } from './derived-ids.js';

/**
 * The `meta` column of a chunk row: the chunk's fields other than its id, ordinal, text and
 * retrieval text.
 *
 * Rows written before this form hold them as a JSON object with short keys (`{` first, ChunkMeta).
 * Rows written now hold a JSON array (`[` first), positional and without keys:
 *
 *   [chunk_set_id, elements, section_path, retrieval_prefix, page_index, sheet, version_id, document_id, collection_id]
 *
 * absent fields as null, trailing nulls dropped. `elements` is [first position, start, end, start,
 * end, …] when the chunk cites elements of derived ids (`e` + six digits) at consecutive positions,
 * else a list of [id, start, end], an id of the derived form as its position. Three values repeat
 * across a version's chunks and are stored once: the chunk_set_id, the section path and the
 * retrieval prefix may be the ordinal (a number) of the first chunk of the version written with the
 * same value, which holds it itself (its prefix in its `retrieval_prefix` column, which is then
 * null in the chunks referring to it). A read of one chunk therefore needs at most one more
 * statement, reading the chunks holding its shared values.
 *
 * Each chunk is decoded again once encoded, and one that does not come back identical is stored
 * as the JSON object of before.
 */

export type ChunkRef = [element_id: string, start: number, end: number];

/** A chunk's fields other than its text, as stored before the compact form (short keys). */
export interface ChunkMeta {
  /** chunk_set_id */
  s: string;
  /** element refs */
  e: ChunkRef[];
  /** section_path */
  p: string[];
  /** page_index, sheet */
  pi?: number;
  sh?: string;
  /** version, document and collection ids, when they differ from the version's */
  v?: string;
  d?: string;
  c?: string;
}

/** A chunk's meta with its retrieval prefix (null: its retrieval text is stored whole, or is its text). */
export interface ChunkMetaWithPrefix {
  meta: ChunkMeta;
  prefix: string | null;
}

/** The columns of a chunk row the compact form spreads its values over. */
export interface ChunkMetaColumns {
  meta: string;
  retrieval_prefix: string | null;
}

type Compact = unknown[];
const OPTIONAL_KEYS = ['pi', 'sh', 'v', 'd', 'c'] as const;

function trimmed(values: unknown[]): unknown[] {
  let n = values.length;
  while (n > 0 && (values[n - 1] === null || values[n - 1] === undefined)) n--;
  return values.slice(0, n).map((v) => v ?? null);
}

function compactRefs(refs: ChunkRef[]): Compact {
  const positions = refs.map((r) => parseElementId(r[0]));
  const first = positions[0];
  if (typeof first === 'number' && positions.every((p, i) => p === first + i))
    return [first, ...refs.flatMap((r) => [r[1], r[2]])];
  return refs.map((r, i) => [positions[i] ?? r[0], r[1], r[2]]);
}

function expandRefs(c: Compact): ChunkRef[] {
  const first = c[0];
  if (typeof first === 'number') {
    const refs: ChunkRef[] = [];
    for (let i = 1; i < c.length; i += 2) refs.push([derivedElementId(first + (i - 1) / 2), c[i] as number, c[i + 1] as number]);
    return refs;
  }
  return (c as Compact[]).map(([id, start, end]) => [
    typeof id === 'number' ? derivedElementId(id) : (id as string),
    start as number,
    end as number,
  ]);
}

/** The element ids a compact meta column cites (no shared value needed). */
export function compactChunkElementIds(meta: string): string[] {
  return expandRefs((JSON.parse(meta) as Compact)[1] as Compact).map((r) => r[0]);
}

/** The ordinals of the chunks a compact array takes a value stored once from. */
const sharedFrom = (c: Compact): number[] => [c[0], c[2], c[3]].filter((v): v is number => typeof v === 'number');

/**
 * Gives back the meta of one version's chunks from their compact arrays. The values stored once are
 * taken from chunks decoded before or, when those were not, read in one go with
 * `readRows(ordinals)` (the meta and retrieval_prefix columns of each chunk asked for).
 */
export class ChunkMetaReader {
  readonly #readRows: (ordinals: number[]) => Map<number, ChunkMetaColumns>;
  readonly #seen = new Set<number>();
  readonly #sets = new Map<number, string>();
  readonly #paths = new Map<number, string[]>();
  readonly #prefixes = new Map<number, string>();

  constructor(readRows: (ordinals: number[]) => Map<number, ChunkMetaColumns>) {
    this.#readRows = readRows;
  }

  decode(ordinal: number, row: ChunkMetaColumns): ChunkMetaWithPrefix {
    const c = JSON.parse(row.meta) as Compact;
    this.#seen.add(ordinal);
    this.#load(sharedFrom(c));
    const meta: Record<string, unknown> = {
      s: this.#shared(this.#sets, ordinal, c[0]),
      e: expandRefs(c[1] as Compact),
      p: (this.#shared(this.#paths, ordinal, c[2]) as string[]).slice(),
    };
    OPTIONAL_KEYS.forEach((key, i) => {
      const value = c[4 + i];
      if (value !== null && value !== undefined) meta[key] = value;
    });
    if (typeof c[3] === 'number') return { meta: meta as unknown as ChunkMeta, prefix: this.#prefixes.get(c[3]) ?? null };
    if (row.retrieval_prefix !== null) this.#prefixes.set(ordinal, row.retrieval_prefix);
    return { meta: meta as unknown as ChunkMeta, prefix: row.retrieval_prefix };
  }

  #shared<T>(held: Map<number, T>, ordinal: number, value: unknown): T {
    if (typeof value === 'number') return held.get(value) as T;
    held.set(ordinal, value as T);
    return value as T;
  }

  /** Decodes the chunks at `ordinals` not decoded yet, which hold values stored once (always compact rows holding them). */
  #load(ordinals: number[]): void {
    const missing = [...new Set(ordinals.filter((o) => !this.#seen.has(o)))].sort((a, b) => a - b);
    if (missing.length === 0) return;
    for (const [at, row] of [...this.#readRows(missing)].sort((a, b) => a[0] - b[0]))
      if (row.meta.startsWith('[')) this.decode(at, row);
    for (const at of missing)
      if (!this.#seen.has(at))
        throw createError('PP_INTERNAL', `Chunk ${at} holds a value other chunks share and is not stored in the compact form.`);
  }
}

/** Where each value stored once sits: the ordinal of the first chunk of the version written with it. */
interface SharedValues {
  sets: Map<string, number>;
  paths: Map<string, number>;
  prefixes: Map<string, number>;
}

/** A value, or the ordinal of the chunk holding it when that is shorter. */
function sharedOr<T>(held: Map<string, number>, key: string, value: T): T | number {
  const at = held.get(key);
  return at !== undefined && String(at).length < key.length ? at : value;
}

/** Encodes the chunks of one version in the order they are written, each value stored once kept for the chunks after it. */
export class ChunkMetaWriter {
  readonly #shared: SharedValues = { sets: new Map(), paths: new Map(), prefixes: new Map() };

  /** The compact columns of a chunk's meta and retrieval prefix. */
  encode(m: ChunkMetaWithPrefix): ChunkMetaColumns {
    const { meta, prefix } = m;
    const p = JSON.stringify(meta.p);
    const sharedPrefix = prefix === null ? null : sharedOr(this.#shared.prefixes, prefix, null);
    const c = trimmed([
      sharedOr(this.#shared.sets, JSON.stringify(meta.s), meta.s),
      compactRefs(meta.e),
      sharedOr(this.#shared.paths, p, meta.p),
      sharedPrefix,
      ...OPTIONAL_KEYS.map((key) => meta[key]),
    ]);
    return { meta: JSON.stringify(c), retrieval_prefix: sharedPrefix === null ? prefix : null };
  }

  /** Keeps the values a chunk written in the compact form holds itself, for the chunks after it. */
  remember(ordinal: number, row: ChunkMetaColumns): void {
    const c = JSON.parse(row.meta) as Compact;
    const keep = (held: Map<string, number>, key: string) => {
      if (!held.has(key)) held.set(key, ordinal);
    };
    if (typeof c[0] === 'string') keep(this.#shared.sets, JSON.stringify(c[0]));
    if (Array.isArray(c[2])) keep(this.#shared.paths, JSON.stringify(c[2]));
    if (typeof c[3] !== 'number' && row.retrieval_prefix !== null) keep(this.#shared.prefixes, row.retrieval_prefix);
  }
}
