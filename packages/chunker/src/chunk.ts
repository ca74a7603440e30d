import type { Chunk, ChunkElementRef, Element } from '@pinpoint/core';
import { chunkId } from '@pinpoint/core';
import { ElementText } from './element-text.js';
import type { Unit } from './units.js';
import { boundaryKey, sentenceUnits, tableUnits } from './units.js';

export interface ChunkOptions {
  versionId: string;
  documentId: string;
  collectionId: string;
  /** Document title (e.g. the file name without extension): part of every chunk's retrieval_text. */
  title: string;
  /** Target chunk length in codepoints. */
  targetSize?: number;
  /** Codepoints of trailing sentences repeated at the start of the next chunk. */
  overlap?: number;
}

export const CHUNKER_ID = 'pp-chunker@2';
export const DEFAULT_CHUNK_OPTIONS: Readonly<{ targetSize: number; overlap: number }> = Object.freeze({
  targetSize: 700,
  overlap: 70,
});

export function chunkSetId(options: { targetSize?: number; overlap?: number } = {}): string {
  const t = options.targetSize ?? DEFAULT_CHUNK_OPTIONS.targetSize;
  const o = options.overlap ?? DEFAULT_CHUNK_OPTIONS.overlap;
  return `c1:${t}/${o}`;
}

interface Block {
  units: Unit[];
  keepWhole: boolean;
  heading: boolean;
  key: string;
  /** A table's data row: a chunk of its own. */
  row?: boolean;
}

const isHeading = (e: Element): boolean => e.type === 'heading' || e.type === 'title';

/** A table row up to this many chunk targets long is one retrieval unit; a longer one is split as text. */
const ROW_MAX_TARGETS = 4;

/** Elements → blocks: one per element, consecutive list items of one page/sheet joined. */
function toBlocks(elements: Element[], texts: ElementText[], target: number): Block[] {
  const blocks: Block[] = [];
  const withData = new Set(elements.filter((e) => e.table && !e.table.header).map((e) => e.table?.index));
  elements.forEach((e, i) => {
    const c = texts[i] as ElementText;
    const key = boundaryKey(e);
    if (e.table && withData.has(e.table.index) && (e.table.header || c.length <= ROW_MAX_TARGETS * target)) {
      // Header names travel in every row's retrieval text; a header row alone is never a candidate.
      // A row many chunks long (a one-line export) is read as text below, in chunk-sized pieces.
      if (!e.table.header)
        blocks.push({
          units: [{ element: i, start: 0, end: c.length, length: c.length }],
          keepWhole: true,
          heading: false,
          key,
          row: true,
        });
      return;
    }
    const whole = c.length <= target;
    if (e.type === 'table' && !whole) {
      blocks.push({ units: tableUnits(c, i, target), keepWhole: false, heading: false, key });
      return;
    }
    const units = whole ? [{ element: i, start: 0, end: c.length, length: c.length }] : sentenceUnits(c, i, target);
    const prev = blocks.at(-1);
    if (
      e.type === 'list_item' &&
      prev?.keepWhole &&
      prev.key === key &&
      elements[prev.units[0]?.element ?? -1]?.type === 'list_item'
    ) {
      prev.units.push(...units);
      return;
    }
    const keepWhole = e.type === 'table' || e.type === 'list_item';
    if (!keepWhole && whole) blocks.push({ units: sentenceUnits(c, i, target), keepWhole, heading: isHeading(e), key });
    else blocks.push({ units, keepWhole, heading: isHeading(e), key });
  });
  return blocks.filter((b) => b.units.length > 0);
}

const lengthOf = (units: Unit[]): number => units.reduce((n, u) => n + u.length + 1, 0);

export function chunkElements(elements: Element[], options: ChunkOptions): Chunk[] {
  const target = options.targetSize ?? DEFAULT_CHUNK_OPTIONS.targetSize;
  const overlap = options.overlap ?? DEFAULT_CHUNK_OPTIONS.overlap;
  const texts = elements.map((e) => new ElementText(e.text));
  const chunks: Chunk[] = [];
  let current: Unit[] = [];
  let key = '';
  const flush = (carry: boolean): void => {
    if (current.length === 0) return;
    chunks.push(buildChunk(current, elements, texts, options, chunks.length));
    current = carry ? overlapTail(current, overlap) : [];
  };
  for (const block of toBlocks(elements, texts, target)) {
    if (block.key !== key) flush(false);
    key = block.key;
    if (block.row) {
      flush(false);
      current = block.units;
      flush(false);
      continue;
    }
    if (block.heading && lengthOf(current) >= target / 3) flush(false);
    if (block.keepWhole && lengthOf(block.units) <= target && lengthOf(current) + lengthOf(block.units) > target) flush(true);
    for (const u of block.units) {
      if (current.length > 0 && lengthOf(current) + u.length > target) flush(true);
      if (u.header && !current.some((c) => c.element === u.element && c.start === u.header?.start)) {
        const h = u.header;
        const at = current.findIndex((c) => c.element === u.element);
        current.splice(at < 0 ? current.length : at, 0, {
          element: u.element,
          start: h.start,
          end: h.end,
          length: h.end - h.start,
        });
      }
      current.push(u);
    }
  }
  flush(false);
  return chunks;
}

/** Trailing sentences (not table headers) that fit in the overlap budget. */
function overlapTail(units: Unit[], overlap: number): Unit[] {
  const tail: Unit[] = [];
  let len = 0;
  for (let i = units.length - 1; i > 0; i--) {
    const u = units[i] as Unit;
    if (len + u.length > overlap) break;
    tail.unshift(u);
    len += u.length + 1;
  }
  return tail.filter((u) => !(u.header && u.start === u.header.start));
}

function buildChunk(units: Unit[], elements: Element[], texts: ElementText[], o: ChunkOptions, ordinal: number): Chunk {
  const refs: (ChunkElementRef & { index: number })[] = [];
  for (const u of units) {
    const last = refs.at(-1);
    const gap =
      last && last.index === u.element && u.start >= last.end ? (texts[u.element] as ElementText).slice(last.end, u.start) : null;
    if (last && gap !== null && /^\s*$/u.test(gap)) last.end = u.end;
    else refs.push({ index: u.element, element_id: (elements[u.element] as Element).element_id, start: u.start, end: u.end });
  }
  const text = refs.map((r) => (texts[r.index] as ElementText).slice(r.start, r.end)).join('\n');
  const first = elements[refs[0]?.index ?? 0] as Element;
  const trail = first.section_path;
  const chunk: Chunk = {
    chunk_id: chunkId(o.versionId, ordinal),
    chunk_set_id: chunkSetId(o),
    version_id: o.versionId,
    document_id: o.documentId,
    collection_id: o.collectionId,
    ordinal,
    elements: refs.map(({ element_id, start, end }) => ({ element_id, start, end })),
    text,
    retrieval_text: wholeRow(first, refs, texts)
      ? rowRetrievalText(first, o.title)
      : [o.title, trail.join(' › '), text].filter((s) => s.length > 0).join('\n'),
    section_path: trail,
  };
  if (first.anchor.kind === 'page') chunk.page_index = first.anchor.page_index;
  if (first.anchor.kind === 'record' && first.anchor.sheet !== undefined) chunk.sheet = first.anchor.sheet;
  return chunk;
}

/** The chunk is exactly one whole table row (not a piece of an over-long one). */
function wholeRow(first: Element, refs: { index: number; start: number; end: number }[], texts: ElementText[]): boolean {
  const [only, ...more] = refs;
  return (
    first.table !== undefined &&
    only !== undefined &&
    more.length === 0 &&
    only.start === 0 &&
    only.end === texts[only.index]?.length
  );
}

/**
 * A table row's retrieval text: the table's titles (document, heading trail, caption) and each value
 * beside its header name, cells spanned from rows above included — "Country: Canada · Product: Carretera".
 */
function rowRetrievalText(e: Element, title: string): string {
  const titles = [title, e.section_path.join(' › ')];
  const caption = e.table?.title;
  if (caption && !titles.some((t) => t.includes(caption))) titles.push(caption);
  const chars = Array.from(e.text);
  const pairs = [
    ...(e.table?.carried ?? []).map((c) => ({ col: c.col, header: c.header, value: c.value })),
    ...(e.cells ?? []).map((c) => ({ col: c.col, header: c.header, value: chars.slice(c.start, c.end).join('') })),
  ].sort((a, b) => a.col - b.col);
  const row = pairs.length > 0 ? pairs.map((p) => (p.header ? `${p.header}: ${p.value}` : p.value)).join(' · ') : e.text;
  return [...titles.filter((t) => t.length > 0), row].join('\n');
}
