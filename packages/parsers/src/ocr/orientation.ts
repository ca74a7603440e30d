import type { Box, OcrLine } from '@pinpoint/core';

/** Clockwise turn that makes the text upright, as tesseract's orientation detection (--psm 0) reports it. */
export interface Osd {
  rotate: 0 | 90 | 180 | 270;
  confidence: number;
  /** The script tesseract saw ('Latin', 'Han', 'Japanese', …) and its confidence. */
  script?: string;
  scriptConfidence?: number;
}

export function parseOsd(text: string): Osd | undefined {
  const rotate = /Rotate:\s*(\d+)/.exec(text)?.[1];
  const confidence = /Orientation confidence:\s*([\d.]+)/.exec(text)?.[1];
  if (rotate === undefined || confidence === undefined) return undefined;
  const r = Number(rotate);
  if (r !== 0 && r !== 90 && r !== 180 && r !== 270) return undefined;
  const script = /Script:\s*(\S+)/.exec(text)?.[1];
  const scriptConfidence = /Script confidence:\s*([\d.]+)/.exec(text)?.[1];
  return {
    rotate: r,
    confidence: Number(confidence),
    ...(script !== undefined && scriptConfidence !== undefined ? { script, scriptConfidence: Number(scriptConfidence) } : {}),
  };
}

/** EXIF orientation code whose display turn equals a clockwise rotation. */
export const orientationFor = { 90: 6, 180: 3, 270: 8 } as const;

/** A point of the image turned `rotate`° clockwise, mapped back to the image as given (w × h). */
function back(x: number, y: number, rotate: number, w: number, h: number): [number, number] {
  if (rotate === 90) return [y, h - x];
  if (rotate === 180) return [w - x, h - y];
  if (rotate === 270) return [w - y, x];
  return [x, y];
}

function boxBack(box: Box, rotate: number, w: number, h: number): Box {
  const [ax, ay] = back(box[0], box[1], rotate, w, h);
  const [bx, by] = back(box[2], box[3], rotate, w, h);
  return [Math.min(ax, bx), Math.min(ay, by), Math.max(ax, bx), Math.max(ay, by)];
}

/** Lines recognised on the turned image, with boxes in the pixels of the image as given. */
export function linesBack(lines: OcrLine[], rotate: number, w: number, h: number): OcrLine[] {
  return lines.map((line) => ({
    ...line,
    box: boxBack(line.box, rotate, w, h),
    words: line.words.map((word) => ({ ...word, box: boxBack(word.box, rotate, w, h) })),
  }));
}
