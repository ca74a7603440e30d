/**
 * Box normalisation for the page view: the only place where anchor boxes become screen rectangles.
 *
 * Anchor boxes live in unrotated page space, top-left origin, in the anchor's unit. The rendered
 * viewport (pdf.js or an <img>) shows the page rotated clockwise by `rotation` degrees. Boxes are
 * taken to page ratios first (0..1 of the unrotated page), rotated in that unit square, then scaled
 * to the rendered viewport — so units, formats and rotations never mix.
 */

type BoxFormat = 'xyxy' | 'xywh';
type BoxUnit = 'pt' | 'px' | 'ratio';
export type PageRotation = 0 | 90 | 180 | 270;

export interface BoxFrame {
  format: BoxFormat;
  unit: BoxUnit;
  /** Unrotated page size in `unit` (ignored for 'ratio'). */
  pageWidth: number;
  pageHeight: number;
  rotation: PageRotation;
}

/** The rendered page's size in CSS pixels, after rotation. */
export interface ViewportSize {
  width: number;
  height: number;
}

export interface ScreenRect {
  left: number;
  top: number;
  width: number;
  height: number;
}

type Point = readonly [number, number];

/** Rotates a point of the unit square clockwise, as the viewer rotates the page. */
function rotateUnit([x, y]: Point, rotation: PageRotation): Point {
  switch (rotation) {
    case 0:
      return [x, y];
    case 90:
      return [1 - y, x];
    case 180:
      return [1 - x, 1 - y];
    case 270:
      return [y, 1 - x];
  }
}

function toUnitCorners(box: readonly number[], frame: BoxFrame): [Point, Point] {
  const [a = 0, b = 0, c = 0, d = 0] = box;
  const [x0, y0, x1, y1] = frame.format === 'xywh' ? [a, b, a + c, b + d] : [a, b, c, d];
  const w = frame.unit === 'ratio' ? 1 : frame.pageWidth;
  const h = frame.unit === 'ratio' ? 1 : frame.pageHeight;
  const clamp = (v: number) => Math.min(1, Math.max(0, v));
  return [
    [clamp(Math.min(x0, x1) / w), clamp(Math.min(y0, y1) / h)],
    [clamp(Math.max(x0, x1) / w), clamp(Math.max(y0, y1) / h)],
  ];
}

/** One anchor box → one rectangle over the rendered page, in CSS pixels. */
export function normalizeBox(box: readonly number[], frame: BoxFrame, viewport: ViewportSize): ScreenRect {
  if (!(frame.unit === 'ratio' || (frame.pageWidth > 0 && frame.pageHeight > 0))) {
    throw new RangeError('page size must be positive to place boxes');
  }
  const [p, q] = toUnitCorners(box, frame);
  const [rx0, ry0] = rotateUnit(p, frame.rotation);
  const [rx1, ry1] = rotateUnit(q, frame.rotation);
  const left = Math.min(rx0, rx1) * viewport.width;
  const top = Math.min(ry0, ry1) * viewport.height;
  return {
    left,
    top,
    width: Math.abs(rx1 - rx0) * viewport.width,
    height: Math.abs(ry1 - ry0) * viewport.height,
  };
}

/** All boxes of an anchor, in order; the first one is where the reader scrolls. */
export function normalizeBoxes(boxes: readonly (readonly number[])[], frame: BoxFrame, viewport: ViewportSize): ScreenRect[] {
  return boxes.map((b) => normalizeBox(b, frame, viewport));
}

/** The rendered (rotated) aspect: width/height of the page as shown. */
export function rotatedSize(width: number, height: number, rotation: PageRotation): ViewportSize {
  return rotation === 90 || rotation === 270 ? { width: height, height: width } : { width, height };
}
