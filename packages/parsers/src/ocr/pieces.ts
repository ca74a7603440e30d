import type { Box, OcrLine } from '@pinpoint/core';
import type { GreyPage } from '../tiff/tiff-raster.js';

/**
 * A page read in horizontal pieces at once, one recognition process each, so one page uses the cores a
 * single-page scan would leave idle. A cut is made only where it cannot change what is read or its order:
 *
 * - in a blank band between lines (no ink crosses it) at least half as high as the page's usual gap between
 *   lines, the nearest such band to the cut's target, so the gap inside a line (an i's dot) is not taken;
 * - where no column of the page can cross it: the two lines above the cut and the two below are each
 *   searched for a blank column (a gutter) between ink on its left and on its right, and a cut with a gutter
 *   on either side is not made. A two-column page read whole goes down the left column and then the right;
 *   cut across, it would read the top of both columns before the bottom of either. Tables have such gutters
 *   between their columns, so a table is not cut either (nor its header, whose cells' lines may stand one
 *   word wide above the gutters). A rule drawn across (a row of a table's lines) is not ink for this
 *   search: it would fill every gutter.
 *
 * Where no such cut is found near the target the page is read whole.
 */

/** A pixel darker than this is ink. */
const INK = 128;
/** Rows with at most this share of their pixels inked count as blank (a scan's specks). */
const SPECKS = 0.002;
/** A cut is looked for within this share of the page's height either side of its target. */
const REACH = 0.2;
/** A blank band must be at least this many pixels high, and half the page's median gap between lines, to be cut. */
const MIN_GAP = 3;
/** The lines either side of a cut searched for a gutter: this many whole lines each way. */
const NEIGHBOURHOOD_LINES = 2;
/** A row holding a run of ink this many line heights long is a rule, not text. */
const RULE_LINES = 3;
/** A blank column at least this many line heights wide between ink is a gutter (word spaces are a fraction of one). */
const GUTTER_LINES = 1;
/** Pages smaller than this many pixels are read whole: a process for each piece would cost more than it saves. */
const MIN_PIXELS = 1_000_000;

interface Gap {
  top: number;
  end: number;
}

/** Dark pixels per row, and the longest run of them in the row. */
function rowInk(page: GreyPage): { ink: Uint32Array; longest: Uint32Array } {
  const { width: w, height: h, grey } = page;
  const ink = new Uint32Array(h);
  const longest = new Uint32Array(h);
  for (let y = 0; y < h; y++) {
    let n = 0;
    let run = 0;
    let most = 0;
    for (let i = y * w, end = i + w; i < end; i++)
      if ((grey[i] as number) < INK) {
        n++;
        run++;
        if (run > most) most = run;
      } else run = 0;
    ink[y] = n;
    longest[y] = most;
  }
  return { ink, longest };
}

/** Runs of blank rows, runs of inked rows (lines), and the median height of the lines (the page's line height). */
function rowRuns(ink: Uint32Array, width: number): { gaps: Gap[]; lines: Gap[]; lineHeight: number } {
  const blank = Math.floor(width * SPECKS);
  const gaps: Gap[] = [];
  const lines: Gap[] = [];
  let start = 0;
  let isBlank = (ink[0] as number) <= blank;
  for (let y = 1; y <= ink.length; y++) {
    const b = y < ink.length ? (ink[y] as number) <= blank : !isBlank;
    if (b === isBlank) continue;
    (isBlank ? gaps : lines).push({ top: start, end: y });
    start = y;
    isBlank = b;
  }
  const heights = lines.map((l) => l.end - l.top).sort((a, b) => a - b);
  return { gaps, lines, lineHeight: heights[Math.floor(heights.length / 2)] ?? 0 };
}

/** The rows of `count` whole lines from line `first` (clamped to the page's lines). */
function linesSpan(lines: readonly Gap[], first: number, count: number): Gap {
  const from = Math.max(0, Math.min(first, lines.length - count));
  const to = Math.min(lines.length, from + count) - 1;
  return { top: (lines[from] as Gap).top, end: (lines[to] as Gap).end };
}

/** What the gutter search reads of a page: its pixels, its rows that are rules, and the widest gap that is not a gutter. */
interface Layout {
  page: GreyPage;
  rule: Uint8Array;
  minWidth: number;
}

function layoutOf(page: GreyPage, longest: Uint32Array, lineHeight: number): Layout {
  const rule = new Uint8Array(page.height);
  for (let y = 0; y < page.height; y++) if ((longest[y] as number) >= RULE_LINES * lineHeight) rule[y] = 1;
  return { page, rule, minWidth: lineHeight * GUTTER_LINES };
}

/** Whether a blank column at least the layout's gutter width lies between ink in rows `rows` (rules skipped). */
function hasGutter({ page, rule, minWidth }: Layout, rows: Gap): boolean {
  const { width: w, grey } = page;
  const cols = new Uint8Array(w);
  for (let y = Math.max(0, rows.top); y < Math.min(page.height, rows.end); y++) {
    if (rule[y]) continue;
    for (let x = 0, i = y * w; x < w; x++, i++) if ((grey[i] as number) < INK) cols[x] = 1;
  }
  const first = cols.indexOf(1);
  const last = cols.lastIndexOf(1);
  if (first < 0) return false;
  let run = 0;
  for (let x = first; x <= last; x++) {
    if (cols[x]) {
      if (run >= minWidth) return true;
      run = 0;
    } else run++;
  }
  return false;
}

/**
 * Whether the page has columns anywhere: a gutter (as above) in some band of its lines. A page read line by
 * line, not by a layout analysis, is read in order only without them (ppocr.ts).
 */
export function hasColumns(page: GreyPage): boolean {
  const { ink, longest } = rowInk(page);
  const { lines, lineHeight } = rowRuns(ink, page.width);
  const layout = layoutOf(page, longest, lineHeight);
  const count = 2 * NEIGHBOURHOOD_LINES;
  for (let first = 0; first < lines.length; first += count / 2)
    if (hasGutter(layout, linesSpan(lines, first, count))) return true;
  return false;
}

/**
 * Rows at which the page can be cut into `pieces` pieces of about equal ink without changing what is read
 * (see above); fewer cuts, or none, where the page has no such place near a target.
 */
export function pageCuts(page: GreyPage, pieces: number): number[] {
  if (pieces < 2 || page.width * page.height < MIN_PIXELS) return [];
  const { ink, longest } = rowInk(page);
  const { gaps, lines, lineHeight } = rowRuns(ink, page.width);
  if (lineHeight === 0) return [];
  let total = 0;
  for (const n of ink) total += n;
  // the row below which a share k / pieces of the ink lies
  const targets: number[] = [];
  for (let y = 0, sum = 0, k = 1; y < ink.length && k < pieces; y++) {
    sum += ink[y] as number;
    if (sum >= (total * k) / pieces) {
      targets.push(y);
      k++;
    }
  }
  const reach = page.height * REACH;
  const layout = layoutOf(page, longest, lineHeight);
  // a column may cross the gap when the lines above it or the lines below it have a gutter
  const crossed = (g: Gap): boolean => {
    const below = lines.findIndex((l) => l.top >= g.end);
    if (below <= 0) return false;
    const above = { top: (lines[Math.max(0, below - NEIGHBOURHOOD_LINES)] as Gap).top, end: (lines[below - 1] as Gap).end };
    const under = {
      top: (lines[below] as Gap).top,
      end: (lines[Math.min(lines.length, below + NEIGHBOURHOOD_LINES) - 1] as Gap).end,
    };
    return hasGutter(layout, above) || hasGutter(layout, under);
  };
  const interior = gaps.filter((g) => g.top > 0 && g.end < page.height);
  const heights = interior.map((g) => g.end - g.top).sort((a, b) => a - b);
  const minGap = Math.max(MIN_GAP, (heights[Math.floor(heights.length / 2)] ?? 0) / 2);
  const middle = (g: Gap) => (g.top + g.end) / 2;
  const cuts: number[] = [];
  for (const target of targets) {
    // the nearest band to the target that is no narrower than half the page's usual gap between lines
    const gap = interior
      .filter((g) => g.end - g.top >= minGap && Math.abs(middle(g) - target) <= reach)
      .sort((a, b) => Math.abs(middle(a) - target) - Math.abs(middle(b) - target))
      .find((g) => !crossed(g));
    if (gap === undefined) continue;
    const cut = Math.floor(middle(gap));
    if (!cuts.includes(cut)) cuts.push(cut);
  }
  return cuts.sort((a, b) => a - b);
}

/**
 * How many pieces each page may be read in at once when `pages` pages share `cores` (the parse's free cores)
 * and are read as many at a time as there are cores: the cores a page has to itself, at least one.
 */
export function piecesPerPage(cores: number, pages: number): number {
  const c = Math.max(1, Math.floor(cores));
  return Math.max(1, Math.floor(c / Math.max(1, Math.min(pages, c))));
}

/** The page's rows [top, end) as a page of their own. */
export function piece(page: GreyPage, top: number, end: number): GreyPage {
  return { width: page.width, height: end - top, grey: page.grey.subarray(top * page.width, end * page.width) };
}

function shifted(box: Box, dy: number): Box {
  return [box[0], box[1] + dy, box[2], box[3] + dy];
}

/** Lines read on a piece whose first row is `top`, with boxes on the whole page. */
export function linesOnPage(lines: readonly OcrLine[], top: number): OcrLine[] {
  if (top === 0) return [...lines];
  return lines.map((line) => ({
    ...line,
    box: shifted(line.box, top),
    words: line.words.map((word) => ({ ...word, box: shifted(word.box, top) })),
  }));
}
