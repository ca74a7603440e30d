import { seededRandom } from '@pinpoint/testing';
import { describe, expect, it } from 'vitest';
import { TopK } from './top-k.js';

describe('TopK', () => {
  it('keeps the k best of a seeded stream, best first, ties by lower chunk number, as a full sort does', () => {
    const rnd = seededRandom(7);
    const offered = Array.from({ length: 500 }, (_, doc) => [doc, Math.floor(rnd() * 40)] as [number, number]);
    const heap = new TopK(10);
    for (const [doc, score] of [...offered].reverse()) heap.offer(doc, score);
    const sorted = [...offered].sort((x, y) => y[1] - x[1] || x[0] - y[0]).slice(0, 10);
    expect(heap.best()).toEqual(sorted);
  });

  it('has no threshold until k are held, then the k-th score; a tie enters only with a lower chunk number', () => {
    const heap = new TopK(2);
    expect(heap.threshold()).toBe(Number.NEGATIVE_INFINITY);
    heap.offer(5, 1);
    heap.offer(6, 3);
    expect(heap.threshold()).toBe(1);
    expect(heap.offer(9, 1)).toBe(false);
    expect(heap.offer(2, 1)).toBe(true);
    expect(heap.best()).toEqual([
      [6, 3],
      [2, 1],
    ]);
  });
});
