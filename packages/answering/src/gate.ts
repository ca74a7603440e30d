import { hasKana, isCjkCodepoint } from '@pinpoint/analysis';

/**
 * The refusal gate: a logistic score over evidence features, compared with a threshold.
 * Weights and thresholds come from the calibration run recorded in ../README.md.
 */
export interface GateFeatures {
  /** IDF-weighted query coverage of the best sentence. */
  cov_sentence: number;
  /** Same over the best three-sentence window. */
  cov_window: number;
  /** Same over the whole top chunk. */
  cov_chunk: number;
  /** Weight of the heaviest query term missing from the best window, over the heaviest query term. */
  missing_max: number;
  /** Top lexical score over the query's total term weight. */
  top_norm: number;
  /** (top − second) / top of the lexical scores. */
  margin: number;
  /** 1 when the question's expected answer type (e.g. a number) appears in the best window, or none is expected. */
  type_ok: number;
  /** The question negates (not, never, …) and the best window does not. */
  negation_mismatch: number;
  /** Share of the question's names and numbers (capitalised words, digits) missing from the best window. */
  entity_missing: number;
  /** Share of the best sentence's terms the question does not hold: high when it is about something else. */
  novel: number;
  /** Coverage in the best window of the rare query terms (weight >= half the heaviest). */
  cov_rare: number;
  /**
   * Longest run of the question's words (CJK: characters) found in the same order in the best
   * sentence, over the question's length. A question copied from the text with one word changed —
   * how unanswerable questions are written to look answerable — scores high.
   */
  verbatim: number;
  /** Share of the question's weight the collection holds at all (an unseen term weighs as the rarest seen one). */
  known: number;
  /** Share of the question's whole weight (unseen terms included) found in the best window. */
  cov_all: number;
  /** (top − mean of the other ranked scores) / top: how far the best chunk stands out. */
  top_gap: number;
  /** Weight of the heaviest query term missing from the best sentence, over the heaviest query term. */
  missing_sentence: number;
  /** Share of the question's names and numbers missing from the best sentence. */
  entity_missing_sentence: number;
  /** Share of the question's adjacent word pairs that the collection holds (1 without pairs). */
  pairs_known: number;
  /** Share of the question's adjacent word pairs found in the best window (1 without pairs). */
  pairs_window: number;
  /**
   * Top lexical score over the question's whole weight, unseen terms included at the rarest seen
   * term's weight: top_norm that an off-topic question cannot inflate by missing most of its words.
   */
  top_all: number;
  /** Share of the question's whole weight (unseen terms included) found in the best sentence. */
  cov_all_sentence: number;
  /** The question negates (not, never, …) and the best sentence does not. */
  negation_sentence: number;
  /**
   * `known` over the question's dictionary words (CJK words, Latin stems) rather than its character
   * bigrams: a bigram across a word boundary (時怎, 做才) is often unseen in a collection that
   * holds every word of the question, an unseen name never is.
   */
  known_words: number;
  /**
   * How much of what the top chunk holds of the question one sentence holds (cov_sentence over
   * cov_chunk): an answer is stated in one place, a question stitched from several is not.
   */
  align: number;
  /** 1 when the question's rarest term (highest IDF) is in the best sentence. */
  rare_sentence: number;
  /** 1 when the best sentence holds a value of the asked-for kind (number, date, name, place) the question does not, or none is asked for. */
  type_sentence: number;
  /** The question holds a word whose opposite (more/less, first/last, before/after …) the best sentence holds instead. */
  antonym_sentence: number;
  /** Share of the question's names and numbers found in none of the retrieved chunks' sentences. */
  entity_absent: number;
  /** The question holds a number (two digits or more) the best window lacks while it holds another. */
  number_mismatch: number;
}

/**
 * Features that count for an answer (calibrated weight >= 0); the others count against one
 * (weight <= 0). Holding the signs keeps every model monotone in the evidence.
 */
export const EVIDENCE_FEATURES: readonly (keyof GateFeatures)[] = Object.freeze([
  'cov_sentence',
  'cov_window',
  'cov_chunk',
  'top_norm',
  'margin',
  'type_ok',
  'cov_rare',
  'known',
  'cov_all',
  'top_gap',
  'pairs_known',
  'pairs_window',
  'top_all',
  'cov_all_sentence',
  'known_words',
  'align',
  'rare_sentence',
  'type_sentence',
]);

/** One logistic model: weights per feature, a bias, and the score below which it refuses. */
export interface GateModel {
  weights: Record<keyof GateFeatures, number>;
  bias: number;
  threshold: number;
  /** Refuse whatever the score when the best window covers less of the query than this (off-topic questions). */
  minCoverage: number;
}

export interface GateConfig {
  /** Calibrated per script family: CJK questions (ja, zh) and Latin-script ones. */
  models: { cjk: GateModel; latin: GateModel };
  /** Chunks of the ranked list the answer may quote from. */
  maxChunks: number;
  /** Sentences in the extractive answer at most. */
  maxSentences: number;
}

/**
 * The lexical mode's gate, as `pinpoint calibrate` fitted it on every text set of ../shared/eval
 * and the Japanese and Chinese off-topic sets built from them (squad2-dev + squad-offtopic-dev for
 * latin; jsquad, jaquad, drcd, cmrc and their off-topic sets for cjk), each set weighing the same:
 * EVIDENCE_FEATURES held >= 0 and the rest <= 0 so the model stays monotone, then a few coordinate
 * rounds towards the best mean balanced accuracy at the threshold, less a penalty for a set below
 * its floor (the issues' floors, and every set above its naive threshold); thresholds keep
 * >= 0.91 of each set's answerable questions answered. The run's gate file, with its
 * leave-one-set-out folds, is calibration/lexical.json (a test keeps the two equal).
 */
export const DEFAULT_GATE: Readonly<GateConfig> = Object.freeze({
  models: {
    cjk: {
      weights: {
        cov_sentence: 0,
        cov_window: 0.018,
        cov_chunk: 0,
        missing_max: 0,
        top_norm: 0,
        margin: 1.062,
        type_ok: 1.053,
        negation_mismatch: 0,
        entity_missing: 0,
        novel: -2.413,
        cov_rare: 0,
        verbatim: -1,
        known: 0.786,
        cov_all: 1.275,
        top_gap: 2.082,
        missing_sentence: -0.25,
        entity_missing_sentence: 0,
        pairs_known: 0.672,
        pairs_window: 0,
        top_all: 1.68,
        cov_all_sentence: 1.157,
        negation_sentence: 0,
        known_words: 1.491,
        align: 0.164,
        rare_sentence: 0.112,
        type_sentence: 0.776,
        antonym_sentence: 0,
        entity_absent: 0,
        number_mismatch: 0,
      },
      bias: -7.24,
      threshold: 0.1562,
      minCoverage: 0.25,
    },
    latin: {
      weights: {
        cov_sentence: 0,
        cov_window: 0,
        cov_chunk: 0,
        missing_max: 0,
        top_norm: 1.39,
        margin: 0,
        type_ok: 1.385,
        negation_mismatch: -2.974,
        entity_missing: -0.806,
        novel: -1.664,
        cov_rare: 0,
        verbatim: -2.167,
        known: 2.236,
        cov_all: 0,
        top_gap: 0,
        missing_sentence: -0.285,
        entity_missing_sentence: -0.075,
        pairs_known: 2.028,
        pairs_window: 0.5,
        top_all: 1.326,
        cov_all_sentence: 0,
        negation_sentence: -2.949,
        known_words: 2.236,
        align: 0,
        rare_sentence: 0,
        type_sentence: 1.183,
        antonym_sentence: -1.621,
        entity_absent: -0.925,
        number_mismatch: -0.311,
      },
      bias: -4.864,
      threshold: 0.7858,
      minCoverage: 0.25,
    },
  },
  maxChunks: 5,
  maxSentences: 2,
});

/** Which of the gate's models judges a question: CJK (ja, zh) or Latin-script. */
export type GateFamily = keyof GateConfig['models'];

/**
 * By words, not characters: a Latin name or number inside a Chinese question (MonoDevelop, 1842)
 * leaves it Chinese, a Chinese word inside an English one leaves it English. A CJK word is about
 * two characters.
 */
export function gateFamily(question: string): GateFamily {
  const cjk = Array.from(question).filter((ch) => isCjkCodepoint(ch.codePointAt(0) ?? 0)).length;
  const words =
    question.match(/[\p{L}\p{N}]+/gu)?.filter((w) => !Array.from(w).some((ch) => isCjkCodepoint(ch.codePointAt(0) ?? 0)))
      .length ?? 0;
  return hasKana(question) || cjk > 2 * words ? 'cjk' : 'latin';
}

export function gateScore(f: GateFeatures, model: GateModel): number {
  let z = model.bias;
  for (const key of Object.keys(model.weights) as (keyof GateFeatures)[]) z += model.weights[key] * f[key];
  return 1 / (1 + Math.exp(-z));
}
