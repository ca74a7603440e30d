import { describe, expect, it } from 'vitest';
import type { BoxFrame, PageRotation } from './bbox.js';
import { normalizeBox, normalizeBoxes, rotatedSize } from './bbox.js';

const page = { pageWidth: 600, pageHeight: 800 };
const near = (r: { left: number; top: number; width: number; height: number }) => ({
  left: Math.round(r.left * 1000) / 1000,
  top: Math.round(r.top * 1000) / 1000,
  width: Math.round(r.width * 1000) / 1000,
  height: Math.round(r.height * 1000) / 1000,
});

/** Independent oracle: rotate a page point clockwise the way a viewer does, in page units. */
function rotatePoint(x: number, y: number, w: number, h: number, rotation: PageRotation): [number, number] {
  const rad = (rotation * Math.PI) / 180;
  // rotate about the origin, then translate so the rotated page sits at the top-left again
  const rx = x * Math.cos(rad) - y * Math.sin(rad);
  const ry = x * Math.sin(rad) + y * Math.cos(rad);
  const corners = [
    [0, 0],
    [w, 0],
    [0, h],
    [w, h],
  ].map(([cx = 0, cy = 0]) => [cx * Math.cos(rad) - cy * Math.sin(rad), cx * Math.sin(rad) + cy * Math.cos(rad)]);
  const minX = Math.min(...corners.map((c) => c[0] ?? 0));
  const minY = Math.min(...corners.map((c) => c[1] ?? 0));
  return [rx - minX, ry - minY];
}

describe('normalizeBox', () => {
  const box = [60, 80, 120, 160] as const;
  const cases: [PageRotation, { left: number; top: number; width: number; height: number }][] = [
    [0, { left: 60, top: 80, width: 60, height: 80 }],
    [90, { left: 640, top: 60, width: 80, height: 60 }],
    [180, { left: 480, top: 640, width: 60, height: 80 }],
    [270, { left: 80, top: 480, width: 80, height: 60 }],
  ];
  for (const [rotation, expected] of cases) {
    it(`places an xyxy point box on a page rotated ${rotation}°`, () => {
      const frame: BoxFrame = { format: 'xyxy', unit: 'pt', rotation, ...page };
      const vp = rotatedSize(600, 800, rotation);
      expect(near(normalizeBox(box, frame, vp))).toEqual(expected);
    });

    it(`agrees with a rotation-matrix oracle at ${rotation}° and scale 1.5`, () => {
      const frame: BoxFrame = { format: 'xyxy', unit: 'pt', rotation, ...page };
      const vp = rotatedSize(900, 1200, rotation);
      const r = normalizeBox([33, 410, 297, 433], frame, vp);
      const [ax, ay] = rotatePoint(33 * 1.5, 410 * 1.5, 900, 1200, rotation);
      const [bx, by] = rotatePoint(297 * 1.5, 433 * 1.5, 900, 1200, rotation);
      expect(r.left).toBeCloseTo(Math.min(ax, bx), 6);
      expect(r.top).toBeCloseTo(Math.min(ay, by), 6);
      expect(r.width).toBeCloseTo(Math.abs(bx - ax), 6);
      expect(r.height).toBeCloseTo(Math.abs(by - ay), 6);
    });
  }

  it('reads xywh boxes in pixels of an image, scaled to the displayed size', () => {
    const frame: BoxFrame = { format: 'xywh', unit: 'px', pageWidth: 1200, pageHeight: 900, rotation: 0 };
    expect(near(normalizeBox([300, 450, 600, 90], frame, { width: 400, height: 300 }))).toEqual({
      left: 100,
      top: 150,
      width: 200,
      height: 30,
    });
  });

  it('reads ratio boxes regardless of the stated page size', () => {
    const frame: BoxFrame = { format: 'xyxy', unit: 'ratio', pageWidth: 0, pageHeight: 0, rotation: 90 };
    expect(near(normalizeBox([0, 0, 0.5, 0.25], frame, { width: 800, height: 600 }))).toEqual({
      left: 600,
      top: 0,
      width: 200,
      height: 300,
    });
  });

  it('gives the same rectangle for pt and ratio and xywh descriptions of one box', () => {
    const vp = { width: 300, height: 400 };
    const a = normalizeBox([60, 80, 120, 160], { format: 'xyxy', unit: 'pt', rotation: 0, ...page }, vp);
    const b = normalizeBox([0.1, 0.1, 0.1, 0.1], { format: 'xywh', unit: 'ratio', rotation: 0, ...page }, vp);
    expect(near(a)).toEqual(near(b));
    expect(near(a)).toEqual({ left: 30, top: 40, width: 30, height: 40 });
  });

  it('orders swapped corners and clamps boxes that overhang the page', () => {
    const frame: BoxFrame = { format: 'xyxy', unit: 'pt', rotation: 0, ...page };
    expect(near(normalizeBox([650, 900, 500, 700], frame, { width: 600, height: 800 }))).toEqual({
      left: 500,
      top: 700,
      width: 100,
      height: 100,
    });
  });

  it('refuses a page of zero size instead of drawing at a guessed place', () => {
    expect(() =>
      normalizeBox(
        [1, 1, 2, 2],
        { format: 'xyxy', unit: 'pt', rotation: 0, pageWidth: 0, pageHeight: 10 },
        { width: 1, height: 1 },
      ),
    ).toThrow(RangeError);
  });

  it('keeps every box of an anchor in order', () => {
    const frame: BoxFrame = { format: 'xyxy', unit: 'pt', rotation: 0, ...page };
    const rects = normalizeBoxes(
      [
        [0, 0, 60, 80],
        [60, 80, 120, 160],
      ],
      frame,
      { width: 600, height: 800 },
    );
    expect(rects.map((r) => r.left)).toEqual([0, 60]);
  });
});
