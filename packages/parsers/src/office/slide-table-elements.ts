import type { Box, Element, PageInfo, ParseOutput } from '@pinpoint/core';
import { elementId } from '@pinpoint/core';
import { headerNamesOf, pageTableElements } from '../page-table-elements.js';
import type { DeckTables, SlideCell, SlideTable } from './slide-tables.js';

/** A run of page text with its box (a span of an element, or a whole line). */
interface PageRun {
  text: string;
  box: Box;
}

const squeeze = (text: string): string => text.replace(/\s+/g, '').toLowerCase();
const centerX = (b: Box): number => (b[0] + b[2]) / 2;
const centerY = (b: Box): number => (b[1] + b[3]) / 2;
const NUMERIC = /^[-+]?[\d,.]*\d[\d,.]*%?$/;
/** Points between a cell's text and its rule when a row's height comes from the rendered text. */
const PAD = 3;

function pageRuns(elements: readonly Element[], page: number): PageRun[] {
  const runs: PageRun[] = [];
  for (const e of elements) {
    if (e.anchor.kind !== 'page' || e.anchor.page_index !== page) continue;
    const chars = Array.from(e.text);
    if (e.spans && e.spans.length > 0)
      for (const s of e.spans) runs.push({ text: chars.slice(s.start, s.end).join(''), box: s.box });
    else for (const b of e.anchor.boxes) runs.push({ text: e.text, box: b });
  }
  return runs.sort((a, b) => a.box[1] - b.box[1] || a.box[0] - b.box[0]);
}

/**
 * The vertical band [top, bottom] of each grid row on the page. The grid's row heights are minimums
 * (a row grows with its text, and some files store 0): when the rendered text of a row does not sit
 * inside its stored band, the bands come from the text — rows split halfway between one row's last
 * line and the next row's first.
 */
function rowBands(table: SlideTable, ys: number[], xs: (col: number) => [number, number], runs: PageRun[]): [number, number][] {
  const stored = table.rows.map((_, r) => [ys[r] as number, ys[r + 1] as number] as [number, number]);
  const text = table.rows.map((): [number, number] | undefined => undefined);
  let next = 0;
  for (const run of runs) {
    const key = squeeze(run.text);
    if (key === '' || run.box[1] < (ys[0] as number) - 2 * PAD) continue;
    for (let r = next; r < table.rows.length; r++) {
      const hit = (table.rows[r] ?? []).some((c) => {
        const [x0, x1] = xs(c.col);
        const cell = squeeze(c.text);
        return (
          cell !== '' &&
          centerX(run.box) >= x0 &&
          centerX(run.box) <= xs(c.col + c.colSpan - 1)[1] &&
          x0 <= x1 &&
          (cell.includes(key) || key.includes(cell))
        );
      });
      if (!hit) continue;
      const band = text[r];
      text[r] = band ? [Math.min(band[0], run.box[1]), Math.max(band[1], run.box[3])] : [run.box[1], run.box[3]];
      next = r;
      break;
    }
  }
  const fits = text.every(
    (t, r) => !t || (t[0] >= (stored[r] as [number, number])[0] - 1 && t[1] <= (stored[r] as [number, number])[1] + 1),
  );
  if (fits) return stored;
  const bands: [number, number][] = [];
  let top = Math.min(ys[0] as number, (text.find((t) => t)?.[0] ?? (ys[0] as number)) - PAD);
  for (let r = 0; r < text.length; r++) {
    const own = text[r];
    const following = text.slice(r + 1).findIndex((t) => t);
    let bottom: number;
    if (own && following === 0) bottom = (own[1] + (text[r + 1] as [number, number])[0]) / 2;
    else if (own) bottom = following < 0 ? Math.max(own[1] + PAD, ys.at(-1) as number) : own[1] + PAD;
    else {
      const after = following < 0 ? undefined : text[r + 1 + following];
      const end = after ? after[0] - PAD : Math.max(top, ys.at(-1) as number);
      bottom = top + (end - top) / (following < 0 ? text.length - r : following + 1);
    }
    bands.push([top, Math.max(top, bottom)]);
    top = Math.max(top, bottom);
  }
  return bands;
}

/**
 * How many leading rows are header rows, and the header name of each grid column: the first row when
 * the table style marks it, else (as for sheets) a first row of at least two mostly distinct
 * non-numeric texts above a data-like row (one with a number, or at least half as many cells).
 */
function headerOf(table: SlideTable): { count: number; names: Map<number, string> } {
  const [first, second] = table.rows.map((r) => r.filter((c) => c.text !== ''));
  let count = table.firstRow ? 1 : 0;
  if (count === 0 && first && second && first.length >= 2 && first.every((c) => !NUMERIC.test(c.text))) {
    const distinct = new Set(first.map((c) => c.text.toLowerCase())).size >= 0.75 * first.length;
    const data = second.some((c) => NUMERIC.test(c.text)) || second.length >= Math.ceil(first.length / 2);
    if (distinct && data) count = 1;
  }
  if (count === 1 && subHeader(first ?? [], second ?? [], table)) count = 2;
  return { count, names: headerNamesOf([first ?? [], second ?? []].slice(0, count)) };
}

/**
 * A second header row under group headings ("Class1" over "A | B | C"): the first row has a cell
 * across several columns but not the whole table (that is the table's title), and the second — text,
 * no numbers — splits one of those groups into distinct names of its own columns (the same names may
 * come again under the next group). Slides hold only text, so the split group tells names from data.
 */
function subHeader(first: SlideCell[], second: SlideCell[], table: SlideTable): boolean {
  if (table.rows.length < 3 || second.length < 2 || second.some((c) => NUMERIC.test(c.text))) return false;
  const width = Math.max(0, ...table.rows.flatMap((r) => r.map((c) => c.col + c.colSpan)));
  return first.some((g) => {
    if (g.colSpan < 2 || g.colSpan >= width) return false;
    const under = second.filter((c) => c.col >= g.col && c.col < g.col + g.colSpan).map((c) => c.text.toLowerCase());
    return under.length >= 2 && new Set(under).size === under.length;
  });
}

/** The row elements of one table: cells on the grid with their boxes on the page, header names beside values. */
function tableElements(
  table: SlideTable,
  index: number,
  info: PageInfo,
  deck: DeckTables,
  runs: PageRun[],
  sectionPath: string[],
): Element[] {
  const sx = info.width / deck.width;
  const sy = info.height / deck.height;
  const lastX = table.xs.length - 1;
  const xs = (col: number): [number, number] => [
    (table.xs[Math.min(col, lastX)] as number) * sx,
    (table.xs[Math.min(col + 1, lastX)] as number) * sx,
  ];
  const bands = rowBands(
    table,
    table.ys.map((y) => y * sy),
    xs,
    runs,
  );
  const { count, names } = headerOf(table);
  const rows = table.rows.map((row, r) =>
    row.map((c) => ({
      ...c,
      box: [
        xs(c.col)[0],
        (bands[r] as [number, number])[0],
        xs(c.col + c.colSpan - 1)[1],
        (bands[Math.min(bands.length - 1, r + c.rowSpan - 1)] as [number, number])[1],
      ] as Box,
    })),
  );
  return pageTableElements(
    { rows, headerRows: count, names, index, ...(table.title ? { title: table.title } : {}) },
    info,
    sectionPath,
  );
}

const inside = (b: Box, area: Box): boolean =>
  centerX(b) >= area[0] - 1 && centerX(b) <= area[2] + 1 && centerY(b) >= area[1] - 1 && centerY(b) <= area[3] + 1;

/**
 * Puts the slides' tables into the one table model: the text the PDF route found inside a table's
 * area gives way to one element per row (cells joined with " | ", each cell's range, header names,
 * its box on the rendered page as a span). Element ids are renumbered in the new order.
 */
export function withSlideTables(out: ParseOutput, deck: DeckTables): ParseOutput {
  const pages = out.sourceMap.pages;
  if (deck.tables.length === 0 || deck.slides !== pages.length) return out;
  let elements = [...out.elements];
  deck.tables.forEach((table, index) => {
    const info = pages[table.slide] as PageInfo;
    const onPage = (e: Element) => e.anchor.kind === 'page' && e.anchor.page_index === table.slide;
    const rows0 = tableElements(table, index, info, deck, pageRuns(elements, table.slide), []);
    if (rows0.length === 0) return;
    const area = rows0
      .flatMap((e) => (e.anchor.kind === 'page' ? e.anchor.boxes : []))
      .reduce<Box>(
        (u, b) => [Math.min(u[0], b[0]), Math.min(u[1], b[1]), Math.max(u[2], b[2]), Math.max(u[3], b[3])],
        [Number.POSITIVE_INFINITY, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY, Number.NEGATIVE_INFINITY],
      );
    const covered = (e: Element) =>
      onPage(e) && e.anchor.kind === 'page' && e.anchor.boxes.length > 0 && e.anchor.boxes.every((b) => inside(b, area));
    const first = elements.findIndex(covered);
    const before = elements.filter(
      (e, i) => onPage(e) && (first < 0 ? e.anchor.kind === 'page' && (e.anchor.boxes[0]?.[1] ?? 0) < area[1] : i < first),
    );
    const sectionPath = (first >= 0 ? elements[first] : before.at(-1))?.section_path ?? [];
    const rows = rows0.map((e) => ({
      ...e,
      section_path: sectionPath,
      ...(e.table && !table.title && sectionPath.at(-1) ? { table: { ...e.table, title: sectionPath.at(-1) as string } } : {}),
    }));
    let at = first;
    if (at < 0) {
      const last = before.at(-1);
      at = last ? elements.indexOf(last) + 1 : elements.findIndex(onPage);
      if (at < 0) at = elements.length;
    }
    elements = [...elements.slice(0, at).filter((e) => !covered(e)), ...rows, ...elements.slice(at).filter((e) => !covered(e))];
  });
  const renumbered = elements.map((e, i) => ({ ...e, element_id: elementId(i) }));
  return { ...out, elements: renumbered, sourceMap: { ...out.sourceMap, elements: renumbered } };
}
