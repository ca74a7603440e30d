import { describe, expect, it } from 'vitest';
import { lazily, startThread } from './thread.js';

type Echo = {
  count(n: number): number;
  greet(name: string): string;
  slow(ms: number): Promise<number>;
  double(v: Float32Array): Float32Array;
  youngGenerationMb(): number;
  refuse(): never;
  crash(): Promise<never>;
};

const entry = new URL('./test-echo-thread.ts', import.meta.url);

describe('startThread / serveThread', () => {
  it('answers calls in the order they were made, with transferred buffers', async () => {
    const t = startThread<Echo>(entry, { greeting: 'hello' }, 'echo');
    const slow = t.call('slow', 50);
    const greet = t.call('greet', 'ada');
    expect(await Promise.all([slow, greet])).toEqual([1, 'hello, ada (2)']);
    const input = Float32Array.of(1, 2, 3);
    const doubled = await t.call('double', input, [input.buffer]);
    expect(input.byteLength).toBe(0);
    expect([...doubled]).toEqual([2, 4, 6]);
    await t.close();
  });

  it('runs a thread with a bounded young generation, whatever the machine’s memory', async () => {
    const t = startThread<Echo>(entry, { greeting: 'hi' }, 'echo');
    expect(await t.call('youngGenerationMb', undefined)).toBe(16);
    await t.close();
  });

  it('passes the notices a thread sends, from its setup and its calls, before the call’s reply', async () => {
    const notices: unknown[] = [];
    const t = startThread<Echo>(entry, { greeting: 'hey' }, 'echo', [], (n) => notices.push(n));
    expect(await t.call('count', 3)).toBe(1);
    expect(notices).toEqual([{ setup: 'hey' }, { counted: 1 }, { counted: 2 }, { counted: 3 }]);
    expect(await t.call('greet', 'cy')).toBe('hey, cy (2)');
    await t.close();
  });

  it('rejects with the code and message the handler threw, and goes on', async () => {
    const t = startThread<Echo>(entry, { greeting: 'hi' }, 'echo');
    await expect(t.call('refuse', undefined)).rejects.toMatchObject({ code: 'PP_VALIDATION', message: 'not this one' });
    expect(await t.call('greet', 'bo')).toBe('hi, bo (1)');
    await t.close();
  });

  it('rejects every call when setup fails', async () => {
    const t = startThread<Echo>(entry, { greeting: 'x', failSetup: true }, 'echo');
    await expect(t.call('greet', 'a')).rejects.toMatchObject({ code: 'PP_CONFIG_INVALID', message: 'setup refused' });
    await expect(t.call('greet', 'b')).rejects.toMatchObject({ code: 'PP_CONFIG_INVALID' });
    await t.close();
  });

  it('fails pending and later calls with PP_INTERNAL when the thread dies', async () => {
    const t = startThread<Echo>(entry, { greeting: 'x' }, 'echo');
    await expect(t.call('crash', undefined)).rejects.toMatchObject({ code: 'PP_INTERNAL' });
    await expect(t.call('greet', 'a')).rejects.toMatchObject({ code: 'PP_INTERNAL' });
    await t.close();
  });

  it('close waits for the calls still pending', async () => {
    const t = startThread<Echo>(entry, { greeting: 'x' }, 'echo');
    const slow = t.call('slow', 100);
    await t.close();
    expect(await slow).toBe(1);
    await expect(t.call('greet', 'late')).rejects.toMatchObject({ code: 'PP_INTERNAL' });
  });

  it('lazily starts the thread at the first call, once, and closing one never called starts nothing', async () => {
    let started = 0;
    const start = () => {
      started++;
      return startThread<Echo>(entry, { greeting: 'hey' }, 'echo');
    };
    const idle = lazily(start);
    await idle.close();
    expect(started).toBe(0);
    await expect(idle.call('greet', 'late')).rejects.toMatchObject({ code: 'PP_INTERNAL' });
    const t = lazily(start);
    expect(started).toBe(0);
    expect(await Promise.all([t.call('greet', 'a'), t.call('greet', 'b')])).toEqual(['hey, a (1)', 'hey, b (2)']);
    expect(started).toBe(1);
    await t.close();
    expect(started).toBe(1);
  });
});
