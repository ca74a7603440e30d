import type { Element, PageAnchor, PageInfo, ParseOutput, TableCell } from '@pinpoint/core';
import { elementId } from '@pinpoint/core';
import JSZip from 'jszip';
import type { ShownRow } from '../spreadsheet/header.js';
import { detectTables } from '../spreadsheet/header.js';
import { joinCells } from '../spreadsheet/records.js';

type Box = [number, number, number, number];

/** One cell of a slide table: its grid column, text and box in slide units (EMU). */
interface SlideCell {
  col: number;
  text: string;
  box: Box;
}

/** A table of a slide (DrawingML `<a:tbl>`): its frame and rows, in slide units (EMU). */
interface SlideTable {
  /** 0-based index of the slide among the shown slides: the derived PDF's page. */
  slide: number;
  frame: Box;
  rows: SlideCell[][];
}

export interface SlideTables {
  /** Slide width in EMU. */
  width: number;
  tables: SlideTable[];
}

const attr = (tag: string, name: string): string | undefined => new RegExp(`\\b${name}="([^"]*)"`).exec(tag)?.[1];
const num = (tag: string, name: string): number => Number(attr(tag, name) ?? 0) || 0;

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };
const decode = (s: string): string =>
  s.replace(/&(#x[0-9a-f]+|#\d+|amp|lt|gt|quot|apos);/gi, (_, e: string) =>
    e.startsWith('#x') || e.startsWith('#X')
      ? String.fromCodePoint(Number.parseInt(e.slice(2), 16))
      : e.startsWith('#')
        ? String.fromCodePoint(Number(e.slice(1)))
        : (ENTITIES[e.toLowerCase()] ?? ''),
  );

/** A cell's text: its paragraphs' runs, paragraphs joined by a space. */
function cellText(tc: string): string {
  const paragraphs = tc.match(/<a:p\b[\s\S]*?<\/a:p>/g) ?? [];
  return paragraphs
    .map((p) => (p.match(/<a:t>([\s\S]*?)<\/a:t>/g) ?? []).map((t) => decode(t.slice(5, -6))).join(''))
    .map((t) => t.replace(/\s+/g, ' ').trim())
    .filter((t) => t !== '')
    .join(' ');
}

/** The tables of one slide's XML, with their cell boxes from the frame, column widths and row heights. */
function tablesOf(xml: string, slide: number): SlideTable[] {
  const out: SlideTable[] = [];
  // a frame inside a group has its offsets in the group's space: only top-level frames are placed
  const groups = xml.match(/<p:grpSp>[\s\S]*?<\/p:grpSp>/g) ?? [];
  const top = groups.reduce((s, g) => s.replace(g, ''), xml);
  for (const frame of top.match(/<p:graphicFrame\b[\s\S]*?<\/p:graphicFrame>/g) ?? []) {
    const tbl = /<a:tbl>[\s\S]*<\/a:tbl>/.exec(frame)?.[0];
    const off = /<a:off\b[^>]*>/.exec(frame)?.[0];
    const ext = /<a:ext\b[^>]*>/.exec(frame)?.[0];
    if (!tbl || !off || !ext) continue;
    const x = num(off, 'x');
    const y = num(off, 'y');
    const widths = (tbl.match(/<a:gridCol\b[^>]*>/g) ?? []).map((g) => num(g, 'w'));
    // the left edge of each grid column, then the table's right edge
    const colX = [x];
    for (const w of widths) colX.push((colX.at(-1) as number) + w);
    const rows: SlideCell[][] = [];
    const trs = tbl.match(/<a:tr\b[\s\S]*?<\/a:tr>/g) ?? [];
    let top = y;
    for (const tr of trs) {
      // a row's height is its least height; one without it takes an equal share of the frame
      const h = num(/<a:tr\b[^>]*>/.exec(tr)?.[0] ?? '', 'h') || num(ext, 'cy') / trs.length;
      const cells: SlideCell[] = [];
      let col = 0;
      for (const tc of tr.match(/<a:tc\b[\s\S]*?<\/a:tc>/g) ?? []) {
        const open = /<a:tc\b[^>]*>/.exec(tc)?.[0] ?? '';
        const span = Math.max(1, num(open, 'gridSpan'));
        // a cell merged into the one before it (hMerge) or above it (vMerge) holds no text of its own
        if (attr(open, 'hMerge') !== '1' && attr(open, 'vMerge') !== '1') {
          const x0 = colX[col] ?? colX.at(-1) ?? x;
          const x1 = colX[Math.min(col + span, colX.length - 1)] ?? x0;
          cells.push({ col, text: cellText(tc), box: [x0, top, x1, top + h] });
        }
        // the columns a cell spans are each listed after it (as hMerge cells): every <a:tc> is one grid column
        col += 1;
      }
      top += h;
      if (cells.some((c) => c.text !== '')) rows.push(cells);
    }
    const right = Math.max(x + num(ext, 'cx'), colX.at(-1) ?? x);
    if (rows.length > 0) out.push({ slide, frame: [x, y, right, Math.max(y + num(ext, 'cy'), top)], rows });
  }
  return out;
}

/**
 * The tables of a .pptx, slide by slide in show order (hidden slides left out, as the derived PDF
 * leaves them out). Undefined when the package cannot be read as a presentation.
 */
export async function slideTables(bytes: Uint8Array): Promise<SlideTables | undefined> {
  const zip = await JSZip.loadAsync(bytes);
  const presentation = await zip.file('ppt/presentation.xml')?.async('string');
  const rels = await zip.file('ppt/_rels/presentation.xml.rels')?.async('string');
  if (!presentation || !rels) return undefined;
  const size = /<p:sldSz\b[^>]*>/.exec(presentation)?.[0];
  const width = size ? num(size, 'cx') : 0;
  if (width <= 0) return undefined;
  const targets = new Map(
    (rels.match(/<Relationship\b[^>]*>/g) ?? []).map((r) => [attr(r, 'Id') ?? '', attr(r, 'Target') ?? '']),
  );
  const tables: SlideTable[] = [];
  let shown = 0;
  for (const id of presentation.match(/<p:sldId\b[^>]*>/g) ?? []) {
    const target = targets.get(attr(id, 'r:id') ?? '');
    if (!target) continue;
    const path = target.startsWith('/') ? target.slice(1) : `ppt/${target.replace(/^\.\//, '')}`;
    const xml = await zip.file(path)?.async('string');
    if (xml === undefined) continue;
    if (attr(/<p:sld\b[^>]*>/.exec(xml)?.[0] ?? '', 'show') === '0') continue;
    tables.push(...tablesOf(xml, shown));
    shown += 1;
  }
  return { width, tables };
}

const inside = (box: number[], frame: Box): boolean => {
  const cx = ((box[0] as number) + (box[2] as number)) / 2;
  const cy = ((box[1] as number) + (box[3] as number)) / 2;
  return cx >= frame[0] && cx <= frame[2] && cy >= frame[1] && cy <= frame[3];
};

const NUMBER = /^[-+]?\d[\d,.]*$/;

/**
 * The row elements of one slide table on its PDF page: cells with their ranges and boxes, header
 * rows found as a sheet's are (a distinct-text row above data, a second one under merged group
 * headings), their names on the cells below.
 */
function rowElements(table: SlideTable, index: number, page: PageInfo, scale: number, sectionPath: string[]): Element[] {
  const box = (b: Box): Box => [b[0] * scale, b[1] * scale, b[2] * scale, b[3] * scale];
  const filled = table.rows.map((row) => row.filter((c) => c.text !== ''));
  const shown: ShownRow[] = filled.map((row, r) => ({
    row: r + 1,
    cells: row.map((c) => ({ col: c.col, ref: `R${r + 1}C${c.col + 1}`, value: c.text, type: NUMBER.test(c.text) ? 'n' : 's' })),
  }));
  const blocks = detectTables(shown);
  const title = sectionPath.at(-1);
  return filled.map((row, r) => {
    const block = blocks.find((b) => b.rows.includes(shown[r] as ShownRow));
    const isHeader = block?.headers.includes(shown[r] as ShownRow) ?? false;
    const { text, ranges } = joinCells(row.map((c) => ({ ...c, value: c.text })));
    const cells: TableCell[] = ranges.map((c) => {
      const name = isHeader ? undefined : block?.names.get(c.col);
      return { ref: `R${r + 1}C${c.col + 1}`, col: c.col, start: c.start, end: c.end, ...(name ? { header: name } : {}) };
    });
    const rowBox: Box = [
      Math.min(...row.map((c) => c.box[0])),
      Math.min(...row.map((c) => c.box[1])),
      Math.max(...row.map((c) => c.box[2])),
      Math.max(...row.map((c) => c.box[3])),
    ];
    const anchor: PageAnchor = {
      kind: 'page',
      artifact: page.artifact,
      page_index: page.page_index,
      page_width: page.width,
      page_height: page.height,
      unit: page.unit,
      rotation: page.rotation,
      boxes: [box(rowBox)],
    };
    if (page.page_label) anchor.page_label = page.page_label;
    return {
      element_id: '',
      type: 'table',
      section_path: sectionPath,
      text,
      anchor,
      spans: ranges.map((c) => ({ start: c.start, end: c.end, box: box(c.box) })),
      cells,
      table: { index, row: r, header: isHeader, ...(title ? { title } : {}) },
    };
  });
}

/**
 * Puts the slides' tables into the one table model: each table's text in the derived PDF (the
 * elements whose boxes sit inside the table's frame) is replaced by one element per row, page
 * anchored like the rest, with a cell range and a box per cell.
 */
export function withSlideTables(out: ParseOutput, found: SlideTables): ParseOutput {
  const pages = out.sourceMap.pages ?? [];
  if (found.tables.length === 0 || pages.length === 0) return out;
  const elements = [...out.elements];
  let index = 0;
  for (const table of found.tables) {
    const page = pages.find((p) => p.page_index === table.slide);
    if (!page) continue;
    const scale = page.width / found.width;
    const frame: Box = [table.frame[0] * scale, table.frame[1] * scale, table.frame[2] * scale, table.frame[3] * scale];
    const onPage = (e: Element): boolean => e.anchor.kind === 'page' && e.anchor.page_index === table.slide;
    const covered = new Set(
      elements.filter(
        (e) =>
          onPage(e) &&
          !e.table &&
          e.anchor.kind === 'page' &&
          e.anchor.boxes.length > 0 &&
          e.anchor.boxes.every((b) => inside(b, frame)),
      ),
    );
    // where the table goes: in place of its text, else after the page's last element
    const first = elements.findIndex((e) => covered.has(e));
    const after = elements.findLastIndex((e) => e.anchor.kind === 'page' && e.anchor.page_index <= table.slide);
    const at = first >= 0 ? first : after + 1;
    const sectionPath = elements[first >= 0 ? first : after]?.section_path ?? [];
    const rows = rowElements(table, index, page, scale, sectionPath);
    index += 1;
    const before = elements.slice(0, at).filter((e) => !covered.has(e));
    const rest = elements.slice(at).filter((e) => !covered.has(e));
    elements.splice(0, elements.length, ...before, ...rows, ...rest);
  }
  const renumbered = elements.map((e, i) => ({ ...e, element_id: elementId(i) }));
  return { ...out, elements: renumbered, sourceMap: { ...out.sourceMap, elements: renumbered } };
}
