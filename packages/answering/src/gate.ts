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
}

export interface GateConfig {
  /** Logistic weights per feature, plus a bias. */
  weights: Record<keyof GateFeatures, number>;
  bias: number;
  /** Refuse when the gate score is below this (per script; 'latin' covers everything else). */
  thresholds: { cjk: number; latin: number };
  /** Chunks of the ranked list the answer may quote from. */
  maxChunks: number;
  /** Sentences in the extractive answer at most. */
  maxSentences: number;
}

export const DEFAULT_GATE: Readonly<GateConfig> = Object.freeze({
  weights: {
    cov_sentence: 2,
    cov_window: 3,
    cov_chunk: 1,
    missing_max: -2,
    top_norm: 0,
    margin: 0,
    type_ok: 1,
    negation_mismatch: -1,
    entity_missing: -1,
  },
  bias: -3,
  thresholds: { cjk: 0.5, latin: 0.5 },
  maxChunks: 5,
  maxSentences: 2,
});

export function gateScore(f: GateFeatures, config: GateConfig): number {
  let z = config.bias;
  for (const key of Object.keys(config.weights) as (keyof GateFeatures)[]) z += config.weights[key] * f[key];
  return 1 / (1 + Math.exp(-z));
}
