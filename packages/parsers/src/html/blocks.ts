import type { DefaultTreeAdapterTypes } from 'parse5';
import { MappedText } from '../text/mapped-text.js';
import { HIDDEN_CLASS, startTagEnd } from './lean-tree.js';
import { alignTextNode } from './text-origins.js';

type Node = DefaultTreeAdapterTypes.Node;
type Element = DefaultTreeAdapterTypes.Element;

type BlockKind = 'title' | 'heading' | 'paragraph' | 'list_item' | 'code' | 'quote' | 'row';

/** A unit of visible text found in an HTML tree, with the UTF-16 source range of the element that produced it. */
export interface HtmlBlock {
  kind: BlockKind;
  level?: number;
  text: string;
  source: { start: number; end: number };
  /** Where runs of the text sit in the source (UTF-16 pieces, see MappedText.pieces), when the walker was given it. */
  pieces?: number[] | undefined;
  /** Rows: the text of each cell, and the table's index in the document. */
  cells?: string[];
  header?: boolean;
  table_index?: number;
  /** Rows: the visible cells placed on the table's grid (colspan/rowspan honoured), with their source ranges. */
  grid?: GridCell[];
  /** Rows: 0-based row within the table. */
  table_row?: number;
  /** Rows: 0-based row among all of the table's rows, empty ones included (where the row sits in the original grid). */
  grid_row?: number;
  /** Rows: the grid column of each visible cell, in the order of `cells`. */
  cell_cols?: number[];
  /** Rows: header name per grid column (from the table's header rows). */
  names?: Map<number, string>;
  /** Rows: cells spanned into this row from rows above (rowspan). */
  carried?: { col: number; value: string }[];
  /** Rows: the table's <caption>. */
  caption?: string;
}

interface GridCell {
  /** Position among the row's visible cells (empty ones included). */
  index: number;
  text: string;
  col: number;
  span: number;
  th: boolean;
  source: { start: number; end: number };
}

export interface BlockStats {
  scripts: number;
  hidden: number;
}

const dropped = new Set([
  'script',
  'style',
  'noscript',
  'template',
  'iframe',
  'object',
  'embed',
  'svg',
  'canvas',
  'select',
  'datalist',
  'head',
]);
const blockTags = new Set([
  'address',
  'article',
  'aside',
  'blockquote',
  'body',
  'caption',
  'center',
  'dd',
  'details',
  'dialog',
  'dir',
  'div',
  'dl',
  'dt',
  'fieldset',
  'figcaption',
  'figure',
  'footer',
  'form',
  'h1',
  'h2',
  'h3',
  'h4',
  'h5',
  'h6',
  'header',
  'hgroup',
  'hr',
  'html',
  'legend',
  'li',
  'main',
  'menu',
  'nav',
  'ol',
  'p',
  'pre',
  'section',
  'summary',
  'ul',
  'title',
  'option',
  'tr',
  'td',
  'th',
]);

function isElement(node: Node): node is Element {
  return 'tagName' in node;
}

function attr(el: Element, name: string): string | undefined {
  return el.attrs.find((a) => a.name === name)?.value;
}

function isHidden(el: Element): boolean {
  if (el.attrs.some((a) => a.name === 'hidden') || attr(el, 'aria-hidden') === 'true') return true;
  if (el.tagName === 'input' && attr(el, 'type') === 'hidden') return true;
  return /display\s*:\s*none|visibility\s*:\s*hidden/i.test(attr(el, 'style') ?? '');
}

/** A sortable table's sort key ("Plushenko, Evgeni" before "Evgeni Plushenko"): the page's stylesheet hides it. */
const isSortKey = (el: Element): boolean => HIDDEN_CLASS.test(attr(el, 'class') ?? '');

function sourceOf(el: Element): { start: number; end: number } | undefined {
  const loc = el.sourceCodeLocation;
  if (!loc) return undefined;
  return { start: loc.startOffset, end: Math.max(loc.endOffset, startTagEnd(loc) ?? loc.startOffset) };
}

/** Collapses inline whitespace (spaces, tabs, newlines) to one space; <br> newlines survive. */
function collapseInline(raw: MappedText): MappedText {
  return raw
    .replace(/[ \t\n\r\f]+/g, ' ')
    .replace(/ ?\u2028 ?/g, '\n')
    .trim();
}

function kindOf(tag: string): { kind: BlockKind; level?: number } {
  if (/^h[1-6]$/.test(tag)) return { kind: 'heading', level: Number(tag[1]) };
  if (tag === 'li') return { kind: 'list_item' };
  if (tag === 'pre') return { kind: 'code' };
  if (tag === 'blockquote') return { kind: 'quote' };
  if (tag === 'title') return { kind: 'title' };
  return { kind: 'paragraph' };
}

const BR = '\uE000';

function rowsOf(table: Element): Element[] {
  const rows: Element[] = [];
  for (const child of table.childNodes) {
    if (!isElement(child)) continue;
    if (child.tagName === 'tr') rows.push(child);
    else if (['thead', 'tbody', 'tfoot'].includes(child.tagName)) {
      for (const row of child.childNodes) if (isElement(row) && row.tagName === 'tr') rows.push(row);
    }
  }
  return rows;
}

function spanOf(el: Element, name: string): number {
  const n = Number.parseInt(attr(el, name) ?? '1', 10);
  return Number.isFinite(n) && n > 1 ? Math.min(n, 1000) : 1;
}

const NUMERIC = /^[-+]?[\d,.]*\d[\d,.]*%?$/;

/**
 * The header rows of a table: its leading all-<th> rows; without any, a first row of distinct
 * non-numeric texts above a row with a number. Marks them and returns the name of each grid column
 * (a group heading spread over the columns it spans, header rows joined with " / ").
 */
function headerNames(rows: HtmlBlock[]): Map<number, string> {
  let count = 0;
  while (count < rows.length - 1 && rows[count]?.header) count++;
  const [first, second] = rows;
  if (count === 0 && first && second) {
    const texts = (first.grid ?? []).map((g) => g.text.toLowerCase());
    const distinct = texts.length >= 2 && new Set(texts).size === texts.length && texts.every((t) => !NUMERIC.test(t));
    if (distinct && (second.grid ?? []).some((g) => NUMERIC.test(g.text))) count = 1;
  }
  const parts = new Map<number, string[]>();
  const width = Math.max(0, ...rows.map((r) => (r.grid ?? []).reduce((n, g) => Math.max(n, g.col + g.span), 0)));
  rows.forEach((r, i) => {
    r.header = i < count;
    if (i >= count) return;
    // one cell across the whole table is the table's title, not a column's name
    const grid = r.grid ?? [];
    if (grid.length === 1 && width > 1) return;
    for (const g of grid) {
      for (let c = g.col; c < g.col + g.span; c++) {
        const list = parts.get(c) ?? [];
        if (!list.includes(g.text)) list.push(g.text);
        parts.set(c, list);
      }
    }
  });
  return new Map([...parts].map(([c, list]) => [c, list.join(' / ')]));
}

/** Walks an HTML tree in document order and collects its visible text as blocks. Nothing is executed. */
export class BlockWalker {
  readonly blocks: HtmlBlock[] = [];
  /** The text nodes in the buffer, with their source ranges (only when the source was given). */
  private nodes: { at: number; value: string; start: number; end: number }[] = [];
  readonly stats: BlockStats = { scripts: 0, hidden: 0 };
  private tables = 0;
  private buffer = '';
  private owner: Element | undefined;
  /** Whether the owner has had a nested block: its runs then map to their own text's extent in the source. */
  private nested = false;
  private runStart = -1;
  private runEnd = -1;
  private preDepth = 0;
  /** Sort keys are read (a cell that shows no other text). */
  private sortKeys = false;
  /** Inside an <li>: its paragraphs are list items too (<li><p>…</p></li>). */
  private listDepth = 0;

  /** With the source the tree was parsed from, every block's text keeps where each unit came from. */
  constructor(private readonly source?: string) {}

  walk(node: Node): void {
    if (!isElement(node)) {
      if (node.nodeName === '#text' && 'value' in node) {
        const loc = node.sourceCodeLocation;
        if (loc) {
          if (this.runStart < 0) this.runStart = loc.startOffset;
          this.runEnd = loc.endOffset;
          if (this.source !== undefined)
            this.nodes.push({ at: this.buffer.length, value: node.value, start: loc.startOffset, end: loc.endOffset });
        }
        this.buffer += node.value;
      } else if ('childNodes' in node) for (const child of node.childNodes) this.walk(child);
      return;
    }
    const tag = node.tagName;
    if (tag === 'head') {
      this.walkHead(node);
      return;
    }
    if (dropped.has(tag) || isHidden(node) || (isSortKey(node) && !this.sortKeys)) {
      if (tag === 'script' || tag === 'style' || tag === 'noscript') this.stats.scripts++;
      else if (tag !== 'template') this.stats.hidden++;
      return;
    }
    if (tag === 'br') this.buffer += BR;
    else if (tag === 'table') this.table(node);
    else if (blockTags.has(tag)) this.block(node);
    else for (const child of node.childNodes) this.walk(child);
  }

  /** Ends the current run of inline text as a block owned by the nearest block element. */
  flush(): void {
    const raw = this.buffered();
    const run = this.runStart >= 0 ? { start: this.runStart, end: this.runEnd } : undefined;
    this.buffer = '';
    this.nodes = [];
    this.runStart = -1;
    this.runEnd = -1;
    const owner = this.owner;
    const source = owner && (this.nested ? run : sourceOf(owner));
    if (!owner || !source) return;
    const mapped =
      this.preDepth > 0
        ? raw
            .replace(/\uE000/g, '\n')
            .replace(/^\r?\n/g, '')
            .trimEnd()
        : collapseInline(raw.replace(/\uE000/g, '\u2028'));
    const text = mapped.text;
    if (text.trim() === '') return;
    const kind = kindOf(owner.tagName);
    const pieces = mapped.pieces();
    this.blocks.push(
      kind.kind === 'paragraph' && this.listDepth > 0
        ? { kind: 'list_item', text, source, pieces }
        : { ...kind, text, source, pieces },
    );
  }

  /** The buffered text, each unit with its source range when the source is known. */
  private buffered(): MappedText {
    if (this.source === undefined) return new MappedText(this.buffer, null, null);
    const from = new Int32Array(this.buffer.length).fill(-1);
    const to = new Int32Array(this.buffer.length).fill(-1);
    for (const n of this.nodes) alignTextNode(n.value, this.source, n.start, n.end, from, to, n.at);
    return new MappedText(this.buffer, from, to);
  }

  private block(el: Element): void {
    this.nested = true;
    this.flush();
    const saved = this.owner;
    this.owner = el;
    this.nested = false;
    if (el.tagName === 'pre') this.preDepth++;
    if (el.tagName === 'li') this.listDepth++;
    for (const child of el.childNodes) this.walk(child);
    this.flush();
    if (el.tagName === 'pre') this.preDepth--;
    if (el.tagName === 'li') this.listDepth--;
    this.owner = saved;
    this.nested = true;
  }

  private walkHead(head: Element): void {
    for (const child of head.childNodes) {
      if (isElement(child) && child.tagName === 'title') this.block(child);
    }
  }

  /** Every row of a table is a block: its non-empty cells' text joined with " | ", its cells on the table's grid. */
  private table(el: Element): void {
    this.nested = true;
    this.flush();
    const tableIndex = this.tables++;
    let caption: string | undefined;
    for (const child of el.childNodes) {
      if (isElement(child) && child.tagName === 'caption') {
        this.block(child);
        caption = this.blocks.at(-1)?.text;
      }
    }
    const rows: HtmlBlock[] = [];
    const spans = new Map<number, { value: string; left: number }>();
    let gridRow = -1;
    for (const row of rowsOf(el)) {
      gridRow++;
      const cellEls = row.childNodes.filter((c): c is Element => isElement(c) && (c.tagName === 'td' || c.tagName === 'th'));
      // a cell whose only text is its sort key (a flag icon beside "Belgium") reads as that key
      const mappedCells = cellEls
        .filter((c) => !isHidden(c))
        .map((c) => {
          const text = this.textOf(c);
          return text.text === '' ? this.textOf(c, true) : text;
        });
      const cells = mappedCells.map((c) => c.text);
      const source = sourceOf(row);
      const active = new Map(spans);
      const grid: GridCell[] = [];
      const cellCols: number[] = [];
      let col = 0;
      let k = 0;
      for (const cellEl of cellEls) {
        if (isHidden(cellEl)) continue;
        while (active.has(col)) col++;
        const index = k++;
        const text = cells[index] ?? '';
        const span = spanOf(cellEl, 'colspan');
        const down = spanOf(cellEl, 'rowspan');
        const at = sourceOf(cellEl);
        cellCols.push(col);
        if (at) grid.push({ index, text, col, span, th: cellEl.tagName === 'th', source: at });
        if (down > 1) for (let c = col; c < col + span; c++) spans.set(c, { value: text, left: down });
        col += span;
      }
      for (const [c, s] of spans) {
        s.left--;
        if (s.left <= 0) spans.delete(c);
      }
      if (!source || cells.every((c) => c === '')) continue;
      const header = cellEls.every((c) => c.tagName === 'th');
      const carried = [...active].filter(([, s]) => s.value !== '').map(([c, s]) => ({ col: c, value: s.value }));
      // Empty cells (layout tables) stay in `cells` for the column positions but not in the text.
      const mapped = this.joined(
        mappedCells.filter((c) => c.text !== ''),
        ' | ',
      );
      rows.push({
        kind: 'row',
        text: mapped.text,
        source,
        pieces: mapped.pieces(),
        cells,
        header,
        table_index: tableIndex,
        grid: grid.filter((g) => g.text !== ''),
        table_row: rows.length,
        grid_row: gridRow,
        cell_cols: cellCols,
        ...(carried.length > 0 ? { carried } : {}),
        ...(caption !== undefined ? { caption } : {}),
      });
    }
    const names = headerNames(rows);
    for (const r of rows) this.blocks.push({ ...r, names });
  }

  /** All visible text inside an element as one line (nested blocks joined with a space). */
  private textOf(el: Element, sortKeys = false): MappedText {
    const inner = new BlockWalker(this.source);
    inner.owner = el;
    inner.sortKeys = sortKeys;
    for (const child of el.childNodes) inner.walk(child);
    inner.flush();
    this.stats.scripts += inner.stats.scripts;
    this.stats.hidden += inner.stats.hidden;
    return this.joined(
      inner.blocks.map((b) => MappedText.fromPieces(b.text, b.pieces)),
      ' ',
    )
      .replace(/\s+/g, ' ')
      .trim();
  }

  /** Texts joined by a separator the walker adds (no source of its own). */
  private joined(parts: readonly MappedText[], separator: string): MappedText {
    const glue = MappedText.added(separator, this.source !== undefined);
    return MappedText.concat(parts.flatMap((p, i) => (i === 0 ? [p] : [glue, p])));
  }
}
