import type { Diagnostic, OcrEngine, OcrLine } from '@pinpoint/core';
import { PinpointError } from '@pinpoint/core';

export interface Recognition {
  width: number;
  height: number;
  lines: OcrLine[];
  /** Languages of the pass that was kept, e.g. ['jpn_vert']. */
  langs: string[];
  /** Mean word confidence 0..100 (0 when no words). */
  confidence: number;
  words: number;
}

/** Below this mean word confidence an English pass is retried with the CJK models. */
const GOOD_ENOUGH = 75;
/** Below this a page is flagged 'ocr/low-confidence'. */
const LOW_CONFIDENCE = 60;
const CJK_PASSES: string[][] = [['chi_sim'], ['jpn'], ['jpn_vert'], ['chi_tra']];

function summarise(result: { width: number; height: number; lines: OcrLine[] }, langs: string[]): Recognition {
  const words = result.lines.flatMap((l) => l.words);
  const confidence = words.length > 0 ? words.reduce((s, w) => s + w.confidence, 0) / words.length : 0;
  return { ...result, langs, confidence, words: words.length };
}

/** A later (CJK) pass replaces the current one only when it is clearly surer. */
function better(current: Recognition, next: Recognition): Recognition {
  return next.confidence > current.confidence + 5 ? next : current;
}

/**
 * OCR with the given languages, or — when none are given — English first and, if its words are
 * unsure, each CJK model (Japanese horizontal/vertical, Simplified, Traditional Chinese), keeping
 * the pass with the highest mean word confidence. A pass whose language data is missing is skipped.
 */
export async function recognizeImage(
  engine: OcrEngine,
  image: Uint8Array,
  langs: readonly string[] | undefined,
  signal?: AbortSignal,
): Promise<Recognition> {
  if (langs && langs.length > 0) return summarise(await engine.recognize(image, [...langs], signal), [...langs]);
  let best = summarise(await engine.recognize(image, ['eng'], signal), ['eng']);
  if (best.words === 0 || best.confidence >= GOOD_ENOUGH) return best;
  for (const pass of CJK_PASSES) {
    if (best.confidence >= GOOD_ENOUGH) break;
    try {
      best = better(best, summarise(await engine.recognize(image, pass, signal), pass));
    } catch (err) {
      if (!(err instanceof PinpointError && err.code === 'PP_DEPENDENCY_MISSING')) throw err;
    }
  }
  return best;
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
