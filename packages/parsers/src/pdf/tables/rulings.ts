import type { PageContent } from '../page-content.js';
import type { Quarter } from '../runs.js';
import { toFrame } from '../runs.js';
import type { Matrix } from './page-drawing.js';
import { readPageDrawing } from './page-drawing.js';

/** A drawn straight line along an axis of the reading frame: `at` across it, [from, to] along it. */
export interface Ruling {
  at: number;
  from: number;
  to: number;
}

export interface Rulings {
  /** Lines along the writing direction (frame y constant). */
  across: Ruling[];
  /** Lines across the writing direction (frame x constant). */
  down: Ruling[];
}

/** More drawn segments than this on one page is a drawing (a chart, a map, a generated stress page), not a table's rulings. */
const MAX_SEGMENTS = 20_000;
/** A filled rectangle thinner than this (points) is a line. */
const THIN = 2.5;

/** Points within which two rulings are the same line, and a line reaches another. */
export const JOIN = 2;

/** Lines at (about) the same place joined where they overlap or nearly touch. */
function mergeRulings(lines: Ruling[]): Ruling[] {
  const sorted = [...lines].sort((a, b) => a.at - b.at || a.from - b.from);
  const rows: Ruling[][] = [];
  for (const l of sorted) {
    const row = rows.at(-1);
    if (row && Math.abs((row[0] as Ruling).at - l.at) <= JOIN) row.push(l);
    else rows.push([l]);
  }
  const out: Ruling[] = [];
  for (const row of rows) {
    const at = row.reduce((n, l) => n + l.at, 0) / row.length;
    const parts = [...row].sort((a, b) => a.from - b.from);
    let cur: Ruling | undefined;
    for (const p of parts) {
      if (cur && p.from <= cur.to + JOIN) cur.to = Math.max(cur.to, p.to);
      else {
        if (cur) out.push(cur);
        cur = { at, from: p.from, to: p.to };
      }
    }
    if (cur) out.push(cur);
  }
  return out;
}

/** The page's rulings with pieces of one line joined, and ticks (4 points long or less) left out. */
export function joinRulings(rulings: Rulings): Rulings {
  return {
    across: mergeRulings(rulings.across).filter((l) => l.to - l.from > 4),
    down: mergeRulings(rulings.down).filter((l) => l.to - l.from > 4),
  };
}

/** Subpaths of a pdf.js path buffer (moveTo 0, lineTo 1, curveTo 2, quadraticCurveTo 3, closePath 4) as point lists; curves end a straight run. */
function subpaths(buffer: ArrayLike<number>, m: Matrix): Array<Array<[number, number]>> {
  const out: Array<Array<[number, number]>> = [];
  let current: Array<[number, number]> = [];
  const at = (x: number, y: number): [number, number] => [m[0] * x + m[2] * y + m[4], m[1] * x + m[3] * y + m[5]];
  for (let k = 0; k < buffer.length; ) {
    const op = buffer[k++];
    if (op === 0 || op === 1) {
      if (op === 0 && current.length > 0) {
        out.push(current);
        current = [];
      }
      current.push(at(buffer[k] as number, buffer[k + 1] as number));
      k += 2;
    } else if (op === 2 || op === 3) {
      k += op === 2 ? 6 : 4;
      if (current.length > 0) out.push(current);
      current = [at(buffer[k - 2] as number, buffer[k - 1] as number)];
    } else if (op === 4) {
      if (current.length > 1) current.push(current[0] as [number, number]);
      out.push(current);
      current = [];
    } else break;
  }
  if (current.length > 0) out.push(current);
  return out;
}

interface Collector {
  rulings: Rulings;
  q: Quarter;
  count: number;
}

function addSegment(c: Collector, a: [number, number], b: [number, number]): void {
  const [ax, ay] = toFrame(a[0], a[1], c.q);
  const [bx, by] = toFrame(b[0], b[1], c.q);
  if (Math.abs(ay - by) < 1 && Math.abs(ax - bx) >= 2)
    c.rulings.across.push({ at: (ay + by) / 2, from: Math.min(ax, bx), to: Math.max(ax, bx) });
  else if (Math.abs(ax - bx) < 1 && Math.abs(ay - by) >= 2)
    c.rulings.down.push({ at: (ax + bx) / 2, from: Math.min(ay, by), to: Math.max(ay, by) });
  else return;
  c.count++;
}

/** A filled thin rectangle is one line through its middle; any other path gives its straight edges. */
function addPath(c: Collector, points: Array<[number, number]>, filled: boolean): void {
  if (filled && points.length >= 4) {
    let [x0, y0, x1, y1] = [Infinity, Infinity, -Infinity, -Infinity];
    for (const [px, py] of points) {
      const [x, y] = toFrame(px, py, c.q);
      x0 = Math.min(x0, x);
      x1 = Math.max(x1, x);
      y0 = Math.min(y0, y);
      y1 = Math.max(y1, y);
    }
    const [w, h] = [x1 - x0, y1 - y0];
    if (w < THIN || h < THIN) {
      if (w >= h && w >= 2) c.rulings.across.push({ at: (y0 + y1) / 2, from: x0, to: x1 });
      else if (h >= 2) c.rulings.down.push({ at: (x0 + x1) / 2, from: y0, to: y1 });
      c.count++;
      return;
    }
  }
  for (let i = 1; i < points.length; i++) addSegment(c, points[i - 1] as [number, number], points[i] as [number, number]);
}

/**
 * The straight lines a page draws (strokes, and filled rectangles' edges or thin bars), in the frame
 * of writing direction `q`, read from the page's content (page-drawing.ts). Paths painted white and
 * clipping paths are left out. A page drawing more than MAX_SEGMENTS segments gives none (`capped`).
 */
export function pageRulings(content: PageContent | undefined, q: Quarter): Rulings & { capped: boolean } {
  const c: Collector = { rulings: { across: [], down: [] }, q, count: 0 };
  if (!content) return { ...c.rulings, capped: false };
  const { capped } = readPageDrawing(content, (buffer, m, { filled, stroked }) => {
    for (const path of subpaths(buffer, m)) addPath(c, path, filled && !stroked);
    return c.count <= MAX_SEGMENTS;
  });
  if (c.count > MAX_SEGMENTS) return { across: [], down: [], capped: true };
  return { ...c.rulings, capped };
}
