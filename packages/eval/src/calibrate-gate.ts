import type { CalibratedFold, CalibratedSet, GateFile } from '@pinpoint/core';
import { GATE_FILE_SCHEMA } from '@pinpoint/core';
import type { LabelledFeatures } from './calibrate.js';
import { fitGate, scoreOf } from './calibrate.js';

type Family = 'cjk' | 'latin';
type GateModel = GateFile['models'][Family];

/** One dataset's eval run: every question with its text and the gate's features. */
export interface CalibrationInput {
  dataset: { path: string; sha256: string };
  questions: { question: string; answerable: boolean; gate?: { features: Record<string, number> } }[];
  /** Balanced accuracy of the naive best-score threshold on the same run (metrics.naive_refusal). */
  naive?: number;
}

export interface CalibrateOptions {
  /** The gate's family of a question (answering's gateFamily). */
  familyOf(question: string): Family;
  /** The models in force: their features name the weights, and a family without data keeps its model. */
  current: { cjk: GateModel; latin: GateModel };
  /** Features that count as evidence (weight >= 0); the rest count against an answer (weight <= 0). */
  positive: string[];
  minAnswered: number;
  /** A dataset's own share in place of `minAnswered` (by path), e.g. a set of long analyst questions. */
  minAnsweredBySet?: Record<string, number>;
  /** The feature of the off-topic floor (each model's minCoverage). */
  floorFeature: string;

  run: { mode: string; embedder: string | null; reranker: string | null };
  now?: Date;
  /** Gradient steps of each fit (fewer for quick tests). */
  iterations?: number;
  /** Rounds of coordinate steps on the fitted weights towards the best mean balanced accuracy (fitGate). */
  refineRounds?: number;
  /**
   * Balanced accuracy each dataset (by path) keeps when the fit can (fitGate's floors). A set with
   * a naive figure also keeps NAIVE_MARGIN above it: a gate that a single score threshold beats
   * is no gate.
   */
  floors?: Record<string, number>;
}

const answered = (m: GateModel, features: Record<string, number>, floorFeature: string): boolean =>
  scoreOf({ features }, m.weights, m.bias) >= m.threshold && (features[floorFeature] ?? 0) >= m.minCoverage;

/** A set belongs to the family most of its questions are judged by. */
function familyOfSet(input: CalibrationInput, familyOf: (q: string) => Family): Family {
  const cjk = input.questions.filter((q) => familyOf(q.question) === 'cjk').length;
  return cjk * 2 > input.questions.length ? 'cjk' : 'latin';
}

/**
 * The questions the extractive gate judged: a table answer carries the table reader's features
 * (no `floorFeature`), which are no evidence for or against this gate's weights.
 */
const judgedBy =
  (floorFeature: string) =>
  (q: CalibrationInput['questions'][number]): boolean =>
    q.gate !== undefined && floorFeature in q.gate.features;

function labelled(inputs: CalibrationInput[], names: string[], floorFeature: string): LabelledFeatures[] {
  return inputs.flatMap((input) =>
    input.questions.filter(judgedBy(floorFeature)).map((q) => ({
      answerable: q.answerable,
      set: input.dataset.path,
      features: Object.fromEntries(names.map((k) => [k, q.gate?.features[k] ?? 0])),
    })),
  );
}

/** What a model does on one set: answered (answerable recall), refused (refusal recall), balanced. */
function judge(input: CalibrationInput, model: GateModel, floorFeature: string) {
  const judged = input.questions.filter(judgedBy(floorFeature));
  const pos = judged.filter((q) => q.answerable);
  const neg = judged.filter((q) => !q.answerable);
  const ar = pos.filter((q) => answered(model, q.gate?.features ?? {}, floorFeature)).length / (pos.length || 1);
  const rr = neg.filter((q) => !answered(model, q.gate?.features ?? {}, floorFeature)).length / (neg.length || 1);
  return { questions: judged.length, answerable_recall: ar, refusal_recall: rr, balanced_accuracy: (ar + rr) / 2 };
}

/** The model's score of a question, -1 when the off-topic floor refuses it whatever the score. */
const scored = (m: GateModel, features: Record<string, number>, floorFeature: string): number =>
  (features[floorFeature] ?? 0) < m.minCoverage ? -1 : scoreOf({ features }, m.weights, m.bias);

/**
 * Whether a fold is short by its ranking or by its threshold: the AUC of the model's score on the
 * held-out set (answerable = positive, ties counting half), and the balanced accuracy the same
 * scores would reach at the set's own best threshold that keeps `minAnswered` of its answerable
 * questions answered — what a threshold that followed the collection could give at best.
 */
function foldDiagnosis(input: CalibrationInput, model: GateModel, o: CalibrateOptions) {
  const judged = input.questions.filter(judgedBy(o.floorFeature));
  const pos = judged.filter((q) => q.answerable).map((q) => scored(model, q.gate?.features ?? {}, o.floorFeature));
  const neg = judged.filter((q) => !q.answerable).map((q) => scored(model, q.gate?.features ?? {}, o.floorFeature));
  if (pos.length === 0 || neg.length === 0) return {};
  let wins = 0;
  for (const p of pos) for (const n of neg) wins += p > n ? 1 : p === n ? 0.5 : 0;
  let own = 0;
  for (const t of [...new Set(pos)].filter((t) => t >= 0)) {
    const ar = pos.filter((s) => s >= t).length / pos.length;
    if (ar < (o.minAnsweredBySet?.[input.dataset.path] ?? o.minAnswered)) continue;
    own = Math.max(own, (ar + neg.filter((s) => s < t).length / neg.length) / 2);
  }
  return { score_auc: wins / (pos.length * neg.length), own_threshold_balanced_accuracy: own };
}

/** How far above its naive threshold each set's balanced accuracy is held (a floor of the fit). */
const NAIVE_MARGIN = 0.005;

function floorsOf(inputs: CalibrationInput[], given: Record<string, number>): Record<string, number> {
  return Object.fromEntries(
    inputs.map((i) => [i.dataset.path, Math.max(given[i.dataset.path] ?? 0, i.naive === undefined ? 0 : i.naive + NAIVE_MARGIN)]),
  );
}

function fitModel(inputs: CalibrationInput[], current: GateModel, o: CalibrateOptions): GateModel | null {
  const names = Object.keys(current.weights);
  const data = labelled(inputs, names, o.floorFeature);
  if (!data.some((d) => d.answerable) || data.every((d) => d.answerable)) return null;
  const fit = fitGate(data, {
    positive: o.positive,
    minAnswered: o.minAnswered,
    ...(o.minAnsweredBySet ? { minAnsweredBySet: o.minAnsweredBySet } : {}),
    floor: { feature: o.floorFeature, min: current.minCoverage },
    ...(o.iterations ? { iterations: o.iterations } : {}),
    ...(o.refineRounds ? { refineRounds: o.refineRounds } : {}),
    floors: floorsOf(inputs, o.floors ?? {}),
  });
  const round = (x: number) => Math.round(x * 1000) / 1000;
  const weights = Object.fromEntries(names.map((k) => [k, round(fit.weights[k] ?? 0)]));
  const bias = round(fit.bias);
  return { weights, bias, threshold: Math.floor(fit.threshold * 10000) / 10000, minCoverage: current.minCoverage };
}

/**
 * Fits the refusal gate on eval runs of one retrieval mode: a monotone logistic model per script
 * family over the questions of that family's datasets (each set weighing the same), with the
 * threshold of best mean balanced accuracy that keeps every dataset at `minAnswered` (or its own
 * share in `minAnsweredBySet`) of its answerable questions answered, less a penalty for each set below its floor (`floors`, and at
 * least NAIVE_MARGIN above the set's naive threshold). Each set is also left out in turn (a fold): the model fitted
 * without it is judged on it, which is how the gate fares on a collection it has never seen.
 * A family with a single set is judged in its fold by a model fitted on the other family's sets.
 */
export function calibrateGate(inputs: CalibrationInput[], o: CalibrateOptions): GateFile {
  const models = { ...o.current };
  const family = new Map(inputs.map((i) => [i.dataset.path, familyOfSet(i, o.familyOf)]));
  const ofFamily = (f: Family, list = inputs) => list.filter((i) => family.get(i.dataset.path) === f);
  for (const f of ['cjk', 'latin'] as const) {
    const fitted = fitModel(ofFamily(f), o.current[f], o);
    if (fitted) models[f] = fitted;
  }
  const datasets: CalibratedSet[] = inputs.map((input) => {
    const f = family.get(input.dataset.path) ?? 'latin';
    return { path: input.dataset.path, sha256: input.dataset.sha256, family: f, ...judge(input, models[f], o.floorFeature) };
  });
  const folds: CalibratedFold[] = inputs.map((input) => {
    const f = family.get(input.dataset.path) ?? 'latin';
    const rest = inputs.filter((i) => i !== input);
    const same = ofFamily(f, rest);
    const model = fitModel(same.length > 0 ? same : rest, o.current[f], o) ?? models[f];
    return {
      held_out: input.dataset.path,
      family: f,
      trained_on: (same.length > 0 ? same : rest).map((i) => i.dataset.path),
      ...judge(input, model, o.floorFeature),
      ...foldDiagnosis(input, model, o),
      ...(input.naive !== undefined ? { naive_balanced_accuracy: input.naive } : {}),
    };
  });
  return {
    schema: GATE_FILE_SCHEMA,
    created_at: (o.now ?? new Date()).toISOString(),
    ...o.run,
    min_answered: o.minAnswered,
    ...(o.minAnsweredBySet && Object.keys(o.minAnsweredBySet).length > 0 ? { min_answered_sets: o.minAnsweredBySet } : {}),
    datasets,
    folds,
    models,
  };
}
