import type { Box } from '@pinpoint/core';

/** Quarter turn of a run's writing direction in PDF user space: 0 = left→right, 3 = top→bottom (vertical). */
export type Quarter = 0 | 1 | 2 | 3;

/**
 * A text item of the page, placed twice: `box` on the page (top-left origin, unrotated page space) and
 * "frame" coordinates turned so its writing direction runs left→right (fx grows along the text, fy grows down).
 */
export interface Run {
  text: string;
  quarter: Quarter;
  fx0: number;
  fx1: number;
  ftop: number;
  fbottom: number;
  /** Baseline (or centre line for vertical text) in the frame. */
  base: number;
  size: number;
  box: Box;
  rtl: boolean;
}

export interface TextItemLike {
  str: string;
  dir: string;
  width: number;
  height: number;
  transform: number[];
  fontName: string;
}

export interface FontStyleLike {
  ascent: number;
  descent: number;
  vertical: boolean;
}

export interface PageFrame {
  /** page.view: [x0, y0, x1, y1] in user space. */
  view: number[];
  width: number;
  height: number;
}

/** Point in user space → frame coordinates for a quarter turn (frame y grows downward). */
export function toFrame(x: number, y: number, q: Quarter): [number, number] {
  switch (q) {
    case 0:
      return [x, -y];
    case 1:
      return [y, x];
    case 2:
      return [-x, y];
    default:
      return [-y, -x];
  }
}

function quarterOf(a: number, b: number): Quarter {
  const turns = Math.round(Math.atan2(b, a) / (Math.PI / 2));
  return (((turns % 4) + 4) % 4) as Quarter;
}

/** The four corners of an item in user space, from its origin, direction and extents. */
function corners(
  item: TextItemLike,
  style: FontStyleLike | undefined,
): { pts: Array<[number, number]>; q: Quarter; size: number } {
  const [a = 0, b = 0, c = 0, d = 0, e = 0, f = 0] = item.transform;
  const size = Math.hypot(c, d) || Math.hypot(a, b) || 1;
  if (style?.vertical) {
    // Vertical writing: the advance runs down the page; the glyphs are centred on the origin's x.
    const half = size / 2;
    const len = item.height || size * item.str.length;
    return {
      pts: [
        [e - half, f],
        [e + half, f],
        [e - half, f - len],
        [e + half, f - len],
      ],
      q: 3,
      size,
    };
  }
  const ux = a / (Math.hypot(a, b) || 1);
  const uy = b / (Math.hypot(a, b) || 1);
  const asc = Number(style?.ascent);
  const desc = Number(style?.descent);
  const hasMetrics = Number.isFinite(asc) && Number.isFinite(desc) && (asc !== 0 || desc !== 0);
  const ascent = hasMetrics ? Math.min(asc, 1.2) : 0.8;
  const descent = hasMetrics ? Math.max(desc, -0.5) : -0.2;
  // "Up" is perpendicular to the writing direction (handles mirrored c/d too).
  const vx = -uy;
  const vy = ux;
  const w = item.width;
  const at = (along: number, up: number): [number, number] => [e + ux * along + vx * up * size, f + uy * along + vy * up * size];
  return { pts: [at(0, descent), at(w, descent), at(0, ascent), at(w, ascent)], q: quarterOf(a, b), size };
}

/** A pdf.js text item as a Run; undefined for empty items and items off the page. */
export function toRun(item: TextItemLike, style: FontStyleLike | undefined, page: PageFrame, stacked = false): Run | undefined {
  if (item.str.trim() === '' || !item.transform.every(Number.isFinite) || !Number.isFinite(item.width)) return undefined;
  const placed = corners(item, style);
  const { pts, size } = placed;
  // Glyphs stacked one under another with a horizontal font: vertical writing, read top to bottom.
  const q: Quarter = stacked && placed.q === 0 ? 3 : placed.q;
  const [vx0 = 0, , , vy1 = 0] = page.view;
  const xs = pts.map(([x]) => x - vx0);
  const ys = pts.map(([, y]) => vy1 - y);
  const raw: Box = [Math.min(...xs), Math.min(...ys), Math.max(...xs), Math.max(...ys)];
  const cx = (raw[0] + raw[2]) / 2;
  const cy = (raw[1] + raw[3]) / 2;
  if (cx < 0 || cy < 0 || cx > page.width || cy > page.height) return undefined;
  const box: Box = [clamp(raw[0], page.width), clamp(raw[1], page.height), clamp(raw[2], page.width), clamp(raw[3], page.height)];
  const frame = pts.map(([x, y]) => toFrame(x, y, q));
  const fxs = frame.map(([x]) => x);
  const fys = frame.map(([, y]) => y);
  const [, oy] =
    stacked && q === 3
      ? [0, -((Math.min(...xs) + Math.max(...xs)) / 2 + vx0)]
      : toFrame(item.transform[4] ?? 0, item.transform[5] ?? 0, q);
  return {
    // Vertical presentation forms (︑︒︵︶…) read as the punctuation they stand for.
    text: item.str.replace(/[\ufe10-\ufe19\ufe30-\ufe4f]/g, (c) => c.normalize('NFKC')),
    quarter: q,
    fx0: Math.min(...fxs),
    fx1: Math.max(...fxs),
    ftop: Math.min(...fys),
    fbottom: Math.max(...fys),
    base: oy,
    size,
    box,
    rtl: item.dir === 'rtl',
  };
}

function clamp(v: number, max: number): number {
  return Math.min(Math.max(v, 0), max);
}
