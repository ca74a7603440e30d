import type { Diagnostic, OcrEngine, OcrImageHints, OcrLine, OcrPageReader, OcrScript } from '@pinpoint/core';
import { PinpointError } from '@pinpoint/core';
import { type GreyPage, greyToPgm } from '../tiff/tiff-raster.js';
import { inkedBand } from './band.js';
import { levelled, linesUnskewed } from './deskew.js';
import { hasColumns, linesOnPage, pageCuts, piece } from './pieces.js';
import { formConfidence, formWords, scriptShares } from './script.js';

export interface Recognition {
  width: number;
  height: number;
  lines: OcrLine[];
  /** Languages of the pass that was kept, e.g. ['chi_tra'] or ['jpn', 'eng']. */
  langs: string[];
  /** Mean word confidence 0..100 (0 when no words). */
  confidence: number;
  words: number;
  /** The script the engine saw on the page before recognition ('Latin', 'Han', 'Japanese'), when it said. */
  script?: string;
  /** Degrees the page was turned to level its lines before recognition (its boxes are on the page as given). */
  skew?: number;
  /** The reader that read the page when it is not the engine itself (PP-OCRv4 for Simplified Chinese). */
  engine?: string;
}

/** One page to recognise: the engine, the image, what its file says about it, and the parse's signal. */
interface PageInput {
  engine: OcrEngine;
  image: Uint8Array;
  hints: OcrImageHints;
  signal: AbortSignal | undefined;
  /** The image's pixels in grey, when they could be decoded. */
  grey?: GreyPage | undefined;
  /** Rows at which the page is cut into pieces read at once (pieces.ts); none: read whole. */
  cuts?: readonly number[];
  /** Recognition processes the page may run at once (the cores its parse has for it). */
  cores?: number;
}

/** How a page may be read: in how many pieces at once (the cores its parse has free for it). */
export interface RecognizeOptions {
  pieces?: number;
}

/** Decoding limit for straightening a skewed page (the parsers' own page limit). */
const MAX_PIXELS = 60_000_000;
/** Below this mean word confidence a pass is retried with the other scripts' models. */
const GOOD_ENOUGH = 75;
/** Below this a page is flagged 'ocr/low-confidence'. */
const LOW_CONFIDENCE = 60;
/** chi_tra is kept over chi_sim only when its Traditional-only words are this much surer (script.ts). */
const TRADITIONAL_MARGIN = 5;
/** Share of a Han page's height (its most inked band) read with both Chinese models to choose one. */
const FORM_SAMPLE = 0.25;
/** A CJK page with at least this share of Latin words is read again with English added. */
const MIXED_LATIN_WORDS = 0.15;

function summarise(result: { width: number; height: number; lines: OcrLine[] }, langs: string[]): Recognition {
  const words = result.lines.flatMap((l) => l.words);
  const confidence = words.length > 0 ? words.reduce((s, w) => s + w.confidence, 0) / words.length : 0;
  return { ...result, langs, confidence, words: words.length };
}

/**
 * Chinese pages are read whole. The fast Chinese models change characters when the page's binarisation moves
 * a little, and a piece is thresholded on its own ink: on ocr-dev's Chinese pages reading in halves moved CER
 * 0.0220 → 0.0253 (Simplified) and 0.0132 → 0.0148 (Traditional), the halves masked on the whole page or
 * binarised locally (Sauvola) alike, where English read in halves went 0.0088 → 0.0068 and Japanese stayed
 * at 0.0147.
 */
const WHOLE = new Set(['chi_sim', 'chi_tra']);

async function recognizeWith(page: PageInput, langs: string[]): Promise<Recognition> {
  const { engine, grey, cuts, signal, hints } = page;
  if (!grey || !cuts || cuts.length === 0 || hints.rotate || langs.some((l) => WHOLE.has(l)))
    return summarise(await engine.recognize(page.image, langs, signal, hints), langs);
  const bounds = [0, ...cuts, grey.height];
  const parts = await Promise.all(
    bounds.slice(1).map(async (end, i) => {
      const top = bounds[i] as number;
      const read = await engine.recognize(greyToPgm(piece(grey, top, end)), langs, signal, hints);
      return linesOnPage(read.lines, top);
    }),
  );
  return summarise({ width: grey.width, height: grey.height, lines: parts.flat() }, langs);
}

/** One pass; undefined when the language data is not installed. */
async function pass(page: PageInput, langs: string[]): Promise<Recognition | undefined> {
  try {
    return await recognizeWith(page, langs);
  } catch (err) {
    if (err instanceof PinpointError && err.code === 'PP_DEPENDENCY_MISSING') return undefined;
    throw err;
  }
}

/** A later pass replaces the current one only when it is clearly surer. */
function better(current: Recognition | undefined, next: Recognition | undefined): Recognition | undefined {
  if (!current) return next;
  return next && next.confidence > current.confidence + 5 ? next : current;
}

/** Traditional is kept when its own characters are clearly surer than Simplified's own (script.ts). */
function traditionalSurer(sim: Recognition, tra: Recognition): boolean {
  return formConfidence(tra.lines, 'traditional') >= formConfidence(sim.lines, 'simplified') + TRADITIONAL_MARGIN;
}

/**
 * Simplified or Traditional: both models read the page's most inked band (a quarter of it), then the whole
 * page is read with the one chosen — 1.5 passes where reading the page both ways took 2 — a Simplified one by
 * PP-OCRv4 where it can read it (simplifiedReader). A page with two cores to itself (a single-page scan) that
 * PP-OCR cannot read is read both ways whole at once instead: 2 passes of CPU in the time of one, where the
 * band and then the page take 1.25. A page read turned (its band is not cut from the turned image), whose
 * pixels are not decoded, or whose band is Latin text or holds no word of either form's own, is read both
 * ways whole.
 */
async function readChinese(page: PageInput): Promise<Recognition | undefined> {
  const reader = simplifiedReader(page);
  // with two cores for the page, both whole readings take the time of one (a page PP-OCR may read is sampled
  // on its band, so that a Simplified page is read once, by it)
  if (!page.grey || page.hints.rotate || (!reader && (page.cores ?? 1) >= 2)) return readChineseWhole(page);
  const band = { ...page, image: inkedBand(page.grey, FORM_SAMPLE).image, grey: undefined, cuts: [] };
  const [sim, tra] = await Promise.all([pass(band, ['chi_sim']), pass(band, ['chi_tra'])]);
  if (!sim || !tra) return sim ? pass(page, ['chi_sim']) : tra ? pass(page, ['chi_tra']) : undefined;
  // a band of Latin text (a page in two scripts) or without a word of either form's own cannot choose for the
  // page: it is read both ways whole
  const evidence = formWords(sim.lines, 'simplified').count + formWords(tra.lines, 'traditional').count;
  if (evidence === 0 || scriptShares(sim.lines).latinWords >= MIXED_LATIN_WORDS) return readChineseWhole(page);
  if (traditionalSurer(sim, tra)) return pass(page, ['chi_tra']);
  return reader ? readSimplified(page, reader) : pass(page, ['chi_sim']);
}

/**
 * The engine's reader of Simplified Chinese (PP-OCRv4), for a page it can read in order: upright, decoded, and
 * without columns or tables (it reads line by line, with no layout analysis to order columns).
 */
function simplifiedReader(page: PageInput): OcrPageReader | undefined {
  const reader = page.engine.simplifiedChinese;
  if (!reader || !page.grey || page.hints.rotate || hasColumns(page.grey)) return undefined;
  return reader;
}

/** A Simplified page read by the engine's reader for it; tesseract's chi_sim when its models are missing. */
async function readSimplified(page: PageInput, reader: OcrPageReader): Promise<Recognition | undefined> {
  try {
    const read = await reader.read(page.grey as GreyPage, page.signal);
    return { ...summarise(read, ['chi_sim']), engine: reader.id };
  } catch (err) {
    if (err instanceof PinpointError && err.code === 'PP_DEPENDENCY_MISSING') return pass(page, ['chi_sim']);
    throw err;
  }
}

/** Simplified and Traditional read at once, the whole page each. */
async function readChineseWhole(page: PageInput): Promise<Recognition | undefined> {
  const [sim, tra] = await Promise.all([pass(page, ['chi_sim']), pass(page, ['chi_tra'])]);
  if (!sim || !tra) return sim ?? tra;
  return traditionalSurer(sim, tra) ? tra : sim;
}

/** Horizontal Japanese, and vertical when horizontal reading is unsure. */
async function readJapanese(page: PageInput): Promise<Recognition | undefined> {
  const horizontal = await pass(page, ['jpn']);
  if (horizontal && horizontal.confidence >= GOOD_ENOUGH) return horizontal;
  return better(horizontal, await pass(page, ['jpn_vert']));
}

const readers: Readonly<Record<'Latin' | 'Han' | 'Japanese', (page: PageInput) => Promise<Recognition | undefined>>> = {
  Latin: (page) => pass(page, ['eng']),
  Han: readChinese,
  Japanese: readJapanese,
};

function familyOf(script: string | undefined): keyof typeof readers {
  return script === 'Han' || script === 'Japanese' ? script : 'Latin';
}

/**
 * The other scripts to try when the detected one reads unsurely, nearest first: the detection confuses Han
 * and Japanese far more often than either with Latin, so a CJK page tries the other CJK model before English.
 */
function fallbacks(first: keyof typeof readers): Array<keyof typeof readers> {
  if (first === 'Han') return ['Japanese', 'Latin'];
  if (first === 'Japanese') return ['Han', 'Latin'];
  return ['Han', 'Japanese'];
}

/** A CJK page with many Latin words is read again with English added; kept when surer. */
async function withLatin(page: PageInput, best: Recognition): Promise<Recognition> {
  // PP-OCR reads Latin letters itself, and its confidences are not tesseract's to compare
  if (best.engine || best.langs.includes('eng') || scriptShares(best.lines).latinWords < MIXED_LATIN_WORDS) return best;
  const mixed = await pass(page, [...best.langs, 'eng']);
  return mixed && mixed.confidence > best.confidence ? mixed : best;
}

/**
 * Script detection with the English pass already running beside it: most pages are Latin, and their reading
 * then does not wait for the detection. The English pass is stopped as soon as the page is seen to be CJK.
 */
async function detectWhileReadingLatin(
  page: PageInput,
): Promise<{ detected: OcrScript | undefined; latin: Promise<Recognition | undefined> }> {
  const speculative = new AbortController();
  const signal = page.signal ? AbortSignal.any([page.signal, speculative.signal]) : speculative.signal;
  const latin = pass({ ...page, signal }, ['eng']).catch((err: unknown) => {
    if (speculative.signal.aborted && !page.signal?.aborted) return undefined;
    throw err;
  });
  let detected: OcrScript | undefined;
  try {
    detected = await page.engine.detectScript?.(page.image, page.signal, page.hints);
  } catch (err) {
    speculative.abort();
    await latin.catch(() => undefined);
    throw err;
  }
  // a CJK page, or a turned one (read again upright), has no use for the pass
  if (familyOf(detected?.script) !== 'Latin' || detected?.rotate) {
    speculative.abort();
    await latin;
    return { detected, latin: Promise.resolve(undefined) };
  }
  return { detected, latin };
}

/**
 * OCR with the given languages, or — when none are given — with the model of the page's script: the engine's
 * script detection picks Latin (eng), Han (chi_sim or chi_tra, chosen on a band of the page) or Japanese (jpn, jpn_vert);
 * when that pass is unsure, the other scripts' models are tried and the surest pass kept; a CJK page with many
 * Latin words is read with English added. A pass whose language data is missing is skipped. A page skewed by
 * a degree or two (a scan) is straightened first (deskew.ts) and its boxes mapped back to the page as given.
 */
export async function recognizeImage(
  engine: OcrEngine,
  image: Uint8Array,
  langs: readonly string[] | undefined,
  signal?: AbortSignal,
  hints: OcrImageHints = {},
  options: RecognizeOptions = {},
): Promise<Recognition> {
  const level = levelled(image, MAX_PIXELS);
  const cores = Math.max(1, options.pieces ?? 1);
  const cuts = level.grey ? pageCuts(level.grey, cores) : [];
  const read = await recognizeLevel({ engine, image: level.image, hints, signal, grey: level.grey, cuts, cores }, langs);
  if (level.deg === 0) return read;
  return { ...read, lines: linesUnskewed(read.lines, level.deg, read.width, read.height), skew: level.deg };
}

/** recognizeImage on a page whose lines are level. */
async function recognizeLevel(page: PageInput, langs: readonly string[] | undefined): Promise<Recognition> {
  const { hints } = page;
  if (langs && langs.length > 0) return recognizeWith(page, [...langs]);
  const { detected, latin } = await detectWhileReadingLatin(page);
  const upright = detected?.rotate ? { ...page, hints: { ...hints, rotate: detected.rotate } } : page;
  const first = familyOf(detected?.script);
  let best = (await latin) ?? (await readers[first](upright));
  for (const family of fallbacks(first)) {
    if (best && (best.words === 0 || best.confidence >= GOOD_ENOUGH)) break;
    best = better(best, await readers[family](upright));
  }
  best ??= await recognizeWith(upright, ['eng']);
  best = await withLatin(upright, best);
  return detected ? { ...best, script: detected.script } : best;
}

/** The quality gate: a diagnostic when the page's words are unsure or there are very few of them. */
export function qualityDiagnostics(r: Recognition, pageIndex: number): Diagnostic[] {
  const out: Diagnostic[] = [];
  if (r.words > 0 && r.confidence < LOW_CONFIDENCE) {
    out.push({
      rule_id: 'ocr/low-confidence',
      reason: `OCR mean word confidence ${r.confidence.toFixed(0)} (< ${LOW_CONFIDENCE}) with ${r.langs.join('+')}; the text may be wrong.`,
      severity: 'warning',
      page_index: pageIndex,
    });
  }
  const chars = r.lines.reduce((n, l) => n + l.text.length, 0);
  const megapixels = (r.width * r.height) / 1e6;
  if (r.words > 0 && megapixels > 0.5 && chars / megapixels < 20) {
    out.push({
      rule_id: 'ocr/sparse-text',
      reason: `Only ${chars} characters were recognised on the page.`,
      severity: 'info',
      page_index: pageIndex,
    });
  }
  return out;
}
