import { z } from 'zod';

/**
 * A calibrated refusal gate as written by `pinpoint calibrate` and read at start-up
 * (PINPOINT_GATE_FILE): the logistic model per script family, and the run that fitted it — which
 * retrieval mode and models produced the features, on which datasets, with what result.
 */
export const GATE_FILE_SCHEMA = 'pinpoint.gate/1';

const gateModelSchema = z.object({
  weights: z.record(z.string(), z.number()),
  bias: z.number(),
  threshold: z.number().min(0).max(1),
  minCoverage: z.number().min(0).max(1),
});

const calibratedSetSchema = z.object({
  path: z.string(),
  sha256: z.string(),
  family: z.enum(['cjk', 'latin']),
  questions: z.number().int().nonnegative(),
  answerable_recall: z.number(),
  refusal_recall: z.number(),
  balanced_accuracy: z.number(),
});

/** One leave-one-set-out fold: the set left out, and what the model fitted without it does on it. */
const calibratedFoldSchema = z.object({
  held_out: z.string(),
  family: z.enum(['cjk', 'latin']),
  trained_on: z.array(z.string()),
  questions: z.number().int().nonnegative(),
  answerable_recall: z.number(),
  refusal_recall: z.number(),
  balanced_accuracy: z.number(),
  /** The naive best-score threshold's balanced accuracy on the same run, for comparison. */
  naive_balanced_accuracy: z.number().optional(),
  /** AUC of the fold model's score on the held-out set (answerable = positive): its ranking alone. */
  score_auc: z.number().optional(),
  /**
   * Balanced accuracy of the same scores at the held-out set's own best threshold that keeps
   * min_answered answered: far above balanced_accuracy, the fold is short by its threshold.
   */
  own_threshold_balanced_accuracy: z.number().optional(),
});

export const gateFileSchema = z.object({
  schema: z.literal(GATE_FILE_SCHEMA),
  created_at: z.string(),
  /** Retrieval mode of the calibration run (lexical, dense, hybrid, hybrid+rerank). */
  mode: z.string(),
  embedder: z.string().nullable(),
  reranker: z.string().nullable(),
  /** Each dataset keeps at least this share of its answerable questions answered. */
  min_answered: z.number().min(0).max(1),
  /** Datasets (by path) held to their own share instead of min_answered. */
  min_answered_sets: z.record(z.string(), z.number().min(0).max(1)).optional(),
  datasets: z.array(calibratedSetSchema),
  /** Leave-one-set-out folds (absent in files written before folds were recorded). */
  folds: z.array(calibratedFoldSchema).optional(),
  models: z.object({ cjk: gateModelSchema, latin: gateModelSchema }),
});
export type GateFile = z.infer<typeof gateFileSchema>;
export type CalibratedSet = z.infer<typeof calibratedSetSchema>;
export type CalibratedFold = z.infer<typeof calibratedFoldSchema>;
