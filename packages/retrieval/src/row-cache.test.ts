import { describe, expect, it } from 'vitest';
import { type Row, RowCache } from './row-cache.js';

describe('RowCache', () => {
  it('reads each key once while it stays, absent rows too, and lets the least recently used go past its bytes', () => {
    const cache = new RowCache(1000);
    let reads = 0;
    const row = (bytes: number) => (): Row => {
      reads++;
      return [1, new Uint8Array(16), new Uint8Array(bytes)];
    };
    const absent = () => {
      reads++;
      return null;
    };
    const a = cache.get('a', row(300));
    expect(cache.get('a', row(300))).toBe(a);
    expect(cache.get('gone', absent)).toBeNull();
    expect(cache.get('gone', absent)).toBeNull();
    expect(reads).toBe(2);
    cache.get('b', row(300));
    // 'a' used again: 'b' is now the least recently used of the two
    cache.get('a', row(300));
    cache.get('c', row(300));
    expect(reads).toBe(4);
    cache.get('a', row(300));
    expect(reads).toBe(4);
    cache.get('b', row(300));
    expect(reads).toBe(5);
  });
});
