import type { Box } from '@pinpoint/core';
import { groupRows } from '../lines.js';
import { cellText, NUMBER } from './cell-text.js';
import type { PdfTableCell } from './pdf-table.js';
import { unionBox } from './pdf-table.js';
import type { Ruling, Rulings } from './rulings.js';
import { JOIN as TOL } from './rulings.js';
import type { Word } from './words.js';

/** A grid found from rulings: cells with their words, in frame coordinates. */
export interface LatticeGrid {
  cells: PdfTableCell[];
  rowCount: number;
  colCount: number;
  /** Frame extent [x0, top, x1, bottom]. */
  extent: [number, number, number, number];
  /** The words inside the grid (taken out of the page's text for stream detection). */
  words: Set<Word>;
}

const meets = (h: Ruling, v: Ruling): boolean =>
  v.at >= h.from - TOL && v.at <= h.to + TOL && h.at >= v.from - TOL && h.at <= v.to + TOL;

/** Groups of crossing lines (each a candidate table), as [across, down] lists. */
function components(across: Ruling[], down: Ruling[]): Array<[Ruling[], Ruling[]]> {
  const parent = [...across, ...down].map((_, i) => i);
  const find = (i: number): number => {
    while (parent[i] !== i) i = parent[i] = parent[parent[i] as number] as number;
    return i;
  };
  across.forEach((h, i) => {
    down.forEach((v, j) => {
      if (meets(h, v)) parent[find(i)] = find(across.length + j);
    });
  });

  const groups = new Map<number, [Ruling[], Ruling[]]>();
  across.forEach((h, i) => {
    const g = groups.get(find(i)) ?? [[], []];
    g[0].push(h);
    groups.set(find(i), g);
  });
  down.forEach((v, j) => {
    const g = groups.get(find(across.length + j)) ?? [[], []];
    g[1].push(v);
    groups.set(find(across.length + j), g);
  });
  return [...groups.values()].filter(([h, v]) => h.length >= 2 && v.length >= 2);
}

/** Distinct positions (lines within TOL are one). */
function positions(lines: Ruling[]): number[] {
  const out: number[] = [];
  for (const at of lines.map((l) => l.at).sort((a, b) => a - b))
    if (out.length === 0 || at - (out.at(-1) as number) > TOL) out.push(at);
  return out;
}

/** Whether lines at `at` cover most of [from, to]. */
function covered(lines: Ruling[], at: number, from: number, to: number): boolean {
  let len = 0;
  for (const l of lines)
    if (Math.abs(l.at - at) <= TOL) len += Math.max(0, Math.min(to, l.to + TOL) - Math.max(from, l.from - TOL));
  return len >= 0.5 * (to - from);
}

/** Grid cells merged where the ruling between them is missing: [row0, col0, row1, col1] rectangles. */
function mergedCells(across: Ruling[], down: Ruling[], xs: number[], ys: number[]): Array<[number, number, number, number]> {
  const cols = xs.length - 1;
  const parent = Array.from({ length: (ys.length - 1) * cols }, (_, i) => i);
  const find = (i: number): number => {
    while (parent[i] !== i) i = parent[i] = parent[parent[i] as number] as number;
    return i;
  };
  for (let r = 0; r < ys.length - 1; r++)
    for (let c = 0; c < cols; c++) {
      const [y0, y1, x0, x1] = [ys[r] as number, ys[r + 1] as number, xs[c] as number, xs[c + 1] as number];
      if (c + 1 < cols && !covered(down, x1, y0, y1)) parent[find(r * cols + c)] = find(r * cols + c + 1);
      if (r + 2 < ys.length && !covered(across, y1, x0, x1)) parent[find(r * cols + c)] = find((r + 1) * cols + c);
    }
  const rects = new Map<number, [number, number, number, number]>();
  parent.forEach((_, i) => {
    const [r, c] = [Math.floor(i / cols), i % cols];
    const g = rects.get(find(i));
    rects.set(find(i), g ? [Math.min(g[0], r), Math.min(g[1], c), Math.max(g[2], r), Math.max(g[3], c)] : [r, c, r, c]);
  });
  return [...rects.values()].sort((a, b) => a[0] - b[0] || a[1] - b[1]);
}

/** A line of the cell with a gap of three type sizes: the rulings do not separate the text they box. */
function widelySpaced(words: Word[]): boolean {
  return groupRows(words).some((row) => row.some((w, i) => i > 0 && w.fx0 - (row[i - 1] as Word).fx1 > 3 * w.size));
}

/**
 * Boxes that are not a table's cells: most hold long prose (a page of framed text), or a third of
 * them hold text the boxes do not separate (a diagram drawn over its labels).
 */
function notAGrid(cells: PdfTableCell[], gapped: Set<number>): boolean {
  const long = cells.filter((c) => c.text.split(/\s+/).length > 30).length;
  return long >= 0.5 * cells.length || gapped.size >= Math.max(2, cells.length / 3);
}

/** Keeps only grid rows and columns where some cell with text starts; spans shrink to the kept lines. */
function dropEmptyLines(
  cells: PdfTableCell[],
  rows: number,
  cols: number,
): { cells: PdfTableCell[]; rows: number; cols: number } {
  const filled = cells.filter((c) => c.text !== '');
  const keptRows = [...new Set(filled.map((c) => c.row))].sort((a, b) => a - b);
  const keptCols = [...new Set(filled.map((c) => c.col))].sort((a, b) => a - b);
  const span = (kept: number[], from: number, n: number): number =>
    Math.max(1, kept.filter((k) => k >= from && k < from + n).length);
  const out = filled.map((c) => ({
    ...c,
    row: keptRows.indexOf(c.row),
    col: keptCols.indexOf(c.col),
    rowSpan: span(keptRows, c.row, c.rowSpan),
    colSpan: span(keptCols, c.col, c.colSpan),
  }));
  return rows > 0 && cols > 0 ? { cells: out, rows: keptRows.length, cols: keptCols.length } : { cells: [], rows: 0, cols: 0 };
}

/** Positions of the crossing lines, widened to where the other lines reach (a grid without an outer frame). */
function edges(lines: Ruling[], reach: Ruling[]): number[] {
  const at = positions(lines);
  const lo = Math.min(...reach.map((l) => l.from));
  const hi = Math.max(...reach.map((l) => l.to));
  return [...(lo < (at[0] as number) - 3 * TOL ? [lo] : []), ...at, ...(hi > (at.at(-1) as number) + 3 * TOL ? [hi] : [])];
}

const centre = (w: Word): [number, number] => [(w.fx0 + w.fx1) / 2, (w.ftop + w.fbottom) / 2];

/**
 * Rows a ruled band holds without rulings between them (a table ruled only around its columns):
 * when two or more columns of the band hold three or more lines each, all on the band's baselines,
 * and it holds numbers (a line's worth at least), each baseline is a row of its own. Returns the frame y of the cuts.
 */
function unruledRows(band: Word[], xs: number[]): number[] {
  const lines = groupRows(band);
  if (lines.length < 4) return [];
  const perColumn = new Map<number, number>();
  for (const line of lines) {
    const cols = new Set(
      line.map((w) => xs.findIndex((x, i) => i + 1 < xs.length && centre(w)[0] >= x && centre(w)[0] <= (xs[i + 1] as number))),
    );
    for (const c of cols) perColumn.set(c, (perColumn.get(c) ?? 0) + 1);
  }
  const full = [...perColumn.values()].filter((n) => n >= 0.8 * lines.length).length;
  const numbers = band.filter((w) => NUMBER.test(w.text)).length;
  if (full < (lines.length >= 6 ? 2 : 3) || lines.length < 4 || numbers < lines.length) return [];
  const cuts: number[] = [];
  for (let i = 1; i < lines.length; i++) {
    const above = Math.max(...(lines[i - 1] as Word[]).map((w) => w.fbottom));
    const below = Math.min(...(lines[i] as Word[]).map((w) => w.ftop));
    cuts.push((above + below) / 2);
  }
  return cuts;
}

function gridOf(across: Ruling[], down: Ruling[], words: Word[], turned: Word[]): LatticeGrid | undefined {
  const xs = edges(down, across);
  const ruledYs = edges(across, down);
  if (xs.length < 2 || ruledYs.length < 2) return undefined;
  const extent: [number, number, number, number] = [
    xs[0] as number,
    ruledYs[0] as number,
    xs.at(-1) as number,
    ruledYs.at(-1) as number,
  ];
  const inside = words.filter((w) => {
    const [cx, cy] = centre(w);
    return cx > extent[0] && cx < extent[2] && cy > extent[1] && cy < extent[3];
  });
  const cuts = ruledYs.slice(1).flatMap((y1, r) =>
    unruledRows(
      inside.filter((w) => centre(w)[1] > (ruledYs[r] as number) && centre(w)[1] < y1),
      xs,
    ),
  );
  const ys = [...ruledYs, ...cuts].sort((a, b) => a - b);
  if (cuts.length > 0) across = [...across, ...cuts.map((at) => ({ at, from: extent[0], to: extent[2] }))];
  const cells: PdfTableCell[] = [];
  const taken = new Set<Word>();
  const gapped = new Set<number>();
  for (const [r0, c0, r1, c1] of mergedCells(across, down, xs, ys)) {
    const [x0, y0, x1, y1] = [xs[c0] as number, ys[r0] as number, xs[c1 + 1] as number, ys[r1 + 1] as number];
    const within = (w: Word): boolean => {
      const [cx, cy] = centre(w);
      return !taken.has(w) && cx >= x0 && cx <= x1 && cy >= y0 && cy <= y1;
    };
    const own = inside.filter(within);
    if (widelySpaced(own)) gapped.add(cells.length);
    const mine = [...own, ...turned.filter(within)];
    for (const w of mine) taken.add(w);
    const text = cellText(mine);
    const box: Box = mine.length > 0 ? unionBox(mine.map((w) => w.box)) : [0, 0, 0, 0];
    cells.push({ row: r0, col: c0, rowSpan: r1 - r0 + 1, colSpan: c1 - c0 + 1, text, box });
  }
  const kept = dropEmptyLines(cells, ys.length - 1, xs.length - 1);
  if (kept.rows < 2 || kept.cols < 2 || kept.cells.length < 3 || notAGrid(kept.cells, gapped)) return undefined;
  return {
    cells: kept.cells,
    rowCount: kept.rows,
    colCount: kept.cols,
    extent,
    words: new Set([...inside, ...turned.filter((w) => taken.has(w))]),
  };
}

/**
 * Ruled tables (from the page's rulings as joinRulings gives them): groups of crossing rulings, each a grid whose missing rulings merge cells. `turned`:
 * words of the page's other writing directions (a column header set on its side), placed in this
 * frame; a ruled cell takes those inside it, and nothing else reads them.
 */
export function latticeTables(rulings: Rulings, words: Word[], turned: Word[] = []): LatticeGrid[] {
  const { across, down } = rulings;
  if (across.length * down.length > 4_000_000) return [];
  const grids: LatticeGrid[] = [];
  for (const [h, v] of components(across, down)) {
    const grid = gridOf(h, v, words, turned);
    if (grid) grids.push(grid);
  }
  return grids;
}
