import { resourceLimits } from 'node:worker_threads';
import { createError } from '@pinpoint/core/errors';
import { serveThread, transferring } from './thread.js';

/** A thread for thread.test.ts: echoes, sums buffers, sends notices, tells its heap's limits, fails on request. */
serveThread((init: { failSetup?: boolean; greeting: string }, notify) => {
  if (init.failSetup) throw createError('PP_CONFIG_INVALID', 'setup refused');
  notify({ setup: init.greeting });
  let calls = 0;
  return {
    count: (n: number) => {
      for (let i = 1; i <= n; i++) notify({ counted: i });
      return ++calls;
    },
    greet: (name: string) => `${init.greeting}, ${name} (${++calls})`,
    slow: async (ms: number) => {
      await new Promise((r) => setTimeout(r, ms));
      return ++calls;
    },
    double: (v: Float32Array) => {
      const out = v.map((x) => x * 2);
      return transferring(out, [out.buffer as ArrayBuffer]);
    },
    youngGenerationMb: () => resourceLimits.maxYoungGenerationSizeMb,
    refuse: () => {
      throw createError('PP_VALIDATION', 'not this one');
    },
    crash: () => {
      setTimeout(() => {
        throw new Error('boom');
      });
      return new Promise(() => undefined);
    },
  };
});
