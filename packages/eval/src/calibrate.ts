import { createError } from '@pinpoint/core';

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
  /** A set's own share in place of `minAnswered` (by `set`): a set of long analyst questions may keep less answered than the text sets. */
  minAnsweredBySet?: Record<string, number>;
  l2?: number;
  iterations?: number;
  learningRate?: number;
  /** Refused whatever the score when this feature is below `min` (the gate's off-topic floor). */
  floor?: { feature: string; min: number };
  /** Rounds of coordinate steps after the logistic fit (0: none). */
  refineRounds?: number;
  /**
   * Balanced accuracy a set must keep (by `set`): thresholds that leave one below it are passed
   * over while another keeps every floor. A floor says which kind of mistake a set must not make
   * more of; without floors every set only weighs the same in the mean.
   */
  floors?: Record<string, number>;
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

/** The question falls under the coverage floor (`floor.feature` below `floor.min`): refused whatever its score. */
const isFloored = (x: LabelledFeatures, o: Required<FitOptions>): boolean =>
  o.floor.feature !== '' && (x.features[o.floor.feature] ?? 0) < o.floor.min;

function bestThreshold(data: LabelledFeatures[], w: Record<string, number>, b: number, o: Required<FitOptions>): Judged {
  return sweep(
    data.map((x) => ({ a: x.answerable, set: x.set ?? '', s: isFloored(x, o) ? -1 : scoreOf(x, w, b) })),
    (set) => o.minAnsweredBySet[set] ?? o.minAnswered,
    o.floors,
  );
}

/**
 * The threshold of best mean balanced accuracy (each set's weighing the same: the threshold is not
 * chosen for the largest set) that keeps every set at its `minAnswered`; a floored question scores -1.
 * A set below its balanced-accuracy floor costs FLOOR_PENALTY times its shortfall. One pass over
 * the sorted scores.
 */
function sweep(
  scored: { a: boolean; set: string; s: number }[],
  minAnswered: (set: string) => number,
  floors: Record<string, number> = {},
): Judged {
  const sets = [...new Set(scored.map((x) => x.set))];
  const mins = sets.map(minAnswered);
  const index = new Map(sets.map((set, i) => [set, i]));
  const pos = sets.map(() => 0);
  const neg = sets.map(() => 0);
  for (const x of scored) {
    const i = index.get(x.set) as number;
    if (x.a) pos[i] = (pos[i] as number) + 1;
    else neg[i] = (neg[i] as number) + 1;
  }
  const posBelow = sets.map(() => 0);
  const negBelow = sets.map(() => 0);
  const sorted = [...scored].sort((p, q) => p.s - q.s);
  let best: Judged = { threshold: 0, balanced_accuracy: 0, answerable_recall: 1, refusal_recall: 0, value: -Infinity };
  for (let k = 0; k < sorted.length; ) {
    const t = (sorted[k] as { s: number }).s;
    if (t >= 0) {
      const ars = sets.map((_, i) => ((pos[i] as number) === 0 ? 1 : 1 - (posBelow[i] as number) / (pos[i] as number)));
      if (ars.some((ar, i) => ar < (mins[i] as number))) break;
      const rrs = sets.map((_, i) => ((neg[i] as number) === 0 ? 1 : (negBelow[i] as number) / (neg[i] as number)));
      const ar = mean(ars);
      const rr = mean(rrs);
      const short = sets.reduce(
        (sum, set, i) => sum + Math.max(0, (floors[set] ?? 0) - ((ars[i] as number) + (rrs[i] as number)) / 2),
        0,
      );
      const value = (ar + rr) / 2 - FLOOR_PENALTY * short;
      if (value > best.value)
        best = { threshold: t, balanced_accuracy: (ar + rr) / 2, answerable_recall: ar, refusal_recall: rr, value };
    }
    for (; k < sorted.length && (sorted[k] as { s: number }).s === t; k++) {
      const x = sorted[k] as { a: boolean; set: string };
      const i = index.get(x.set) as number;
      if (x.a) posBelow[i] = (posBelow[i] as number) + 1;
      else negBelow[i] = (negBelow[i] as number) + 1;
    }
  }
  return best;
}

/**
 * What the fit maximises: the mean balanced accuracy less this many times each set's shortfall
 * below its floor. Steep enough that no gain elsewhere buys a point below a floor, yet graded, so
 * the coordinate steps are led towards the floors from a fit that misses them.
 */
const FLOOR_PENALTY = 4;

/** An operating point and the fit's objective there (`value`). */
type Judged = Omit<FittedGate, 'weights' | 'bias'> & { value: number };

const better = (p: Judged, q: Judged): boolean => p.value > q.value + 1e-9;

/**
 * After the logistic fit: coordinate steps on each weight (signs held) and the bias, kept when they
 * raise the mean balanced accuracy at the chosen threshold — the log loss weighs every question,
 * the gate is judged at one operating point.
 */
function refine(
  data: LabelledFeatures[],
  keys: string[],
  weights: Record<string, number>,
  bias: number,
  o: Required<FitOptions>,
): { weights: Record<string, number>; bias: number } {
  const positive = new Set(o.positive);
  let w = { ...weights };
  let b = bias;
  let score = bestThreshold(data, w, b, o);
  for (const step of [0.5, 0.25, 0.1]) {
    for (let round = 0; round < o.refineRounds; round++) {
      let improved = false;
      for (const k of [...keys, '']) {
        for (const dir of [1, -1]) {
          const next = { ...w };
          let nb = b;
          if (k === '') nb += dir * step;
          else {
            const v = (next[k] ?? 0) + dir * step;
            next[k] = positive.has(k) ? Math.max(0, v) : Math.min(0, v);
          }
          const s = bestThreshold(data, next, nb, o);
          if (better(s, score)) {
            score = s;
            w = next;
            b = nb;
            improved = true;
          }
        }
      }
      if (!improved) break;
    }
  }
  return { weights: w, bias: b };
}

const roundWeight = (x: number): number => Math.round(x * 1000) / 1000;

export function fitGate(data: LabelledFeatures[], options: FitOptions): FittedGate {
  const o: Required<FitOptions> = {
    minAnswered: 0.92,
    minAnsweredBySet: {},
    l2: 0.001,
    iterations: 4000,
    learningRate: 2,
    floor: { feature: '', min: 0 },
    refineRounds: 0,
    floors: {},
    ...options,
  };
  const keys = [...new Set(data.flatMap((x) => Object.keys(x.features)))];
  // The floor refuses what it catches whatever the score: the model learns from the rest only.
  const passing = data.filter((x) => !isFloored(x, o));
  const { w, b } = descend(passing.some((x) => x.answerable) && passing.some((x) => !x.answerable) ? passing : data, keys, o);
  const fitted: Record<string, number> = Object.fromEntries(keys.map((k, i) => [k, w[i] as number]));
  const refined = o.refineRounds > 0 ? refine(data, keys, fitted, b, o) : { weights: fitted, bias: b };
  // The threshold is chosen for the weights as the gate file records them (three decimals): chosen
  // before rounding, it left a set below `minAnswered` once the rounded weights were in force.
  const weights = Object.fromEntries(Object.entries(refined.weights).map(([k, v]) => [k, roundWeight(v)]));
  const bias = roundWeight(refined.bias);
  const { value, ...judged } = bestThreshold(data, weights, bias, o);
  if (value === -Infinity) throw unreachable(data, o);
  return { weights, bias, ...judged };
}

/**
 * No threshold keeps every set at its minimum answered share: the floor (`floor.feature`) alone
 * refuses more of some set's answerable questions than its minimum allows. Named per set, with the
 * most it can answer, rather than a gate fitted at threshold 0 that holds no minimum.
 */
function unreachable(data: LabelledFeatures[], o: Required<FitOptions>): Error {
  const short: string[] = [];
  for (const set of new Set(data.map((x) => x.set ?? ''))) {
    const answerable = data.filter((x) => (x.set ?? '') === set && x.answerable);
    const most = answerable.length === 0 ? 1 : answerable.filter((x) => !isFloored(x, o)).length / answerable.length;
    const min = o.minAnsweredBySet[set] ?? o.minAnswered;
    if (most < min) short.push(`${set || '(unnamed set)'} answers at most ${most.toFixed(3)} (minimum ${min})`);
  }
  const why = short.length > 0 ? short.join('; ') : 'the sets cannot all hold their minimums at one threshold';
  return createError('PP_CONFIG_INVALID', `No refusal threshold keeps every set at its minimum answered share: ${why}.`);
}
