import { gateFileSchema } from '@pinpoint/core';
import { describe, expect, it } from 'vitest';
import { fitGate } from './calibrate.js';
import { calibrateGate } from './calibrate-gate.js';

describe('fitGate', () => {
  it('learns that coverage separates answerable questions and keeps the sign constraints', () => {
    const data = Array.from({ length: 40 }, (_, i) => ({
      answerable: i % 2 === 0,
      features: { coverage: i % 2 === 0 ? 0.8 + (i % 5) / 50 : 0.3 + (i % 7) / 50, noise: (i * 7) % 3 },
    }));
    const fit = fitGate(data, { positive: ['coverage'], iterations: 500, minAnswered: 0.9 });
    expect(fit.weights.coverage).toBeGreaterThan(0);
    expect(fit.weights.noise).toBeLessThanOrEqual(0);
    expect(fit.balanced_accuracy).toBe(1);
    expect(fit.answerable_recall).toBe(1);
  });
});

describe('fitGate with coordinate rounds', () => {
  it('never ends below the logistic fit at the judged operating point, and keeps the signs', () => {
    // Two sets of different styles: one feature separates each, and the log loss splits the difference.
    const data = Array.from({ length: 120 }, (_, i) => {
      const set = i % 2 === 0 ? 'a' : 'b';
      const answerable = i % 3 !== 0;
      const x = (i * 37) % 11;
      return {
        set,
        answerable,
        features: {
          near: set === 'a' ? (answerable ? 0.6 + x / 40 : 0.5 + x / 30) : 0.5 + x / 25,
          far: set === 'b' ? (answerable ? 0.7 + x / 50 : 0.4 + x / 20) : 0.3 + x / 30,
          noise: (i * 13) % 5,
        },
      };
    });
    const base = fitGate(data, { positive: ['near', 'far'], iterations: 300, minAnswered: 0.9 });
    const refined = fitGate(data, { positive: ['near', 'far'], iterations: 300, minAnswered: 0.9, refineRounds: 3 });
    expect(refined.balanced_accuracy).toBeGreaterThanOrEqual(base.balanced_accuracy);
    expect(refined.weights.near).toBeGreaterThanOrEqual(0);
    expect(refined.weights.far).toBeGreaterThanOrEqual(0);
    expect(refined.weights.noise).toBeLessThanOrEqual(0);
    expect(refined.answerable_recall).toBeGreaterThanOrEqual(0.9);
    // The operating point is the one of the weights as recorded (three decimals).
    for (const v of [...Object.values(refined.weights), refined.bias]) expect(Math.round(v * 1000) / 1000).toBe(v);
  });
});

describe('fitGate with floors', () => {
  it('gives up mean balanced accuracy to keep a set at its floor', () => {
    // Set a refuses its last unanswerable question only at the high threshold, where set b loses two
    // answerable ones: the mean prefers the low threshold, a's floor the high one.
    const rows = (set: string, answerable: boolean, scores: number[]) =>
      scores.map((s) => ({ set, answerable, features: { s } }));
    const data = [
      ...rows('a', true, Array(10).fill(0.9)),
      ...rows('a', false, [...Array(9).fill(0.1), 0.7]),
      ...rows('b', true, [...Array(8).fill(0.9), 0.6, 0.6]),
      ...rows('b', false, Array(10).fill(0.1)),
    ];
    const options = { positive: ['s'], iterations: 300, minAnswered: 0.8 };
    const free = fitGate(data, options);
    const held = fitGate(data, { ...options, floors: { a: 0.98 } });
    expect(free.refusal_recall).toBeLessThan(held.refusal_recall);
    expect(held.answerable_recall).toBeLessThan(1);
    expect(held.balanced_accuracy).toBeLessThan(free.balanced_accuracy);
  });
});

describe('fitGate when no threshold holds a minimum', () => {
  it('fails with PP_CONFIG_INVALID naming the set the floor refuses too much of, not with a gate at threshold 0', () => {
    // set a: half its answerable questions fall under the coverage floor, whatever their score
    const data = [
      ...Array.from({ length: 10 }, (_, i) => ({ set: 'a', answerable: true, features: { s: 0.9, cov: i < 5 ? 0.1 : 0.9 } })),
      ...Array.from({ length: 10 }, () => ({ set: 'a', answerable: false, features: { s: 0.1, cov: 0.9 } })),
    ];
    const options = { positive: ['s', 'cov'], iterations: 100, minAnswered: 0.8, floor: { feature: 'cov', min: 0.25 } };
    expect(() => fitGate(data, options)).toThrow(/a answers at most 0\.500 \(minimum 0\.8\)/);
    expect(() => fitGate(data, options)).toThrow(expect.objectContaining({ code: 'PP_CONFIG_INVALID' }));
    expect(fitGate(data, { ...options, minAnswered: 0.5 }).answerable_recall).toBe(0.5);
  });
});

describe("fitGate with a set's own minimum answered", () => {
  it('holds each set to its own share: a set of hard answerable questions may answer less than the rest', () => {
    // Set a's answerable questions score low (long questions, little of them covered): at the shared
    // 0.9 no threshold refuses b's unanswerable ones; at a's own 0.5 the threshold can rise above them.
    const rows = (set: string, answerable: boolean, scores: number[]) =>
      scores.map((s) => ({ set, answerable, features: { s } }));
    const data = [
      ...rows('a', true, [...Array(5).fill(0.9), ...Array(5).fill(0.3)]),
      ...rows('b', true, Array(10).fill(0.9)),
      ...rows('b', false, Array(10).fill(0.5)),
    ];
    const options = { positive: ['s'], iterations: 300, minAnswered: 0.9 };
    const shared = fitGate(data, options);
    const own = fitGate(data, { ...options, minAnsweredBySet: { a: 0.5 } });
    // refusal recall is the mean over sets (a set with no unanswerable question refuses all it should)
    expect(shared.refusal_recall).toBe(0.5);
    expect(own.refusal_recall).toBe(1);
    expect(own.answerable_recall).toBeGreaterThanOrEqual(0.75);
  });
});

describe('calibrateGate', () => {
  const model = (threshold: number) => ({ weights: { coverage: 0, suspicious: 0 }, bias: 0, threshold, minCoverage: 0.2 });
  const questions = (lang: 'en' | 'ja', n: number) =>
    Array.from({ length: n }, (_, i) => ({
      question: lang === 'en' ? `question ${i}?` : `質問${i}は何か？`,
      answerable: i % 4 !== 0,
      gate: { features: { coverage: i % 4 !== 0 ? 0.7 + (i % 3) / 10 : 0.3 + (i % 5) / 100, suspicious: (i * 7) % 3 } },
    }));
  const input = (path: string, lang: 'en' | 'ja') => ({
    dataset: { path, sha256: 'x'.repeat(64) },
    questions: questions(lang, 80),
  });

  it('fits one model per script family, keeps each set at min_answered and records the run', () => {
    const file = calibrateGate([input('/sets/en', 'en'), input('/sets/ja', 'ja')], {
      familyOf: (q) => (/[\u3040-\u30ff\u4e00-\u9fff]/.test(q) ? 'cjk' : 'latin'),
      current: { cjk: model(0.5), latin: model(0.5) },
      positive: ['coverage'],
      minAnswered: 0.9,
      floorFeature: 'coverage',
      run: { mode: 'hybrid', embedder: 'onnx:tiny', reranker: null },
      now: new Date('2026-12-01T00:00:00Z'),
    });
    expect(gateFileSchema.parse(file)).toEqual(file);
    expect(file).toMatchObject({
      mode: 'hybrid',
      embedder: 'onnx:tiny',
      created_at: '2026-12-01T00:00:00.000Z',
      min_answered: 0.9,
    });
    expect(file.datasets.map((d) => [d.path, d.family])).toEqual([
      ['/sets/en', 'latin'],
      ['/sets/ja', 'cjk'],
    ]);
    for (const d of file.datasets) {
      expect(d.answerable_recall).toBeGreaterThanOrEqual(0.9);
      expect(d.balanced_accuracy).toBe(1);
    }
    expect(file.models.latin.weights.coverage).toBeGreaterThan(0);
    expect(file.models.latin.weights.suspicious).toBeLessThanOrEqual(0);
    // Each set left out in turn; alone in its family, its fold is fitted on the other family's set.
    expect(file.folds?.map((f) => [f.held_out, f.family, f.trained_on])).toEqual([
      ['/sets/en', 'latin', ['/sets/ja']],
      ['/sets/ja', 'cjk', ['/sets/en']],
    ]);
    for (const f of file.folds ?? []) expect(f.answerable_recall).toBeGreaterThanOrEqual(0.9);
  });

  it("records each set's own minimum answered and keeps that set at it", () => {
    const file = calibrateGate([input('/sets/en', 'en'), input('/sets/en2', 'en')], {
      familyOf: () => 'latin',
      current: { cjk: model(0.5), latin: model(0.5) },
      positive: ['coverage'],
      minAnswered: 0.9,
      minAnsweredBySet: { '/sets/en2': 0.8 },
      floorFeature: 'coverage',
      run: { mode: 'lexical', embedder: null, reranker: null },
    });
    expect(gateFileSchema.parse(file)).toEqual(file);
    expect(file.min_answered_sets).toEqual({ '/sets/en2': 0.8 });
    for (const d of file.datasets) expect(d.answerable_recall).toBeGreaterThanOrEqual(d.path === '/sets/en2' ? 0.8 : 0.9);
  });

  it("leaves out the questions a table answered: their features are the table reader's, not this gate's", () => {
    const tabled = {
      dataset: { path: '/sets/reports', sha256: 'x'.repeat(64) },
      questions: [
        ...questions('en', 40),
        ...Array.from({ length: 40 }, (_, i) => ({
          question: `table ${i}?`,
          answerable: true,
          gate: { features: { table_coverage: 1 } },
        })),
      ],
    };
    const file = calibrateGate([input('/sets/en', 'en'), tabled], {
      familyOf: () => 'latin',
      current: { cjk: model(0.5), latin: model(0.5) },
      positive: ['coverage'],
      minAnswered: 0.9,
      floorFeature: 'coverage',
      run: { mode: 'lexical', embedder: null, reranker: null },
    });
    const reports = file.datasets.find((d) => d.path === '/sets/reports');
    expect(reports?.questions).toBe(40);
    expect(reports?.answerable_recall).toBeGreaterThanOrEqual(0.9);
  });

  it('keeps the current model of a family it has no questions for', () => {
    const file = calibrateGate([input('/sets/en', 'en')], {
      familyOf: () => 'latin',
      current: { cjk: model(0.42), latin: model(0.5) },
      positive: ['coverage'],
      minAnswered: 0.9,
      floorFeature: 'coverage',
      run: { mode: 'lexical', embedder: null, reranker: null },
    });
    expect(file.models.cjk).toEqual(model(0.42));
  });

  it('tells a fold short by its threshold from one short by its ranking', () => {
    // Two sets where coverage 0.5 separates the questions, and a third whose questions all cover
    // more: the threshold fitted without it answers every one of its questions, yet ranks them right.
    const set = (path: string, lift: number) => ({
      dataset: { path, sha256: 'x'.repeat(64) },
      questions: Array.from({ length: 40 }, (_, i) => {
        const answerable = i % 4 !== 0;
        const coverage = (answerable ? 0.6 + (i % 5) / 50 : 0.3 + (i % 5) / 50) + lift;
        return { question: `question ${i}?`, answerable, gate: { features: { coverage } } };
      }),
    });
    const file = calibrateGate([set('/sets/a', 0), set('/sets/b', 0.01), set('/sets/easy', 0.35)], {
      familyOf: () => 'latin',
      current: { cjk: { ...model(0.5), weights: { coverage: 0 } }, latin: { ...model(0.5), weights: { coverage: 0 } } },
      positive: ['coverage'],
      minAnswered: 0.9,
      floorFeature: 'coverage',
      iterations: 300,
      run: { mode: 'lexical', embedder: null, reranker: null },
    });
    expect(gateFileSchema.parse(file)).toEqual(file);
    const easy = file.folds?.find((f) => f.held_out === '/sets/easy');
    expect(easy?.score_auc).toBe(1);
    expect(easy?.own_threshold_balanced_accuracy).toBe(1);
    expect(easy?.balanced_accuracy).toBeLessThan(1);
    const a = file.folds?.find((f) => f.held_out === '/sets/a');
    expect(a?.own_threshold_balanced_accuracy).toBeGreaterThanOrEqual(a?.balanced_accuracy ?? 1);
  });
});
