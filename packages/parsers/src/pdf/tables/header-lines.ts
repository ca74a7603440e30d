import { NUMBER, YEAR } from './cell-text.js';
import type { Ruling } from './rulings.js';
import { JOIN } from './rulings.js';
import type { TextRow } from './words.js';
import { median } from './words.js';

/** Column intervals of a block of rows, frame x. */
type Columns = Array<[number, number]>;

/** A header line this much closer to the next than the body's rows are to each other is set as one cell's lines. */
const TIGHT = 0.75;
/** Share of the columns' width a drawn line must cover to part two header lines. */
const ACROSS = 0.6;

/** A line holding no figure other than a year: a heading line. */
const heading = (r: TextRow): boolean => r.segments.every((s) => !NUMBER.test(s.text) || YEAR.test(s.text));

/**
 * The column each segment of the row keeps to (within the lanes between its neighbours, the nearest
 * when lanes overlap), or undefined
 * when a segment reaches over two columns, or past halfway to the columns on both sides (a heading
 * over a group of columns is a level of its own), or two segments share one (the block's columns are
 * not read apart there).
 */
function columnsOf(row: TextRow, cols: Columns): number[] | undefined {
  const out: number[] = [];
  for (const s of row.segments) {
    const mid = (s.x0 + s.x1) / 2;
    const away = ([a, b]: [number, number]): number => Math.max(0, a - mid, mid - b);
    const i =
      cols
        .map((c, k) => ({ k, d: away(c) }))
        .filter(
          ({ k }) =>
            s.x0 >= (cols[k - 1]?.[1] ?? Number.NEGATIVE_INFINITY) && s.x1 <= (cols[k + 1]?.[0] ?? Number.POSITIVE_INFINITY),
        )
        .sort((a, b) => a.d - b.d)[0]?.k ?? -1;
    const [left, [x0, x1] = [0, 0], right] = [cols[i - 1], cols[i], cols[i + 1]];
    const wide = left && right && s.x0 < (left[1] + x0) / 2 && s.x1 > (x1 + right[0]) / 2;
    if (i === -1 || wide || out.includes(i)) return undefined;
    out.push(i);
  }
  return out;
}

/** Whether a line drawn across the columns (ACROSS of their width) runs between the two rows. */
function ruledBetween(a: TextRow, b: TextRow, cols: Columns, across: Ruling[]): boolean {
  const [left, right] = [(cols[0] as [number, number])[0], (cols.at(-1) as [number, number])[1]];
  const between = across.filter((l) => l.at > a.bottom - JOIN && l.at < b.top + JOIN);
  const cover = between.reduce((n, l) => n + Math.max(0, Math.min(right, l.to) - Math.max(left, l.from)), 0);
  return between.length > 0 && cover >= ACROSS * (right - left);
}

/** Two text rows as one: their words and segments together (a cell's text reads them line by line). */
function joined(a: TextRow, b: TextRow): TextRow {
  return {
    words: [...a.words, ...b.words],
    segments: [...a.segments, ...b.segments].sort((x, y) => x.x0 - y.x0),
    top: Math.min(a.top, b.top),
    bottom: Math.max(a.bottom, b.bottom),
    base: b.base,
    size: Math.max(a.size, b.size),
  };
}

/**
 * A column header set on several lines is one header row. The heading lines that open a block (no
 * figure but a year) are one row where their baselines follow closer than the body's rows follow each
 * other (TIGHT of the body's median baseline step: the lines of one cell, not rows of the table), each
 * keeps to single columns, no line is drawn across between them, and neither writes in the label
 * column alone (a section label opens the body). Baselines and rulings alone decide, not type: a
 * table whose rows are set as close as its header's lines keeps each header line a row. In a table of
 * words alone the heading is the lines that open it that close together.
 */
export function joinHeaderLines(region: TextRow[], cols: Columns, across: Ruling[]): TextRow[] {
  const step = (rows: TextRow[]): number[] => rows.slice(1).map((r, i) => r.base - (rows[i] as TextRow).base);
  const figures = region.findIndex((r) => !heading(r));
  const body = figures === -1 ? region : region.slice(figures);
  if (body.length < 3) return region;
  const pitch = median(step(body));
  // a table of words alone: its heading is the lines that open it closer than its rows follow each other
  const open = step(region).findIndex((s) => s > TIGHT * pitch);
  const head = figures === -1 ? (open === -1 ? 0 : open + 1) : figures;
  if (head < 2) return region;
  const out: TextRow[] = [];
  const labelOnly = (l: number[]): boolean => l.every((c) => c === 0);
  region.slice(0, head).forEach((row, i) => {
    const [prev, above] = [out.at(-1), region[i - 1]];
    const [a, b] = [above && columnsOf(above, cols), columnsOf(row, cols)];
    const tight = above !== undefined && row.base - above.base <= TIGHT * pitch;
    if (prev && above && a && b && tight && !labelOnly(a) && !labelOnly(b) && !ruledBetween(above, row, cols, across))
      out[out.length - 1] = joined(prev, row);
    else out.push(row);
  });
  return [...out, ...region.slice(head)];
}
