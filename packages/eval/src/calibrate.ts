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

const mean = (xs: number[]): number => xs.reduce((a, b) => a + b, 0) / (xs.length || 1);
const sigmoid = (z: number): number => 1 / (1 + Math.exp(-z));

export function scoreOf(x: Pick<LabelledFeatures, 'features'>, w: Record<string, number>, b: number): number {
  let z = b;
  for (const [k, v] of Object.entries(w)) z += v * (x.features[k] ?? 0);
  return sigmoid(z);
}

/**
 * Full-batch gradient descent on the logistic loss, each dataset weighing the same in total (a set
 * with more questions of a family does not pull the fit towards its own style), with the sign of
 * every weight held.
 */
function descend(data: LabelledFeatures[], keys: string[], o: Required<FitOptions>): { w: Float64Array; b: number } {
  const n = data.length;
  const x = data.map((d) => Float64Array.from(keys.map((k) => d.features[k] ?? 0)));
  const y = data.map((d) => (d.answerable ? 1 : 0));
  const perSet = new Map<string, number>();
  for (const d of data) perSet.set(d.set ?? '', (perSet.get(d.set ?? '') ?? 0) + 1);
  const share = data.map((d) => n / (perSet.size * (perSet.get(d.set ?? '') ?? 1)));
  const positive = keys.map((k) => o.positive.includes(k));
  const w = new Float64Array(keys.length);
  let b = 0;
  for (let it = 0; it < o.iterations; it++) {
    const g = new Float64Array(keys.length);
    let gb = 0;
    for (let i = 0; i < n; i++) {
      const xi = x[i] as Float64Array;
      let z = b;
      for (let k = 0; k < keys.length; k++) z += (w[k] as number) * (xi[k] as number);
      const err = (sigmoid(z) - (y[i] as number)) * (share[i] as number);
      for (let k = 0; k < keys.length; k++) g[k] = (g[k] as number) + err * (xi[k] as number);
      gb += err;
    }
    for (let k = 0; k < keys.length; k++) {
      const next = (w[k] as number) - o.learningRate * ((g[k] as number) / n + o.l2 * (w[k] as number));
      w[k] = positive[k] ? Math.max(0, next) : Math.min(0, next);
    }
    b -= (o.learningRate * gb) / n;
  }
  return { w, b };
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
  // Each set's balanced accuracy weighs the same: the threshold is not chosen for the largest set.
  const bySet = sets.map((set) => ({
    pos: scored.filter((x) => x.set === set && x.a).map((x) => x.s),
    neg: scored.filter((x) => x.set === set && !x.a).map((x) => x.s),
  }));
  let best = { threshold: 0, balanced_accuracy: 0, answerable_recall: 1, refusal_recall: 0 };
  for (const t of [...new Set(scored.map((x) => x.s).filter((s) => s >= 0))].sort((p, q) => p - q)) {
    const ars = bySet.map((s) => (s.pos.length === 0 ? 1 : s.pos.filter((v) => v >= t).length / s.pos.length));
    if (ars.some((ar) => ar < o.minAnswered)) break;
    const rrs = bySet.map((s) => (s.neg.length === 0 ? 1 : s.neg.filter((v) => v < t).length / s.neg.length));
    const ar = mean(ars);
    const rr = mean(rrs);
    if ((ar + rr) / 2 > best.balanced_accuracy)
      best = { threshold: t, balanced_accuracy: (ar + rr) / 2, answerable_recall: ar, refusal_recall: rr };
  }
  return best;
}

export function fitGate(data: LabelledFeatures[], options: FitOptions): FittedGate {
  const o: Required<FitOptions> = {
    minAnswered: 0.92,
    l2: 0.001,
    iterations: 4000,
    learningRate: 2,
    floor: { feature: '', min: 0 },
    ...options,
  };
  const keys = [...new Set(data.flatMap((x) => Object.keys(x.features)))];
  const { w, b } = descend(data, keys, o);
  const weights: Record<string, number> = Object.fromEntries(keys.map((k, i) => [k, w[i] as number]));
  return { weights, bias: b, ...bestThreshold(data, weights, b, o) };
}
