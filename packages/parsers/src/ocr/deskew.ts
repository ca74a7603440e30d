import type { Box, OcrLine } from '@pinpoint/core';
import { decodeRaster } from '../image/prepare.js';
import { type GreyPage, greyToPgm } from '../tiff/tiff-raster.js';

/** Skews searched, in degrees either way, and the step of the search. */
const MAX_SKEW = 3;
const STEP = 0.05;
/** Below this skew the page is read as given: tesseract's own line finding copes. */
const MIN_SKEW = 0.3;
/** The skewed projection must be this much sharper than the straight one (a page of pictures has no skew). */
const SHARPER = 1.05;
/** The page is searched for skew at 1/4 of its resolution (ink kept: the darkest pixel of each 4×4 cell). */
const CELL = 4;

/** The page in 8-bit grey: PGM and PPM read in place, PNG and JPEG decoded (luma of the RGBA). */
export function greyOf(image: Uint8Array, maxPixels: number): GreyPage {
  const head = new TextDecoder('latin1').decode(image.subarray(0, 64));
  const pnm = /^P5\s+(\d+)\s+(\d+)\s+255\s/.exec(head);
  if (pnm) return { width: Number(pnm[1]), height: Number(pnm[2]), grey: image.subarray(pnm[0].length) };
  const rgba = decodeRaster(image, maxPixels);
  const grey = new Uint8Array(rgba.width * rgba.height);
  for (let i = 0, j = 0; i < grey.length; i++, j += 4)
    grey[i] = ((rgba.data[j] as number) * 299 + (rgba.data[j + 1] as number) * 587 + (rgba.data[j + 2] as number) * 114) / 1000;
  return { width: rgba.width, height: rgba.height, grey };
}

/** Ink of the page at 1/CELL resolution: the cells whose darkest pixel is below mid-grey, as (x, y) pairs. */
function inkCells(page: GreyPage): { xs: Int32Array; ys: Int32Array } {
  const w = Math.floor(page.width / CELL);
  const h = Math.floor(page.height / CELL);
  const xs: number[] = [];
  const ys: number[] = [];
  for (let cy = 0; cy < h; cy++)
    for (let cx = 0; cx < w; cx++) {
      let dark = false;
      for (let y = cy * CELL; y < cy * CELL + CELL && !dark; y++) {
        const row = y * page.width;
        for (let x = cx * CELL; x < cx * CELL + CELL; x++)
          if ((page.grey[row + x] as number) < 128) {
            dark = true;
            break;
          }
      }
      if (dark) {
        xs.push(cx);
        ys.push(cy);
      }
    }
  return { xs: Int32Array.from(xs), ys: Int32Array.from(ys) };
}

/** How sharply the ink falls into rows when the page is turned by `deg`: the sum of squared row counts. */
function rowSharpness(xs: Int32Array, ys: Int32Array, deg: number, rows: Float64Array, width: number): number {
  const t = (deg * Math.PI) / 180;
  const cos = Math.cos(t);
  const sin = Math.sin(t);
  const offset = Math.ceil(width * Math.abs(sin)) + 1;
  rows.fill(0);
  for (let i = 0; i < xs.length; i++) {
    const r = Math.round((ys[i] as number) * cos - (xs[i] as number) * sin) + offset;
    rows[r] = (rows[r] as number) + 1;
  }
  let sum = 0;
  for (const n of rows) sum += n * n;
  return sum;
}

/**
 * The page's skew in degrees (positive: the lines fall to the right, in image coordinates), found as the
 * turn that lines the ink up into the sharpest rows (projection profile); 0 when it is under MIN_SKEW or
 * no turn is clearly sharper than none.
 */
export function skewOf(page: GreyPage): number {
  const { xs, ys } = inkCells(page);
  if (xs.length === 0) return 0;
  const width = Math.floor(page.width / CELL);
  // rows of the turned page: its height plus what a turn of MAX_SKEW adds either way
  const rows = new Float64Array(Math.floor(page.height / CELL) + width + 4);
  const straight = rowSharpness(xs, ys, 0, rows, width);
  let best = 0;
  let bestScore = straight;
  for (let deg = -MAX_SKEW; deg <= MAX_SKEW + 1e-9; deg += STEP) {
    const score = rowSharpness(xs, ys, deg, rows, width);
    if (score > bestScore) {
      best = deg;
      bestScore = score;
    }
  }
  return Math.abs(best) >= MIN_SKEW && bestScore >= straight * SHARPER ? Math.round(best * 100) / 100 : 0;
}

/** The point of the page as given that a point of the page straightened by `deg` shows (rotation about the centre). */
function source(x: number, y: number, cos: number, sin: number, cx: number, cy: number): [number, number] {
  return [cos * (x - cx) - sin * (y - cy) + cx, sin * (x - cx) + cos * (y - cy) + cy];
}

/** The page turned by `deg` about its centre (bilinear, white outside), the same size: the lines level. */
export function straightened(page: GreyPage, deg: number): GreyPage {
  const { width: w, height: h, grey } = page;
  const t = (deg * Math.PI) / 180;
  const cos = Math.cos(t);
  const sin = Math.sin(t);
  const out = new Uint8Array(w * h);
  const at = (x: number, y: number): number => (x >= 0 && x < w && y >= 0 && y < h ? (grey[y * w + x] as number) : 255);
  for (let y = 0; y < h; y++)
    for (let x = 0; x < w; x++) {
      const [sx, sy] = source(x, y, cos, sin, w / 2, h / 2);
      const x0 = Math.floor(sx);
      const y0 = Math.floor(sy);
      const fx = sx - x0;
      const fy = sy - y0;
      const top = at(x0, y0) * (1 - fx) + at(x0 + 1, y0) * fx;
      const bottom = at(x0, y0 + 1) * (1 - fx) + at(x0 + 1, y0 + 1) * fx;
      out[y * w + x] = top * (1 - fy) + bottom * fy;
    }
  return { width: w, height: h, grey: out };
}

/** A box found on the straightened page, as the box around its corners on the page as given. */
function boxBack(box: Box, cos: number, sin: number, cx: number, cy: number): Box {
  const corners = [
    source(box[0], box[1], cos, sin, cx, cy),
    source(box[2], box[1], cos, sin, cx, cy),
    source(box[0], box[3], cos, sin, cx, cy),
    source(box[2], box[3], cos, sin, cx, cy),
  ];
  const xs = corners.map((c) => c[0]);
  const ys = corners.map((c) => c[1]);
  const r = (v: number) => Math.round(v);
  return [r(Math.min(...xs)), r(Math.min(...ys)), r(Math.max(...xs)), r(Math.max(...ys))];
}

/** Lines read on the page straightened by `deg`, with boxes on the page as given (w × h). */
export function linesUnskewed(lines: OcrLine[], deg: number, w: number, h: number): OcrLine[] {
  const t = (deg * Math.PI) / 180;
  const back = (box: Box) => boxBack(box, Math.cos(t), Math.sin(t), w / 2, h / 2);
  return lines.map((line) => ({
    ...line,
    box: back(line.box),
    words: line.words.map((word) => ({ ...word, box: back(word.box) })),
  }));
}

/**
 * The page as OCR reads it: straightened when it is skewed (as PGM), else the image as given; with its grey
 * pixels when they could be decoded (undefined: OCR reads the file itself, as it always did) and its skew.
 */
export function levelled(image: Uint8Array, maxPixels: number): { image: Uint8Array; grey?: GreyPage; deg: number } {
  let page: GreyPage;
  try {
    page = greyOf(image, maxPixels);
  } catch {
    return { image, deg: 0 };
  }
  const deg = skewOf(page);
  if (deg === 0) return { image, grey: page, deg };
  const level = straightened(page, deg);
  return { image: greyToPgm(level), grey: level, deg };
}
