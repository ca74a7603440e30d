import type { PdfTableCell } from './pdf-table.js';
import { unionBox } from './pdf-table.js';
import type { Ruling } from './rulings.js';
import { JOIN } from './rulings.js';
import type { TextRow } from './words.js';

/** Column intervals of a block of rows, frame x. */
type Columns = Array<[number, number]>;

/** A cell of figures only: one number or several ("$ (1,674) $ (795)"). */
const FIGURES = /^(?=.*\d)[\s$€£¥()+\-−–—%.,\d*†‡]+$/u;

/** Share of a table's width a drawn line must cover to separate its rows (or, on one side of a gap, to rule that side). */
const ACROSS = 0.6;

const extentOf = (rows: TextRow[]): { top: number; bottom: number; size: number } => ({
  top: Math.min(...rows.map((r) => r.top)),
  bottom: Math.max(...rows.map((r) => r.bottom)),
  size: Math.max(...rows.map((r) => r.size)),
});

/** Whether each segment of the row keeps to one column's lane, reaching into no other column: no heading or prose across columns. */
function fitsColumns(row: TextRow, cols: Columns): boolean {
  const lane = (i: number): [number, number] => [cols[i - 1]?.[1] ?? -Infinity, cols[i + 1]?.[0] ?? Infinity];
  return row.segments.every((s) => cols.some((_, i) => s.x0 >= lane(i)[0] && s.x1 <= lane(i)[1]));
}

/** Length of the lines at `at` (joined pieces of one line) within [x0, x1]. */
function coverAt(lines: Ruling[], at: number, x0: number, x1: number): number {
  let len = 0;
  for (const l of lines) if (Math.abs(l.at - at) <= JOIN) len += Math.max(0, Math.min(x1, l.to) - Math.max(x0, l.from));
  return len;
}

/** The drawn lines across [x0, x1] that cover ACROSS of it, one per position, within the block's height and a line's worth around it. */
function acrossLines(rows: TextRow[], lines: Ruling[], x0: number, x1: number): number[] {
  const { top, bottom, size } = extentOf(rows);
  const near = lines.filter((l) => l.at >= top - 2 * size && l.at <= bottom + 2 * size);
  const out: number[] = [];
  for (const l of near) {
    if (out.some((at) => Math.abs(at - l.at) <= JOIN)) continue;
    if (coverAt(near, l.at, x0, x1) >= ACROSS * (x1 - x0)) out.push(l.at);
  }
  return out.sort((a, b) => a - b);
}

/** Whether most of the text set in column `col` holds letters, not figures and dashes alone: a column of row labels, such as a table opens with. */
function labelColumn(rows: TextRow[], [a, b]: [number, number]): boolean {
  const texts = rows.flatMap((r) =>
    r.segments.filter((s) => (s.x0 + s.x1) / 2 >= a && (s.x0 + s.x1) / 2 <= b).map((s) => s.text),
  );
  return texts.length > 0 && texts.filter((t) => /\p{L}/u.test(t)).length > texts.length / 2;
}

/**
 * Where the page's drawing parts a block of rows in columns into two tables side by side: the frame x
 * of a gap between columns (two or more on each side) that no line drawn across the block crosses,
 * while two or more lines rule each side across its own width, each line in one piece (not a line
 * under each column), and the right side opens with a column
 * of words (two tables, each ruled across itself, not column groups of figures each underlined). Undefined when nothing parts it.
 */
export function partingGap(rows: TextRow[], cols: Columns, across: Ruling[]): number | undefined {
  const { top, bottom, size } = extentOf(rows);
  const [left, right] = [(cols[0] as [number, number])[0], (cols.at(-1) as [number, number])[1]];
  for (let i = 2; i + 1 < cols.length; i++) {
    const [g0, g1] = [(cols[i - 1] as [number, number])[1], (cols[i] as [number, number])[0]];
    if (g1 <= g0) continue;
    const crossed = across.some((l) => l.at >= top - 2 * size && l.at <= bottom + 2 * size && l.from < g0 && l.to > g1);
    if (crossed || !labelColumn(rows, cols[i] as [number, number])) continue;
    const whole = (x0: number, x1: number): number =>
      across.filter((l) => l.at >= top - 2 * size && l.at <= bottom + 2 * size && l.from <= x0 + size && l.to >= x1 - size)
        .length;
    if (whole(left, g0) >= 2 && whole(g1, right) >= 2) return (g0 + g1) / 2;
  }
  return undefined;
}

/**
 * The region with the rows after it in its run that lie in ruled rows, when lines drawn across
 * separate its rows (see ruledRows): rows set close under it that continue its last row's cells
 * (see continuesRow), down to the next line drawn across them, then on through each further ruled row that opens with a row lining up in columns, up to the
 * rows of the `others` regions. A cell wrapped over several lines in one column gives rows that do
 * not line up in columns themselves.
 */
export function withRuledTail(
  region: TextRow[],
  run: TextRow[],
  cols: Columns,
  across: Ruling[],
  others: ReadonlySet<TextRow>,
): TextRow[] {
  if (separators(region, across, cols).length < 2) return region;
  const [left, right] = [(cols[0] as [number, number])[0], (cols.at(-1) as [number, number])[1]];
  const lines = acrossLines(run, across, left, right);
  const out = [...region];
  let rest = run.slice(run.indexOf(region.at(-1) as TextRow) + 1);
  for (;;) {
    const below = lines.find((at) => at > (out.at(-1) as TextRow).bottom);
    if (below === undefined) break;
    const opening = [...out].reverse().find((r) => r.segments.length >= 2) as TextRow;
    const end = rest.findIndex(
      (r, i) =>
        r.bottom > below ||
        others.has(r) ||
        r.top - ((rest[i - 1] ?? out.at(-1)) as TextRow).bottom > 0.6 * r.size ||
        !continuesRow(opening, r, cols),
    );
    out.push(...rest.slice(0, end === -1 ? rest.length : end));
    rest = end === -1 ? [] : rest.slice(end);
    const next = rest[0];
    if (!next || next.segments.length < 2 || next.top < below || !fitsColumns(next, cols) || others.has(next)) break;
    out.push(next);
    rest = rest.slice(1);
  }
  return out;
}

/** The column of each segment of the row (the nearest whose lane holds it), or undefined when one reaches into another column. */
function columnsOfRow(row: TextRow, cols: Columns): number[] | undefined {
  const lane = (i: number): [number, number] => [cols[i - 1]?.[1] ?? -Infinity, cols[i + 1]?.[0] ?? Infinity];
  const out: number[] = [];
  for (const s of row.segments) {
    const mid = (s.x0 + s.x1) / 2;
    const fit = cols
      .map((c, i) => ({ i, d: Math.abs((c[0] + c[1]) / 2 - mid) }))
      .filter(({ i }) => s.x0 >= lane(i)[0] && s.x1 <= lane(i)[1])
      .sort((a, b) => a.d - b.d)[0];
    if (!fit) return undefined;
    out.push(fit.i);
  }
  return out;
}

/**
 * Whether `line` reads as wrapped lines of the cells `opening` (a row lining up in columns) begins:
 * it writes only in columns that row filled, not in all of them, and opens no new label.
 */
function continuesRow(opening: TextRow, line: TextRow, cols: Columns): boolean {
  const [own, added] = [columnsOfRow(opening, cols), columnsOfRow(line, cols)];
  if (!own || !added || added.some((c) => !own.includes(c)) || own.every((c) => added.includes(c))) return false;
  const label = opening.segments[own.indexOf(0)]?.text;
  const opens = line.segments[added.indexOf(0)]?.text;
  return !(label && opens && /^\p{Lu}/u.test(opens) && !/[-/,]$/.test(label));
}

/** The lines drawn across the region's columns (ACROSS of their width) between its first and last text line. */
function separators(rows: TextRow[], across: Ruling[], cols: Columns): number[] {
  const [left, right] = [(cols[0] as [number, number])[0], (cols.at(-1) as [number, number])[1]];
  const mid = (r: TextRow): number => (r.top + r.bottom) / 2;
  const [first, last] = [mid(rows[0] as TextRow), mid(rows.at(-1) as TextRow)];
  return acrossLines(rows, across, left, right).filter((at) => at > first && at < last);
}

/**
 * Whether `line` goes on the row `row` begins: it writes only in columns of the row's first line and
 * leaves one of them empty, adds nothing under a number, and opens no new label (a capital in the first column, after a label that
 * does not break off at a hyphen, slash or comma).
 */
function goesOn(first: PdfTableCell[], row: PdfTableCell[], line: PdfTableCell[]): boolean {
  const cols = new Set(line.map((c) => c.col));
  if (first.every((c) => cols.has(c.col)) || line.some((c) => !first.some((f) => f.col === c.col))) return false;
  const label = row.find((c) => c.col === 0);
  const opens = line.find((c) => c.col === 0 && /^\p{Lu}/u.test(c.text));
  if (label && opens && !/[-/,]$/.test(label.text)) return false;
  return !line.some((c) => row.some((x) => x.col === c.col && FIGURES.test(x.text)));
}

/** `line`'s cells added to the row: a column it shares takes the line's text after its own. */
function joinLine(row: PdfTableCell[], line: PdfTableCell[]): void {
  for (const c of line) {
    const own = row.find((x) => x.col === c.col);
    if (own) Object.assign(own, { text: `${own.text} ${c.text}`, box: unionBox([own.box, c.box]) });
    else row.push({ ...c });
  }
}

/**
 * Lines of one ruled row kept as one row. Where lines drawn across the table (ACROSS of its width)
 * separate its text lines, two or more of them between its first and last line, the text lines
 * between two such lines (a ruled row, closed above and below) are one row (a cell set on several
 * lines), except that a line filling every column of the row's first line or another column, or
 * putting text under a number, begins a row of its own, and a
 * line reaching out of its column (a heading over several columns) is a row of its own. `cells` are per text line (row = index in `rows`); undefined when the rulings do not separate rows.
 */
export function ruledRows(
  rows: TextRow[],
  cells: PdfTableCell[],
  cols: Columns,
  across: Ruling[],
): { cells: PdfTableCell[]; rowCount: number } | undefined {
  if (separators(rows, across, cols).length < 2) return undefined;
  const lines = acrossLines(rows, across, (cols[0] as [number, number])[0], (cols.at(-1) as [number, number])[1]);
  const mid = (r: TextRow): number => (r.top + r.bottom) / 2;
  const band = (r: TextRow): number => lines.filter((at) => at < mid(r)).length;
  const closed = (b: number): boolean => b > 0 && b < lines.length;
  const out: Array<{ band: number; fits: boolean; first: PdfTableCell[]; cells: PdfTableCell[] }> = [];
  rows.forEach((r, i) => {
    const line = cells.filter((c) => c.row === i);
    const prev = out.at(-1);
    const fits = fitsColumns(r, cols);
    if (line.length === 0) return;
    const joins = prev?.fits && fits && prev.band === band(r) && closed(prev.band);
    if (joins && goesOn(prev.first, prev.cells, line)) joinLine(prev.cells, line);
    else out.push({ band: band(r), fits, first: line, cells: line.map((c) => ({ ...c })) });
  });
  return { cells: out.flatMap((row, r) => row.cells.map((c) => ({ ...c, row: r }))), rowCount: out.length };
}
