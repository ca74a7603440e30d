import { describe, expect, it } from 'vitest';
import { createSharedLoads } from './sharedLoads.js';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('createSharedLoads', () => {
  it('opens once per key, closes after the last release and the linger, and opens again afterwards', async () => {
    const opened: string[] = [];
    const closed: string[] = [];
    const loads = createSharedLoads(
      async (key) => {
        opened.push(key);
        return `doc:${key}`;
      },
      (doc) => closed.push(doc),
      20,
    );
    const a = loads.acquire('a.pdf');
    const b = loads.acquire('a.pdf');
    expect(await a.value).toBe('doc:a.pdf');
    expect(await b.value).toBe('doc:a.pdf');
    expect(opened).toEqual(['a.pdf']);
    a.release();
    a.release();
    await sleep(40);
    expect(closed).toEqual([]);
    b.release();
    expect(closed).toEqual([]);
    await sleep(40);
    expect(closed).toEqual(['doc:a.pdf']);
    expect(loads.size).toBe(0);
    await loads.acquire('a.pdf').value;
    expect(opened).toEqual(['a.pdf', 'a.pdf']);
  });

  it('keeps a value acquired again during the linger, and forgets a failed open', async () => {
    const closed: string[] = [];
    let fail = true;
    const loads = createSharedLoads(
      async (key) => {
        if (fail) throw new Error('unreadable');
        return key;
      },
      (doc) => closed.push(doc),
      20,
    );
    await expect(loads.acquire('x').value).rejects.toThrow('unreadable');
    expect(loads.size).toBe(0);
    fail = false;
    const first = loads.acquire('x');
    await first.value;
    first.release();
    const again = loads.acquire('x');
    await sleep(40);
    expect(closed).toEqual([]);
    again.release();
    await sleep(40);
    expect(closed).toEqual(['x']);
  });
});
