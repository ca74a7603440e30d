import type { Box } from '@pinpoint/core';
import type { Quarter, Run } from './runs.js';

/** A run of an element's text (UTF-16 range while assembling) with its page box. */
export interface Piece {
  start: number;
  end: number;
  box: Box;
}

/** One line of text in reading order, with the page box of each of its pieces. */
export interface Line {
  quarter: Quarter;
  fx0: number;
  fx1: number;
  ftop: number;
  fbottom: number;
  base: number;
  size: number;
  text: string;
  pieces: Piece[];
  box: Box;
  /** Column of a two-column band (0 left, 1 right), or -1 for a line spanning the page. */
  column: number;
}

/** Scripts written without spaces between words (Han, kana, CJK punctuation, full-width forms); Hangul uses spaces. */
const CJK =
  /[\u2e80-\u2fdf\u3000-\u30ff\u3100-\u312f\u31a0-\u31ff\u3200-\u4dbf\u4e00-\u9fff\uf900-\ufaff\ufe30-\ufe4f\uff00-\uffef]|[\ud840-\ud87f][\udc00-\udfff]/;
/[\u1100-\u11ff\u2e80-\u2fdf\u3000-\u30ff\u3100-\u312f\u3130-\u318f\u31a0-\u31ff\u3200-\u9fff\ua960-\ua97f\uac00-\ud7ff\uf900-\ufaff\ufe30-\ufe4f\uff00-\uffef]|[\ud840-\ud87f][\udc00-\udfff]/;

export function isCjk(ch: string | undefined): boolean {
  return ch !== undefined && CJK.test(ch);
}

function lastChar(text: string): string | undefined {
  return Array.from(text.slice(-2)).at(-1);
}

/** Whether a visual gap between two runs of one line is a word space. */
function needsSpace(prev: Run, next: Run, gap: number): boolean {
  if (/\s$/.test(prev.text) || /^\s/.test(next.text)) return false;
  const size = Math.max(prev.size, next.size);
  if (isCjk(lastChar(prev.text)) || isCjk(next.text[0])) return gap > 0.6 * size;
  return gap > 0.12 * size;
}

/** Rows of runs that share a baseline (superscripts included), each sorted along the text. */
export function groupRows(runs: Run[]): Run[][] {
  const sorted = [...runs].sort((a, b) => a.base - b.base || a.fx0 - b.fx0);
  const rows: Run[][] = [];
  let row: Run[] = [];
  let base = 0;
  let size = 0;
  let top = 0;
  let bottom = 0;
  for (const run of sorted) {
    const overlap = Math.min(bottom, run.fbottom) - Math.max(top, run.ftop);
    const minHeight = Math.min(bottom - top, run.fbottom - run.ftop);
    const same = row.length > 0 && (Math.abs(run.base - base) <= 0.25 * Math.max(size, run.size) || overlap >= 0.6 * minHeight);
    if (!same) {
      if (row.length > 0) rows.push(row);
      row = [];
      top = run.ftop;
      bottom = run.fbottom;
    }
    row.push(run);
    if (run.size >= size || !same) {
      base = run.base;
      size = run.size;
    }
    top = Math.min(top, run.ftop);
    bottom = Math.max(bottom, run.fbottom);
  }
  if (row.length > 0) rows.push(row);
  return rows.map(orderRow);
}

/** Along-the-text order; right-to-left rows read from the right. Fake-bold duplicates are dropped. */
function orderRow(row: Run[]): Run[] {
  const weight = (runs: Run[]): number => runs.reduce((n, r) => n + r.text.length, 0);
  const rtl = weight(row.filter((r) => r.rtl)) > weight(row) / 2;
  const ordered = [...row].sort((a, b) => (rtl ? b.fx1 - a.fx1 : a.fx0 - b.fx0));
  return ordered.filter((run, i) => {
    const prev = ordered[i - 1];
    return !(
      prev &&
      prev.text === run.text &&
      Math.abs(prev.fx0 - run.fx0) < 0.2 * run.size &&
      Math.abs(prev.base - run.base) < 0.2 * run.size
    );
  });
}

function union(boxes: Box[]): Box {
  return [
    Math.min(...boxes.map((b) => b[0])),
    Math.min(...boxes.map((b) => b[1])),
    Math.max(...boxes.map((b) => b[2])),
    Math.max(...boxes.map((b) => b[3])),
  ];
}

/** Joins the runs of one row (or row segment) into a line with one piece per run. */
export function toLine(runs: Run[], column: number): Line {
  let text = '';
  const pieces: Piece[] = [];
  runs.forEach((run, i) => {
    const prev = runs[i - 1];
    const spaced = prev !== undefined && needsSpace(prev, run, run.rtl ? prev.fx0 - run.fx1 : run.fx0 - prev.fx1);
    if (spaced) text += ' ';
    const normalised = run.text.replace(/\s+/g, ' ');
    const t = text === '' ? normalised.trimStart() : normalised;
    const start = text.length + (t.length - t.trimStart().length);
    text += t;
    const piece: Piece = { start, end: text.trimEnd().length, box: run.box };
    const last = pieces.at(-1);
    // Runs written edge to edge (one glyph per item in some PDFs) make one piece: the map stays small.
    if (last && !spaced && !/\s/.test(t[0] ?? ' ') && last.end === start)
      Object.assign(last, { end: piece.end, box: union([last.box, piece.box]) });
    else pieces.push(piece);
  });
  const trimmed = text.trimEnd();
  const big = runs.reduce((a, b) => (b.size > a.size ? b : a));
  return {
    quarter: big.quarter,
    fx0: Math.min(...runs.map((r) => r.fx0)),
    fx1: Math.max(...runs.map((r) => r.fx1)),
    ftop: Math.min(...runs.map((r) => r.ftop)),
    fbottom: Math.max(...runs.map((r) => r.fbottom)),
    base: big.base,
    size: big.size,
    text: trimmed,
    pieces: pieces.filter((p) => p.end > p.start),
    box: union(runs.map((r) => r.box)),
    column,
  };
}
