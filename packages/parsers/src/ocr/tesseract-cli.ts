import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { OcrEngine, OcrImageHints, OcrLine, OcrPageReader, OcrScript } from '@pinpoint/core';
import { createError, PinpointError } from '@pinpoint/core';
import { decodeRaster, toPpm } from '../image/prepare.js';
import { linesBack, type Osd, orientationFor, parseOsd } from './orientation.js';
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
  /** Reads pages of Simplified Chinese in chi_sim's place (ppocr.ts). */
  simplifiedChinese?: OcrPageReader;
}

type Result = { width: number; height: number; lines: OcrLine[] };
type Signal = AbortSignal | undefined;

const LANG = /^[a-z_]+$/;
const UNSURE = 60;
/**
 * Characters the orientation and script detection classifies (tesseract's default 50). On ocr-dev's 76 pages 10
 * halves its CPU (98 → 43 s) and tells Latin from CJK and the orientation as the default does; Han and Japanese
 * it confuses on 3 pages where the default confuses 1, which costs those pages a second model's pass (recognize.ts
 * tries the other scripts when a pass is unsure), not their text.
 */
const OSD_CHARACTERS = 10;
/** Orientation confidence from which a detected turn is acted on (as the unsure-pass retry does). */
const SURE_TURN = 1;

/** Images without a stated resolution (PNM) make tesseract guess it, and a wrong guess breaks its layout analysis. */
function dpiArgs(hints: OcrImageHints): string[] {
  return hints.dpi !== undefined && hints.dpi >= 50 && hints.dpi <= 2400 ? ['--dpi', String(Math.round(hints.dpi))] : [];
}

function meanConfidence(r: Result): number {
  const words = r.lines.flatMap((l) => l.words);
  return words.length === 0 ? 0 : words.reduce((s, w) => s + w.confidence, 0) / words.length;
}

/**
 * OcrEngine over the native tesseract CLI (TSV output: word boxes and confidences), one OpenMP thread
 * per call so concurrent parses share the cores. Boxes are in pixels of the image given, also when the
 * text was read after turning an upside-down or sideways page upright.
 */
class TesseractCli implements OcrEngine {
  readonly id = 'tesseract-cli';
  readonly simplifiedChinese: OcrPageReader | undefined;

  constructor(private readonly options: TesseractOptions) {
    this.simplifiedChinese = options.simplifiedChinese;
  }

  async recognize(image: Uint8Array, langs: string[], signal?: AbortSignal, hints: OcrImageHints = {}): Promise<Result> {
    if (langs.length === 0 || !langs.every((l) => LANG.test(l)))
      throw createError('PP_VALIDATION', `Bad OCR language list: ${langs.join('+')}`);
    if (hints.rotate) return this.turnedPass(image, hints.rotate, langs, signal, hints);
    return this.withImage(image, async (dir) => {
      const first = await this.tsvPass(join(dir, 'page'), langs, signal, hints);
      if (this.options.autoRotate === false || meanConfidence(first) >= UNSURE) return first;
      return await this.uprightRetry(dir, image, first, langs, signal, hints);
    });
  }

  /** Tesseract's orientation and script detection (osd.traineddata); undefined when it cannot tell. */
  async detectScript(image: Uint8Array, signal?: AbortSignal, hints: OcrImageHints = {}): Promise<OcrScript | undefined> {
    const osd = await this.withImage(image, async (dir) => this.osd(join(dir, 'page'), signal, hints));
    if (osd?.script === undefined || osd.scriptConfidence === undefined) return undefined;
    return { script: osd.script, confidence: osd.scriptConfidence, rotate: osd.confidence >= SURE_TURN ? osd.rotate : 0 };
  }

  /** The image read turned `rotate`° clockwise (upright), its boxes mapped back to the image as given. */
  private async turnedPass(
    image: Uint8Array,
    rotate: 90 | 180 | 270,
    langs: string[],
    signal: Signal,
    hints: OcrImageHints,
  ): Promise<Result> {
    const decoded = decodeRaster(image, this.options.maxPixels ?? 60_000_000);
    const turned = toPpm(decoded, orientationFor[rotate]);
    const read = await this.withImage(turned, (dir) => this.tsvPass(join(dir, 'page'), langs, signal, hints));
    return { width: decoded.width, height: decoded.height, lines: linesBack(read.lines, rotate, decoded.width, decoded.height) };
  }

  private async withImage<T>(image: Uint8Array, use: (dir: string) => Promise<T>): Promise<T> {
    const dir = await mkdtemp(join(this.options.tmpDir ?? tmpdir(), 'pp-ocr-'));
    try {
      await writeFile(join(dir, 'page'), image);
      return await use(dir);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }

  private async osd(input: string, signal: Signal, hints: OcrImageHints): Promise<Osd | undefined> {
    const args = ['--psm', '0', '-c', `min_characters_to_try=${OSD_CHARACTERS}`, ...dpiArgs(hints)];
    return parseOsd((await this.run(input, args, signal)).stdout.toString('utf8'));
  }

  private run(input: string, extra: string[], signal: Signal) {
    const args = [input, 'stdout', ...extra];
    if (this.options.tessdataDir) args.push('--tessdata-dir', this.options.tessdataDir);
    const timeoutMs = this.options.timeoutMs ?? 180_000;
    return runCommand(this.options.binary ?? 'tesseract', args, {
      tool: 'tesseract',
      timeoutMs,
      signal,
      vars: { OMP_THREAD_LIMIT: '1' },
    });
  }

  private async tsvPass(input: string, langs: string[], signal: Signal, hints: OcrImageHints): Promise<Result> {
    const psm = String(this.options.psm ?? 3);
    const result = await this.run(input, ['-l', langs.join('+'), '--psm', psm, ...dpiArgs(hints), 'tsv'], signal);
    if (result.code !== 0) {
      if (/Failed loading language|Error opening data file/i.test(result.stderr)) {
        throw createError(
          'PP_DEPENDENCY_MISSING',
          `OCR language data for ${langs.join('+')} is not installed (tesseract-ocr-<lang>).`,
        );
      }
      throw new PinpointError('PP_PARSE_CORRUPT', 'The image could not be read by OCR; it may be damaged.', {
        detail: result.stderr.trim().split('\n').at(-1) ?? '',
      });
    }
    return linesFromTsv(result.stdout.toString('utf8'));
  }

  /** Orientation detection; when the page is turned, OCR of the upright image with boxes mapped back. */
  private async uprightRetry(
    dir: string,
    image: Uint8Array,
    first: Result,
    langs: string[],
    signal: Signal,
    hints: OcrImageHints,
  ): Promise<Result> {
    const osd = await this.osd(join(dir, 'page'), signal, hints);
    if (!osd || osd.rotate === 0 || osd.confidence < SURE_TURN) return first;
    const turned = toPpm(decodeRaster(image, this.options.maxPixels ?? 60_000_000), orientationFor[osd.rotate]);
    await writeFile(join(dir, 'upright'), turned);
    const second = await this.tsvPass(join(dir, 'upright'), langs, signal, hints);
    if (meanConfidence(second) <= meanConfidence(first)) return first;
    return { width: first.width, height: first.height, lines: linesBack(second.lines, osd.rotate, first.width, first.height) };
  }
}

export function createTesseractOcr(options: TesseractOptions = {}): OcrEngine {
  return new TesseractCli(options);
}
