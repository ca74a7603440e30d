import type { CalibratedSet, GateFile } from '@pinpoint/core';
import { GATE_FILE_SCHEMA } from '@pinpoint/core';
import type { LabelledFeatures } from './calibrate.js';
import { fitGate, scoreOf } from './calibrate.js';

type Family = 'cjk' | 'latin';
type GateModel = GateFile['models'][Family];

/** One dataset's eval run: every question with its text and the gate's features. */
export interface CalibrationInput {
  dataset: { path: string; sha256: string };
  questions: { question: string; answerable: boolean; gate?: { features: Record<string, number> } }[];
}

export interface CalibrateOptions {
  /** The gate's family of a question (answering's gateFamily). */
  familyOf(question: string): Family;
  /** The models in force: their features name the weights, and a family without data keeps its model. */
  current: { cjk: GateModel; latin: GateModel };
  /** Features that count as evidence (weight >= 0); the rest count against an answer (weight <= 0). */
  positive: string[];
  minAnswered: number;
  /** The feature of the off-topic floor (each model's minCoverage). */
  floorFeature: string;
  run: { mode: string; embedder: string | null; reranker: string | null };
  now?: Date;
}

const answered = (m: GateModel, features: Record<string, number>, floorFeature: string): boolean =>
  scoreOf({ features }, m.weights, m.bias) >= m.threshold && (features[floorFeature] ?? 0) >= m.minCoverage;

/**
 * Fits the refusal gate on eval runs of one retrieval mode: a monotone logistic model per script
 * family over the pooled questions of that family's datasets, with the threshold that gives the best
 * balanced accuracy while every dataset keeps `minAnswered` of its answerable questions answered.
 */
export function calibrateGate(inputs: CalibrationInput[], o: CalibrateOptions): GateFile {
  const models = { ...o.current };
  const familyOfSet = new Map<string, Family>();
  for (const family of ['cjk', 'latin'] as const) {
    const data: LabelledFeatures[] = [];
    for (const input of inputs) {
      for (const q of input.questions) {
        if (!q.gate || o.familyOf(q.question) !== family) continue;
        data.push({ answerable: q.answerable, set: input.dataset.path, features: q.gate.features });
        familyOfSet.set(input.dataset.path, family);
      }
    }
    if (data.length === 0 || !data.some((d) => d.answerable) || data.every((d) => d.answerable)) continue;
    const names = Object.keys(o.current[family].weights);
    const fit = fitGate(
      data.map((d) => ({ ...d, features: Object.fromEntries(names.map((k) => [k, d.features[k] ?? 0])) })),
      {
        positive: o.positive,
        minAnswered: o.minAnswered,
        floor: { feature: o.floorFeature, min: o.current[family].minCoverage },
      },
    );
    const round = (x: number) => Math.round(x * 1000) / 1000;
    models[family] = {
      weights: Object.fromEntries(names.map((k) => [k, round(fit.weights[k] ?? 0)])),
      bias: round(fit.bias),
      threshold: Math.floor(fit.threshold * 10000) / 10000,
      minCoverage: o.current[family].minCoverage,
    };
  }
  const datasets: CalibratedSet[] = inputs.map((input) => {
    const family = familyOfSet.get(input.dataset.path) ?? 'latin';
    const judged = input.questions.filter((q) => q.gate);
    const model = models[family];
    const pos = judged.filter((q) => q.answerable);
    const neg = judged.filter((q) => !q.answerable);
    const ar = pos.filter((q) => answered(model, q.gate?.features ?? {}, o.floorFeature)).length / (pos.length || 1);
    const rr = neg.filter((q) => !answered(model, q.gate?.features ?? {}, o.floorFeature)).length / (neg.length || 1);
    return {
      path: input.dataset.path,
      sha256: input.dataset.sha256,
      family,
      questions: judged.length,
      answerable_recall: ar,
      refusal_recall: rr,
      balanced_accuracy: (ar + rr) / 2,
    };
  });
  return {
    schema: GATE_FILE_SCHEMA,
    created_at: (o.now ?? new Date()).toISOString(),
    ...o.run,
    min_answered: o.minAnswered,
    datasets,
    models,
  };
}
