import type { BlobStore } from '@pinpoint/core';
import { describe, expect, it } from 'vitest';
import type { PortFactory } from './fixture.js';

/** The BlobStore port's semantics: byte-identical round trips, has/delete, missing keys. */
export function describeBlobStoreConformance(name: string, factory: PortFactory<BlobStore>): void {
  const use = (fn: (blobs: BlobStore) => Promise<void>) => async () => {
    const fixture = await factory();
    try {
      await fn(fixture.port);
    } finally {
      await fixture.dispose();
    }
  };
  describe(`BlobStore conformance: ${name}`, () => {
    it(
      'round-trips bytes exactly, including empty and binary blobs and nested keys',
      use(async (blobs) => {
        const binary = Uint8Array.from({ length: 70_000 }, (_, i) => (i * 31) % 256);
        await blobs.put('ver_1/original', binary);
        await blobs.put('ver_1/derived/page-0.png', new Uint8Array([0, 255, 0]));
        await blobs.put('empty', new Uint8Array());
        expect(Buffer.from(await blobs.get('ver_1/original')).equals(Buffer.from(binary))).toBe(true);
        expect(Array.from(await blobs.get('ver_1/derived/page-0.png'))).toEqual([0, 255, 0]);
        expect((await blobs.get('empty')).byteLength).toBe(0);
      }),
    );

    it(
      'put overwrites, has reports presence, delete removes and is idempotent',
      use(async (blobs) => {
        expect(await blobs.has('k')).toBe(false);
        await blobs.put('k', new Uint8Array([1]));
        await blobs.put('k', new Uint8Array([2, 3]));
        expect(await blobs.has('k')).toBe(true);
        expect(Array.from(await blobs.get('k'))).toEqual([2, 3]);
        await blobs.delete('k');
        await blobs.delete('k');
        expect(await blobs.has('k')).toBe(false);
      }),
    );

    it(
      'get of a missing key rejects with PP_NOT_FOUND',
      use(async (blobs) => {
        await expect(blobs.get('missing/key')).rejects.toMatchObject({ code: 'PP_NOT_FOUND' });
      }),
    );
  });
}
