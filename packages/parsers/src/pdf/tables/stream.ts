import { cellText, NUMBER } from './cell-text.js';
import { joinHeaderLines } from './header-lines.js';
import type { PdfTableCell } from './pdf-table.js';
import { unionBox } from './pdf-table.js';
import { partingGap, ruledRows, withRuledTail } from './ruled-rows.js';
import type { Ruling, Rulings } from './rulings.js';
import type { Segment, TextRow, Word } from './words.js';
import { median, textRows } from './words.js';

/** A grid found from the alignment of text rows, in frame coordinates. */
export interface StreamGrid {
  cells: PdfTableCell[];
  rowCount: number;
  colCount: number;
  words: Set<Word>;
}

/** A list marker: one symbol (a bullet, or a glyph without a Unicode mapping), or a short number or letter with its stop. */
const BULLET = /^(?:[^\p{L}\p{N}]|\(?\d{1,2}[.)]|\(?[a-z][.)])$/u;
const multi = (r: TextRow): boolean => r.segments.length >= 2;

/** Runs of rows close enough to be one block of text (a blank line's gap at most). */
function closeRuns(rows: TextRow[]): TextRow[][] {
  const runs: TextRow[][] = [];
  for (const row of rows) {
    const run = runs.at(-1);
    const prev = run?.at(-1);
    if (run && prev && row.top - prev.bottom <= 1.8 * Math.max(row.size, prev.size)) run.push(row);
    else runs.push([row]);
  }
  return runs;
}

/**
 * Candidate regions in one run of rows: multi-segment rows with at most two single-segment rows
 * between them (section labels, wrapped labels), plus up to two single-segment rows just above
 * that sit over the value columns rather than at the left edge (a "Years ended December 31" header).
 */
function regions(run: TextRow[]): TextRow[][] {
  const out: TextRow[][] = [];
  let i = 0;
  while (i < run.length) {
    if (!multi(run[i] as TextRow)) {
      i++;
      continue;
    }
    let end = i;
    for (let j = i + 1; j < run.length && j - end <= 3; j++) if (multi(run[j] as TextRow)) end = j;
    const left = Math.min(...run.slice(i, end + 1).map((r) => r.segments[0]?.x0 ?? 0));
    let start = i;
    while (start > 0 && i - start < 2) {
      const above = run[start - 1] as TextRow;
      if (multi(above) || (above.segments[0]?.x0 ?? 0) < left + 2 * above.size) break;
      start--;
    }
    out.push(run.slice(start, end + 1));
    i = end + 1;
  }
  return out.filter((r) => r.filter(multi).length >= 3);
}

/** Column intervals: where the segments of the multi-segment rows stack up (a stray crossing segment ignored). */
function columnsOf(rows: TextRow[]): Array<[number, number]> {
  const body = rows.filter(multi);
  const allowed = Math.floor(0.1 * body.length);
  const events: Array<[number, number]> = [];
  for (const r of body) for (const s of r.segments) events.push([s.x0, 1], [s.x1, -1]);
  events.sort((a, b) => a[0] - b[0] || a[1] - b[1]);
  const cols: Array<[number, number]> = [];
  let depth = 0;
  let open: number | undefined;
  for (const [x, d] of events) {
    depth += d;
    if (depth > allowed && open === undefined) open = x;
    else if (depth <= allowed && open !== undefined) {
      cols.push([open, x]);
      open = undefined;
    }
  }
  return cols;
}

/** The columns a segment lies over (by overlap), or the nearest one. */
function columnsUnder(s: Segment, cols: Array<[number, number]>): [number, number] {
  const hit = cols.flatMap(([a, b], i) =>
    Math.min(b, s.x1) - Math.max(a, s.x0) > 0.3 * Math.min(b - a, s.x1 - s.x0) ? [i] : [],
  );
  if (hit.length > 0) return [hit[0] as number, hit.at(-1) as number];
  const mid = (s.x0 + s.x1) / 2;
  let best = 0;
  cols.forEach(([a, b], i) => {
    const [ba, bb] = cols[best] as [number, number];
    if (Math.abs((a + b) / 2 - mid) < Math.abs((ba + bb) / 2 - mid)) best = i;
  });
  return [best, best];
}

function gridOf(rows: TextRow[], cols: Array<[number, number]>): PdfTableCell[] {
  const cells: PdfTableCell[] = [];
  rows.forEach((row, r) => {
    const byCol = new Map<number, { words: Word[]; span: number }>();
    for (const s of row.segments) {
      const [c0, c1] = columnsUnder(s, cols);
      const at = byCol.get(c0);
      if (at) {
        at.words.push(...s.words);
        at.span = Math.max(at.span, c1 - c0 + 1);
      } else byCol.set(c0, { words: [...s.words], span: c1 - c0 + 1 });
    }
    for (const [col, { words, span }] of [...byCol].sort((a, b) => a[0] - b[0]))
      cells.push({ row: r, col, rowSpan: 1, colSpan: span, text: cellText(words), box: unionBox(words.map((w) => w.box)) });
  });
  return cells;
}

/**
 * A row label wrapped over two lines is one row: a row holding only its label joins the next when
 * that one has no label of its own (its values sit on the label's last line) or goes on in lower case.
 */
function joinWrappedLabels(cells: PdfTableCell[], rowCount: number): { cells: PdfTableCell[]; rowCount: number } {
  const rows = Array.from({ length: rowCount }, (_, r) => cells.filter((c) => c.row === r));
  const out: PdfTableCell[][] = [];
  for (const row of rows) {
    const prev = out.at(-1);
    const onlyLabel = prev && prev.length === 1 && prev[0]?.col === 0 && prev[0].colSpan === 1;
    const label = row.find((c) => c.col === 0);
    const goesOn = !label ? row.length > 0 : /^\p{Ll}/u.test(label.text);
    if (prev && onlyLabel && goesOn) {
      const head = prev[0] as PdfTableCell;
      if (label) Object.assign(head, { text: `${head.text} ${label.text}`, box: unionBox([head.box, label.box]) });
      prev.push(...row.filter((c) => c !== label));
    } else out.push([...row]);
  }
  return { cells: out.flatMap((row, r) => row.map((c) => ({ ...c, row: r }))), rowCount: out.length };
}

const ROMAN = /^[ivxlc]{1,7}$/i;

/** A last column of page numbers that never go back (arabic ones rising, or roman ones): a table of contents. */
function tableOfContents(last: PdfTableCell[]): boolean {
  const pages = last.filter((x) => /^\d{1,4}$/.test(x.text) || ROMAN.test(x.text));
  if (last.length < 3 || pages.length < 0.8 * last.length) return false;
  const arabic = pages.filter((x) => !ROMAN.test(x.text)).map((x) => Number(x.text));
  return arabic.every((n, i) => i === 0 || n >= (arabic[i - 1] as number));
}

/**
 * Text laid out in columns that is not a table: prose beside other text (two columns of longish
 * text, or one of sentences, and no column of numbers), a table of contents (text, then page numbers), a list (markers, then text).
 */
function notATable(cells: PdfTableCell[], colCount: number): boolean {
  const columns = Array.from({ length: colCount }, (_, c) =>
    cells.filter((x) => x.col === c && x.colSpan === 1 && x.text !== ''),
  );
  const numeric = columns.filter((col) => col.length > 0 && col.filter((x) => NUMBER.test(x.text)).length >= 0.6 * col.length);
  const texty = columns.filter((col) => col.length > 0 && median(col.map((x) => x.text.split(/\s+/).length)) >= 4);
  const prose = columns.some((col) => col.length > 0 && median(col.map((x) => x.text.split(/\s+/).length)) >= 8);
  if ((texty.length >= 2 || prose) && numeric.length === 0) return true;
  const first = columns[0] ?? [];
  if (first.length > 0 && first.every((x) => BULLET.test(x.text)) && colCount <= 3) return true;
  const last = columns.at(-1) ?? [];
  return colCount <= 3 && tableOfContents(last);
}

/**
 * Whether some block of rows lines up in columns, one of them of short texts (the page may hold a
 * table, ruled or not); columns of prose only (a two-column page) do not count.
 */
export function hasColumnBlock(rows: TextRow[]): boolean {
  const words = (s: Segment | undefined): number => s?.text.split(' ').length ?? 0;
  return closeRuns(rows).some((run) =>
    regions(run).some((region) => {
      const body = region.filter(multi);
      return Math.min(median(body.map((r) => words(r.segments[0]))), median(body.map((r) => words(r.segments.at(-1))))) <= 5;
    }),
  );
}

/** How many rows hold two cells or more. */
function filledRows(cells: PdfTableCell[]): number {
  const perRow = new Map<number, number>();
  for (const c of cells) perRow.set(c.row, (perRow.get(c.row) ?? 0) + 1);
  return [...perRow.values()].filter((n) => n >= 2).length;
}

/**
 * The rows of a block judged a table when its header is set on several lines: those lines joined
 * (see joinHeaderLines), then its rows read as without them. Undefined when no header lines join, or
 * when joining them would change whether the lines drawn across the block bound its rows.
 */
function headedRows(
  region: TextRow[],
  cols: Array<[number, number]>,
  across: Ruling[],
  wasRuled: boolean,
): { cells: PdfTableCell[]; rowCount: number } | undefined {
  const headed = joinHeaderLines(region, cols, across);
  if (headed.length === region.length) return undefined;
  const lines = gridOf(headed, cols);
  const ruled = ruledRows(headed, lines, cols, across);
  if ((ruled !== undefined) !== wasRuled) return undefined;
  return ruled ? joinWrappedLabels(ruled.cells, ruled.rowCount) : joinWrappedLabels(lines, headed.length);
}

/**
 * A line drawn down from above the first text to below the last, by two lines' height at each end,
 * with text on both sides and through none (the fold of a two-page spread, a page's column rule):
 * its frame x. Text on its two sides is never one table; a table's own rules end with its rows.
 */
function pageDivider(rows: TextRow[], down: Ruling[]): number | undefined {
  if (rows.length === 0) return undefined;
  const top = Math.min(...rows.map((r) => r.top));
  const bottom = Math.max(...rows.map((r) => r.bottom));
  const size = median(rows.map((r) => r.size));
  const words = rows.flatMap((r) => r.words);
  return down.find(
    (l) =>
      l.from <= top - 2 * size &&
      l.to >= bottom + 2 * size &&
      words.some((w) => w.fx1 <= l.at) &&
      words.some((w) => w.fx0 >= l.at) &&
      !words.some((w) => w.fx0 < l.at && w.fx1 > l.at),
  )?.at;
}

/**
 * Unruled tables: blocks of rows whose segments line up in columns (whitespace between them down the
 * block). The page's drawn lines (joined, see joinRulings) part a block into tables side by side
 * and bound its rows where they run between them.
 */
export function streamTables(rows: TextRow[], rulings: Rulings = { across: [], down: [] }): StreamGrid[] {
  const divider = pageDivider(rows, rulings.down);
  if (divider !== undefined) {
    const words = rows.flatMap((r) => r.words);
    const sides = [words.filter((w) => w.fx1 <= divider), words.filter((w) => w.fx0 >= divider)];
    return sides.flatMap((side) => streamTables(textRows(side), rulings));
  }
  const out: StreamGrid[] = [];
  for (const run of closeRuns(rows)) {
    const found = regions(run)
      .map((region) => ({ region, cols: columnsOf(region) }))
      .filter(({ cols }) => cols.length >= 2);
    const gap = found.map(({ region, cols }) => partingGap(region, cols, rulings.across)).find((g) => g !== undefined);
    if (gap !== undefined) {
      const words = run.flatMap((r) => r.words);
      const sides = [words.filter((w) => (w.fx0 + w.fx1) / 2 < gap), words.filter((w) => (w.fx0 + w.fx1) / 2 >= gap)];
      for (const side of sides) out.push(...streamTables(textRows(side), rulings));
      continue;
    }
    // a block's rows from its first row in columns on: the lines above that may be a ruled row's wrapped lines
    const inRegions = new Set(found.flatMap(({ region }) => region.slice(region.findIndex(multi))));
    const taken = new Set<TextRow>();
    for (const { region: rows, cols } of found) {
      const block = rows.filter((r) => !taken.has(r));
      if (block.length === 0) continue;
      const region = withRuledTail(block, run, cols, rulings.across, inRegions);
      for (const r of region) taken.add(r);
      const lines = gridOf(region, cols);
      const ruled = ruledRows(region, lines, cols, rulings.across);
      // a ruled table is judged on its text lines, before they are joined; others on their rows
      const judged = ruled ? { cells: lines, rowCount: region.length } : joinWrappedLabels(lines, region.length);
      if (filledRows(judged.cells) < 3 || notATable(judged.cells, cols.length)) continue;
      const { cells, rowCount } =
        headedRows(region, cols, rulings.across, ruled !== undefined) ??
        (ruled ? joinWrappedLabels(ruled.cells, ruled.rowCount) : judged);
      const words = new Set(region.flatMap((r) => r.words));
      out.push({ cells, rowCount, colCount: cols.length, words });
    }
  }
  return out;
}
