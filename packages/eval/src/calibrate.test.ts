import { describe, expect, it } from 'vitest';
import { fitGate } from './calibrate.js';

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
