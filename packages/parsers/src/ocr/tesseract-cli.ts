import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { OcrEngine, OcrLine } from '@pinpoint/core';
import { createError } from '@pinpoint/core';
import { decodeRaster, toPpm } from '../image/prepare.js';
import { linesBack, orientationFor, parseOsd } from './orientation.js';
import { runCommand } from './run-command.js';
import { linesFromTsv } from './tsv.js';

export interface TesseractOptions {
  /** Path or name of the tesseract binary. */
  binary?: string;
  /** Folder of *.traineddata; tesseract's built-in default when absent (Debian: /usr/share/tesseract-ocr/5/tessdata). */
  tessdataDir?: string;
  timeoutMs?: number;
  /** Page segmentation mode; 3 = automatic layout analysis. */
  psm?: number;
  /** Folder for temporary files. */
  tmpDir?: string;
  /** When a pass is unsure, detect the page orientation (osd) and retry on the upright image. Default true. */
  autoRotate?: boolean;
  /** Decoding limit for the orientation retry. */
  maxPixels?: number;
}

type Result = { width: number; height: number; lines: OcrLine[] };

const LANG = /^[a-z_]+$/;
const UNSURE = 60;

function meanConfidence(r: Result): number {
  const words = r.lines.flatMap((l) => l.words);
  return words.length === 0 ? 0 : words.reduce((s, w) => s + w.confidence, 0) / words.length;
}

/**
 * OcrEngine over the native tesseract CLI (TSV output: word boxes and confidences), one OpenMP thread
 * per call so concurrent parses share the cores. Boxes are in pixels of the image given, also when the
 * text was read after turning an upside-down or sideways page upright.
 */
export function createTesseractOcr(options: TesseractOptions = {}): OcrEngine {
  const binary = options.binary ?? 'tesseract';
  const run = async (input: string, extra: string[], signal: AbortSignal | undefined) => {
    const args = [input, 'stdout', ...extra];
    if (options.tessdataDir) args.push('--tessdata-dir', options.tessdataDir);
    return runCommand(binary, args, {
      tool: 'tesseract',
      timeoutMs: options.timeoutMs ?? 180_000,
      signal,
      vars: { OMP_THREAD_LIMIT: '1' },
    });
  };
  const tsvPass = async (input: string, langs: string[], signal: AbortSignal | undefined): Promise<Result> => {
    const result = await run(input, ['-l', langs.join('+'), '--psm', String(options.psm ?? 3), 'tsv'], signal);
    if (result.code !== 0) {
      if (/Failed loading language|Error opening data file/i.test(result.stderr)) {
        throw createError(
          'PP_DEPENDENCY_MISSING',
          `OCR language data for ${langs.join('+')} is not installed (tesseract-ocr-<lang>).`,
        );
      }
      throw createError(
        'PP_PARSE_CORRUPT',
        `tesseract could not read the image: ${result.stderr.trim().split('\n').at(-1) ?? ''}`,
      );
    }
    return linesFromTsv(result.stdout.toString('utf8'));
  };
  const uprightRetry = async (
    dir: string,
    image: Uint8Array,
    first: Result,
    langs: string[],
    signal: AbortSignal | undefined,
  ) => {
    const osd = parseOsd((await run(join(dir, 'page'), ['--psm', '0'], signal)).stdout.toString('utf8'));
    if (!osd || osd.rotate === 0 || osd.confidence < 1) return first;
    const turned = toPpm(decodeRaster(image, options.maxPixels ?? 60_000_000), orientationFor[osd.rotate]);
    await writeFile(join(dir, 'upright'), turned);
    const second = await tsvPass(join(dir, 'upright'), langs, signal);
    if (meanConfidence(second) <= meanConfidence(first)) return first;
    return { width: first.width, height: first.height, lines: linesBack(second.lines, osd.rotate, first.width, first.height) };
  };
  return {
    id: 'tesseract-cli',
    async recognize(image, langs, signal) {
      if (langs.length === 0 || !langs.every((l) => LANG.test(l)))
        throw createError('PP_VALIDATION', `Bad OCR language list: ${langs.join('+')}`);
      const dir = await mkdtemp(join(options.tmpDir ?? tmpdir(), 'pp-ocr-'));
      try {
        await writeFile(join(dir, 'page'), image);
        const first = await tsvPass(join(dir, 'page'), langs, signal);
        if (options.autoRotate === false || meanConfidence(first) >= UNSURE) return first;
        return await uprightRetry(dir, image, first, langs, signal);
      } finally {
        await rm(dir, { recursive: true, force: true });
      }
    },
  };
}
