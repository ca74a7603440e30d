/**
 * Gate calibration: a logistic regression over evidence features, with sign constraints that
 * keep the model monotone (more evidence never lowers the score), and the threshold that gives
 * the best balanced accuracy while answering at least `minAnswered` of answerable questions.
 */
export interface LabelledFeatures {
  answerable: boolean;
  features: Record<string, number>;
  /** The dataset the question comes from: each set must keep `minAnswered` on its own. */
  set?: string;
}

export interface FittedGate {
  weights: Record<string, number>;
  bias: number;
  threshold: number;
  balanced_accuracy: number;
  answerable_recall: number;
  refusal_recall: number;
}

export interface FitOptions {
  /** Features whose weight must be >= 0; every other feature's weight is held <= 0. */
  positive: string[];
  minAnswered?: number;
  l2?: number;
  iterations?: number;
  learningRate?: number;
  /** Refused whatever the score when this feature is below `min` (the gate's off-topic floor). */
  floor?: { feature: string; min: number };
}

const sigmoid = (z: number): number => 1 / (1 + Math.exp(-z));

export function scoreOf(x: Pick<LabelledFeatures, 'features'>, w: Record<string, number>, b: number): number {
  let z = b;
  for (const [k, v] of Object.entries(w)) z += v * (x.features[k] ?? 0);
  return sigmoid(z);
}

function gradientStep(
  data: LabelledFeatures[],
  keys: string[],
  w: Record<string, number>,
  b: number,
  o: Required<FitOptions>,
): number {
  const grad: Record<string, number> = Object.fromEntries(keys.map((k) => [k, 0]));
  let gb = 0;
  for (const x of data) {
    const err = scoreOf(x, w, b) - (x.answerable ? 1 : 0);
    for (const k of keys) grad[k] = (grad[k] ?? 0) + err * (x.features[k] ?? 0);
    gb += err;
  }
  const positive = new Set(o.positive);
  for (const k of keys) {
    const next = (w[k] ?? 0) - o.learningRate * ((grad[k] ?? 0) / data.length + o.l2 * (w[k] ?? 0));
    w[k] = positive.has(k) ? Math.max(0, next) : Math.min(0, next);
  }
  return b - (o.learningRate * gb) / data.length;
}

function bestThreshold(
  data: LabelledFeatures[],
  w: Record<string, number>,
  b: number,
  o: Required<FitOptions>,
): Omit<FittedGate, 'weights' | 'bias'> {
  const floored = (x: LabelledFeatures): boolean => o.floor.feature !== '' && (x.features[o.floor.feature] ?? 0) < o.floor.min;
  const scored = data.map((x) => ({ a: x.answerable, set: x.set ?? '', s: floored(x) ? -1 : scoreOf(x, w, b) }));
  const sets = [...new Set(scored.map((x) => x.set))];
  const nA = scored.filter((x) => x.a).length || 1;
  const nU = scored.filter((x) => !x.a).length || 1;
  const answeredOf = (set: string, t: number): number => {
    const mine = scored.filter((x) => x.a && x.set === set);
    return mine.length === 0 ? 1 : mine.filter((x) => x.s >= t).length / mine.length;
  };
  let best = { threshold: 0, balanced_accuracy: 0, answerable_recall: 1, refusal_recall: 0 };
  for (const t of [...new Set(scored.map((x) => x.s).filter((s) => s >= 0))].sort((p, q) => p - q)) {
    if (sets.some((set) => answeredOf(set, t) < o.minAnswered)) break;
    const ar = scored.filter((x) => x.a && x.s >= t).length / nA;
    const rr = scored.filter((x) => !x.a && x.s < t).length / nU;
    if ((ar + rr) / 2 > best.balanced_accuracy)
      best = { threshold: t, balanced_accuracy: (ar + rr) / 2, answerable_recall: ar, refusal_recall: rr };
  }
  return best;
}

export function fitGate(data: LabelledFeatures[], options: FitOptions): FittedGate {
  const o: Required<FitOptions> = {
    minAnswered: 0.92,
    l2: 0.001,
    iterations: 20000,
    learningRate: 2,
    floor: { feature: '', min: 0 },
    ...options,
  };
  const keys = [...new Set(data.flatMap((x) => Object.keys(x.features)))];
  const weights: Record<string, number> = Object.fromEntries(keys.map((k) => [k, 0]));
  let bias = 0;
  for (let i = 0; i < o.iterations; i++) bias = gradientStep(data, keys, weights, bias, o);
  return { weights, bias, ...bestThreshold(data, weights, bias, o) };
}
