import type { Box, OcrLine } from '@pinpoint/core';
import type { GreyPage } from '../tiff/tiff-raster.js';

/**
 * A page read in horizontal pieces at once, one recognition process each, so one page uses the cores a
 * single-page scan would leave idle. A cut is made only where it cannot change what is read or its order:
 *
 * - in a blank band between lines (no ink crosses it) at least half as high as the page's usual gap between
 *   lines, the nearest such band to the cut's target, so the gap inside a line (an i's dot) is not taken;
 * - where no column of the page crosses it: the lines either side of the cut are searched for a blank column
 *   (a gutter) between ink on its left and on its right. A two-column page read whole goes down the left
 *   column and then the right; cut across, it would read the top of both columns before the bottom of
 *   either. Tables have such gutters between their columns, so a table is not cut either.
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
/** The lines either side of a cut searched for a gutter: this many line heights each way. */
const NEIGHBOURHOOD_LINES = 4;
/** A blank column at least this many line heights wide between ink is a gutter (word spaces are a fraction of one). */
const GUTTER_LINES = 1;
/** Pages smaller than this many pixels are read whole: a process for each piece would cost more than it saves. */
const MIN_PIXELS = 1_000_000;

interface Gap {
  top: number;
  end: number;
}

/** Dark pixels per row. */
function rowInk(page: GreyPage): Uint32Array {
  const { width: w, height: h, grey } = page;
  const ink = new Uint32Array(h);
  for (let y = 0; y < h; y++) {
    let n = 0;
    for (let i = y * w, end = i + w; i < end; i++) if ((grey[i] as number) < INK) n++;
    ink[y] = n;
  }
  return ink;
}

/** Runs of blank rows, and the median height of the inked runs between them (the page's line height). */
function rowRuns(ink: Uint32Array, width: number): { gaps: Gap[]; lineHeight: number } {
  const blank = Math.floor(width * SPECKS);
  const gaps: Gap[] = [];
  const inked: number[] = [];
  let start = 0;
  let isBlank = (ink[0] as number) <= blank;
  for (let y = 1; y <= ink.length; y++) {
    const b = y < ink.length ? (ink[y] as number) <= blank : !isBlank;
    if (b === isBlank) continue;
    if (isBlank) gaps.push({ top: start, end: y });
    else inked.push(y - start);
    start = y;
    isBlank = b;
  }
  inked.sort((a, b) => a - b);
  return { gaps, lineHeight: inked[Math.floor(inked.length / 2)] ?? 0 };
}

/** Whether a blank column at least `minWidth` wide lies between ink in rows [top, end). */
function hasGutter(page: GreyPage, top: number, end: number, minWidth: number): boolean {
  const { width: w, grey } = page;
  const cols = new Uint8Array(w);
  for (let y = Math.max(0, top); y < Math.min(page.height, end); y++)
    for (let x = 0, i = y * w; x < w; x++, i++) if ((grey[i] as number) < INK) cols[x] = 1;
  let first = cols.indexOf(1);
  const last = cols.lastIndexOf(1);
  if (first < 0) return false;
  let run = 0;
  for (let x = first; x <= last; x++) {
    if (cols[x]) {
      if (run >= minWidth) return true;
      run = 0;
      first = x;
    } else run++;
  }
  return false;
}

/**
 * Rows at which the page can be cut into `pieces` pieces of about equal ink without changing what is read
 * (see above); fewer cuts, or none, where the page has no such place near a target.
 */
export function pageCuts(page: GreyPage, pieces: number): number[] {
  if (pieces < 2 || page.width * page.height < MIN_PIXELS) return [];
  const ink = rowInk(page);
  const { gaps, lineHeight } = rowRuns(ink, page.width);
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
  const around = lineHeight * NEIGHBOURHOOD_LINES;
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
      .find((g) => !hasGutter(page, g.top - around, g.end + around, lineHeight * GUTTER_LINES));
    if (gap === undefined) continue;
    const cut = Math.floor(middle(gap));
    if (!cuts.includes(cut)) cuts.push(cut);
  }
  return cuts.sort((a, b) => a - b);
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
