import { createError } from '@pinpoint/core/errors';
import { serveThread, transferring } from './thread.js';

/** A thread for thread.test.ts: echoes, sums buffers, fails on request. */
serveThread((init: { failSetup?: boolean; greeting: string }) => {
  if (init.failSetup) throw createError('PP_CONFIG_INVALID', 'setup refused');
  let calls = 0;
  return {
    greet: (name: string) => `${init.greeting}, ${name} (${++calls})`,
    slow: async (ms: number) => {
      await new Promise((r) => setTimeout(r, ms));
      return ++calls;
    },
    double: (v: Float32Array) => {
      const out = v.map((x) => x * 2);
      return transferring(out, [out.buffer as ArrayBuffer]);
    },
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
