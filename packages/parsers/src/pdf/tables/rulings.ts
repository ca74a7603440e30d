import type { PDFPageProxy } from 'pdfjs-dist/legacy/build/pdf.mjs';
import { pdfOperatorCodes } from '../load.js';
import type { Quarter } from '../runs.js';
import { toFrame } from '../runs.js';

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
/** Operators read at most per page: beyond this the page gives no rulings. */
const MAX_OPERATORS = 2_000_000;
/** A filled rectangle thinner than this (points) is a line. */
const THIN = 2.5;

type Matrix = [number, number, number, number, number, number];

const multiply = (m: Matrix, n: Matrix): Matrix => [
  n[0] * m[0] + n[1] * m[2],
  n[0] * m[1] + n[1] * m[3],
  n[2] * m[0] + n[3] * m[2],
  n[2] * m[1] + n[3] * m[3],
  n[4] * m[0] + n[5] * m[2] + m[4],
  n[4] * m[1] + n[5] * m[3] + m[5],
];

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
 * of writing direction `q`. Paths painted white and clipping paths are left out. A page drawing more
 * than MAX_SEGMENTS segments gives none (`capped`).
 */
export async function pageRulings(page: PDFPageProxy, q: Quarter): Promise<Rulings & { capped: boolean }> {
  const OPS = await pdfOperatorCodes();
  const list = await page.getOperatorList({ annotationMode: 0 });
  const c: Collector = { rulings: { across: [], down: [] }, q, count: 0 };
  const fillOps = new Set([OPS.fill, OPS.eoFill, OPS.fillStroke, OPS.eoFillStroke, OPS.closeFillStroke, OPS.closeEOFillStroke]);
  const strokeOps = new Set([OPS.stroke, OPS.closeStroke]);
  let m: Matrix = [1, 0, 0, 1, 0, 0];
  const stack: Matrix[] = [];
  let fill = '';
  let stroke = '';
  const colours: Array<[string, string]> = [];
  const n = Math.min(list.fnArray.length, MAX_OPERATORS);
  for (let i = 0; i < n; i++) {
    const fn = list.fnArray[i];
    const args = list.argsArray[i] as unknown[] | null;
    if (fn === OPS.save) {
      stack.push(m);
      colours.push([fill, stroke]);
    } else if (fn === OPS.restore) {
      m = stack.pop() ?? m;
      [fill, stroke] = colours.pop() ?? [fill, stroke];
    } else if (fn === OPS.transform) m = multiply(m, args as Matrix);
    else if (fn === OPS.paintFormXObjectBegin) {
      stack.push(m);
      if (Array.isArray(args?.[0])) m = multiply(m, args[0] as Matrix);
    } else if (fn === OPS.paintFormXObjectEnd) m = stack.pop() ?? m;
    else if (fn === OPS.setFillRGBColor) fill = String(args?.[0] ?? '');
    else if (fn === OPS.setStrokeRGBColor) stroke = String(args?.[0] ?? '');
    else if (fn === OPS.constructPath) {
      const op = args?.[0] as number;
      const filled = fillOps.has(op) && fill !== '#ffffff';
      const stroked = (strokeOps.has(op) || (fillOps.has(op) && op !== OPS.fill && op !== OPS.eoFill)) && stroke !== '#ffffff';
      const buffer = (args?.[1] as unknown[] | undefined)?.[0] as ArrayLike<number> | null;
      if ((!filled && !stroked) || !buffer) continue;
      for (const path of subpaths(buffer, m)) addPath(c, path, filled && !stroked);
      if (c.count > MAX_SEGMENTS) return { across: [], down: [], capped: true };
    }
  }
  return { ...c.rulings, capped: list.fnArray.length > MAX_OPERATORS };
}
