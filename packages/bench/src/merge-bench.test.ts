import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { benchMerge } from './merge-bench.js';

const shared = fileURLToPath(new URL('../../../../shared/', import.meta.url));

describe('pnpm bench --lexical-merge', () => {
  it('times a merge of eight segments both ways, alternating, with the busy time the merge takes from its thread', async () => {
    const lines: string[] = [];
    const r = await benchMerge(shared, { chunks: 800, runs: 2, log: (line) => lines.push(line) });
    expect(r.runs.map((x) => x.merge_thread)).toEqual([false, true, true, false]);
    // a merge of 8 × 100 chunks takes milliseconds: the figures are there and consistent, not large
    for (const run of r.runs) {
      expect(run.busy_ms).toBeGreaterThanOrEqual(0);
      // the loop's active time is summed at its own boundaries: under load it can run a few ms past a wall time near 0
      expect(run.busy_ms).toBeLessThanOrEqual(run.wall_ms + 5);
      expect(run.ingest_s).toBeGreaterThan(0);
    }
    expect(Object.keys(r.median_busy_ms).sort()).toEqual(['index_thread', 'merge_thread']);
    expect(lines).toHaveLength(4);
  }, 120_000);
});
