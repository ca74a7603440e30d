import type { Element } from '@pinpoint/core';
import { createError } from '@pinpoint/core';

/**
 * The `meta` column of an element row: the element's fields other than its id and text.
 *
 * Rows written before this form hold the fields as a JSON object (`{` first). Rows written now hold
 * a JSON array (`[` first), positional and without keys:
 *
 *   [type, section_path, anchor, level, raw_map, spans, columns, cells, table, confidence]
 *
 * absent fields as null, trailing nulls dropped. `type` is its index in ELEMENT_TYPES when listed
 * there. `anchor` is [kind, ...its fields other than those fixed by the kind] in the order of its
 * layout in ANCHORS, enum values listed in the layout as their index. Two values repeat across a
 * version's elements and are stored once: a `section_path` may be the position (a number) of an
 * earlier element of the version that holds the same path, and an anchor's sha256 the position of
 * an earlier element whose anchor holds it. The element a position names always holds the value
 * itself, so a read of one element needs at most two more.
 *
 * The lists below only ever grow at their end: rows store indexes into them. Each element is
 * decoded again once encoded, and one that does not come back identical (a field or value these
 * layouts do not know, keys in another order) is stored as a JSON object instead.
 */
const ELEMENT_TYPES = [
  'title',
  'heading',
  'paragraph',
  'list_item',
  'table',
  'table_cell',
  'figure',
  'record',
  'ocr_line',
  'code',
  'quote',
];

/** The keys of an element in the order they are given back; `element_id` and `text` come from the row's columns. */
const ELEMENT_KEYS = [
  'element_id',
  'type',
  'level',
  'section_path',
  'text',
  'anchor',
  'raw_map',
  'spans',
  'columns',
  'cells',
  'table',
  'confidence',
] as const;
/** The element keys after `anchor` in the array, in their order there. */
const OPTIONAL_SLOTS = ['level', 'raw_map', 'spans', 'columns', 'cells', 'table', 'confidence'] as const;

/**
 * Slots whose objects are stored as arrays of their values, in the order of these keys (absent as
 * null, trailing nulls dropped): a list of objects (`spans`, `cells`) or one object (`table`).
 */
const OBJECT_LISTS: Readonly<Record<string, readonly string[]>> = {
  spans: ['start', 'end', 'box'],
  cells: ['ref', 'col', 'start', 'end', 'header', 'raw'],
};
const OBJECTS: Readonly<Record<string, readonly string[]>> = {
  table: ['index', 'row', 'header', 'title', 'carried'],
};

interface AnchorLayout {
  /** Every key of the anchor in the order it is given back. */
  keys: readonly string[];
  /** Keys with the one value the kind allows: not stored. */
  fixed: Readonly<Record<string, string>>;
  /** Keys stored as the index of their value in a list of the usual ones. */
  coded: Readonly<Record<string, readonly string[]>>;
  /** The key of the sha256 the version's elements share. */
  sha: string | null;
}

/** Anchor layouts, indexed by the kind's code. */
const ANCHORS: readonly AnchorLayout[] = [
  {
    keys: ['kind', 'artifact', 'unit', 'start', 'end', 'text_sha256', 'raw', 'json_pointer'],
    fixed: { kind: 'text', artifact: 'original', unit: 'codepoint' },
    coded: {},
    sha: 'text_sha256',
  },
  {
    keys: ['kind', 'artifact', 'page_index', 'page_label', 'page_width', 'page_height', 'unit', 'rotation', 'boxes'],
    fixed: { kind: 'page' },
    coded: { artifact: ['original', 'pdf'], unit: ['pt', 'px'] },
    sha: null,
  },
  {
    keys: [
      'kind',
      'artifact',
      'record_id',
      'records_sha256',
      'sheet',
      'row',
      'cell_range',
      'paragraph_index',
      'table_index',
      'physical_lines',
    ],
    fixed: { kind: 'record', artifact: 'records.jsonl' },
    coded: {},
    sha: 'records_sha256',
  },
];
const STORED_KEYS = ANCHORS.map((l) => l.keys.filter((k) => !(k in l.fixed)));

interface AnchorSlots {
  /** Each key of the layout with its index in the anchor's array (-1: fixed by the kind, not stored). */
  slots: [key: string, slot: number][];
  shaSlot: number | undefined;
}
const ANCHOR_SLOTS: readonly AnchorSlots[] = ANCHORS.map((l, kind) => {
  const slot = (key: string): number => (key in l.fixed ? -1 : 1 + (STORED_KEYS[kind] as string[]).indexOf(key));
  return { slots: l.keys.map((k) => [k, slot(k)]), shaSlot: l.sha ? slot(l.sha) : undefined };
});

type Compact = unknown[];
type Fields = Record<string, unknown>;

const code = (value: unknown, list: readonly string[] | undefined): unknown => {
  const i = list && typeof value === 'string' ? list.indexOf(value) : -1;
  return i >= 0 ? i : (value ?? null);
};
const uncode = (value: unknown, list: readonly string[] | undefined): unknown =>
  list && typeof value === 'number' ? list[value] : value;

function trimmed(values: unknown[]): unknown[] {
  let n = values.length;
  while (n > 0 && values[n - 1] === null) n--;
  return values.slice(0, n);
}

const valuesOf = (o: unknown, keys: readonly string[]): unknown[] => trimmed(keys.map((k) => (o as Fields)[k] ?? null));

function objectOf(values: unknown[], keys: readonly string[]): Fields {
  const o: Fields = {};
  keys.forEach((k, i) => {
    const v = values[i];
    if (v !== null && v !== undefined) o[k] = v;
  });
  return o;
}

/** An optional element field as stored: its objects as arrays of their values where the field has a layout. */
function compactSlot(key: string, value: unknown): unknown {
  if (value === undefined || value === null) return null;
  const list = OBJECT_LISTS[key];
  if (list) return (value as unknown[]).map((o) => valuesOf(o, list));
  const keys = OBJECTS[key];
  return keys ? valuesOf(value, keys) : value;
}

function expandSlot(key: string, value: unknown): unknown {
  const list = OBJECT_LISTS[key];
  if (list) return (value as unknown[][]).map((v) => objectOf(v, list));
  const keys = OBJECTS[key];
  return keys ? objectOf(value as unknown[], keys) : value;
}

/** Where each value stored once sits: the first element of the version that holds it. */
interface SharedValues {
  paths: Map<string, number>;
  shas: Map<string, number>;
}

function compactAnchor(anchor: Fields, shared: SharedValues): Compact | null {
  const kind = ANCHORS.findIndex((l) => l.fixed.kind === anchor.kind);
  const layout = ANCHORS[kind];
  if (!layout) return null;
  const values = (STORED_KEYS[kind] as string[]).map((key) => {
    const value = anchor[key];
    if (key === layout.sha && typeof value === 'string') return shared.shas.get(value) ?? value;
    return code(value, layout.coded[key]);
  });
  return trimmed([kind, ...values]);
}

/** The compact array of an element (without its id and text); null when its anchor is of no known kind. */
function compactElement(e: Element, shared: SharedValues): Compact | null {
  const fields = e as unknown as Fields;
  const anchor = compactAnchor(fields.anchor as Fields, shared);
  if (!anchor) return null;
  const path = JSON.stringify(e.section_path);
  const at = shared.paths.get(path);
  const pathValue = at !== undefined && String(at).length < path.length ? at : e.section_path;
  return trimmed([code(e.type, ELEMENT_TYPES), pathValue, anchor, ...OPTIONAL_SLOTS.map((key) => compactSlot(key, fields[key]))]);
}

/** The positions of the elements a compact array takes a value stored once from. */
function sharedFrom(c: Compact): number[] {
  const at: number[] = [];
  if (typeof c[1] === 'number') at.push(c[1]);
  const anchor = c[2] as Compact;
  const sha = ANCHOR_SLOTS[anchor[0] as number]?.shaSlot;
  if (sha !== undefined && typeof anchor[sha] === 'number') at.push(anchor[sha] as number);
  return at;
}

/**
 * Gives back the elements of one version from their compact arrays. The values stored once are
 * taken from elements decoded before or, when those were not, read in one go with
 * `readMetas(positions)` (the meta column of each element asked for).
 */
export class ElementMetaReader {
  readonly #readMetas: (positions: number[]) => Map<number, string>;
  readonly #seen = new Set<number>();
  readonly #paths = new Map<number, string[]>();
  readonly #shas = new Map<number, string>();

  constructor(readMetas: (positions: number[]) => Map<number, string>) {
    this.#readMetas = readMetas;
  }

  /** The element at `position` from its id, text and compact meta column, its keys in the schema's order. */
  decode(position: number, elementId: string, text: string, meta: string): Element {
    const fields = this.#fields(position, JSON.parse(meta) as Compact);
    const out: Fields = {};
    for (const key of ELEMENT_KEYS) {
      if (key === 'element_id') out[key] = elementId;
      else if (key === 'text') out[key] = text;
      else if (fields[key] !== undefined) out[key] = fields[key];
    }
    return out as Element;
  }

  #fields(position: number, c: Compact): Fields {
    this.#seen.add(position);
    this.#load(sharedFrom(c));
    const fields: Fields = { type: uncode(c[0], ELEMENT_TYPES) };
    let path = c[1];
    if (Array.isArray(path)) this.#paths.set(position, path as string[]);
    else path = this.#paths.get(path as number);
    fields.section_path = (path as string[]).slice();
    fields.anchor = this.#anchor(position, c[2] as Compact);
    OPTIONAL_SLOTS.forEach((key, i) => {
      const value = c[3 + i];
      if (value !== null && value !== undefined) fields[key] = expandSlot(key, value);
    });
    return fields;
  }

  #anchor(position: number, a: Compact): Fields {
    const kind = a[0] as number;
    const layout = ANCHORS[kind] as AnchorLayout;
    const out: Fields = {};
    for (const [key, slot] of (ANCHOR_SLOTS[kind] as AnchorSlots).slots) {
      if (slot < 0) {
        out[key] = layout.fixed[key];
        continue;
      }
      let value = a[slot];
      if (value === null || value === undefined) continue;
      if (key === layout.sha) {
        if (typeof value === 'number') value = this.#shas.get(value);
        else this.#shas.set(position, value as string);
      }
      out[key] = uncode(value, layout.coded[key]);
    }
    return out;
  }

  /** Decodes the elements at `positions` not decoded yet, which hold values stored once (always compact rows holding them). */
  #load(positions: number[]): void {
    const missing = positions.filter((p) => !this.#seen.has(p));
    if (missing.length === 0) return;
    const metas = this.#readMetas([...new Set(missing)].sort((a, b) => a - b));
    for (const [at, meta] of [...metas].sort((a, b) => a[0] - b[0])) {
      const c = JSON.parse(meta) as unknown;
      if (Array.isArray(c)) this.#fields(at, c);
    }
    for (const at of missing)
      if (!this.#seen.has(at))
        throw createError(
          'PP_INTERNAL',
          `Element ${at} holds a value other elements share and is not stored in the compact form.`,
        );
  }
}

/** Encodes the elements of one version in order, each value stored once kept for the elements after it. */
export class ElementMetaWriter {
  readonly #shared: SharedValues = { paths: new Map(), shas: new Map() };
  readonly #check = new ElementMetaReader(() => new Map());

  /** The meta column of the element at `position`: its compact array, or its JSON object when that would not give it back. */
  encode(position: number, e: Element): string {
    const { element_id, text, ...rest } = e;
    try {
      const c = compactElement(e, this.#shared);
      const meta = c && JSON.stringify(c);
      if (c && meta && JSON.stringify(this.#check.decode(position, element_id, text, meta)) === JSON.stringify(e)) {
        this.#remember(position, c);
        return meta;
      }
    } catch {
      // a field of a shape the compact form does not know: stored as JSON below
    }
    return JSON.stringify(rest);
  }

  #remember(position: number, c: Compact): void {
    if (Array.isArray(c[1])) {
      const path = JSON.stringify(c[1]);
      if (!this.#shared.paths.has(path)) this.#shared.paths.set(path, position);
    }
    const anchor = c[2] as Compact;
    const slot = ANCHOR_SLOTS[anchor[0] as number]?.shaSlot;
    const sha = slot === undefined ? undefined : anchor[slot];
    if (typeof sha === 'string' && !this.#shared.shas.has(sha)) this.#shared.shas.set(sha, position);
  }
}
