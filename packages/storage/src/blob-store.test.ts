import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { FsBlobStore } from './blob-store.js';

describe('FsBlobStore', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'pp-blob-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('round-trips bytes, leaves no temp files, and rejects unsafe keys', async () => {
    const blobs = new FsBlobStore(dir);
    const bytes = new Uint8Array([0, 1, 2, 255]);
    await blobs.put('sha256/ab/abcd', bytes);
    await blobs.put('sha256/ab/abcd', bytes);
    expect(await blobs.get('sha256/ab/abcd')).toEqual(bytes);
    expect(await blobs.has('sha256/ab/abcd')).toBe(true);
    expect(readdirSync(join(dir, 'sha256/ab'))).toEqual(['abcd']);
    await blobs.delete('sha256/ab/abcd');
    expect(await blobs.has('sha256/ab/abcd')).toBe(false);
    await expect(blobs.get('sha256/ab/abcd')).rejects.toMatchObject({ code: 'PP_NOT_FOUND' });
    await expect(blobs.put('../escape', bytes)).rejects.toMatchObject({ code: 'PP_VALIDATION' });
    await expect(blobs.put('/abs', bytes)).rejects.toMatchObject({ code: 'PP_VALIDATION' });
  });
});
