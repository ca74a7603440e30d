import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describeBlobStoreConformance } from '@pinpoint/conformance';
import { startFakeS3 } from '@pinpoint/testing';
import { describe, expect, it } from 'vitest';
import { S3BlobStore } from './s3-blob-store.js';

const creds = { accessKeyId: 'AKIDTEST', secretAccessKey: 'secret/key+with=chars', region: 'eu-west-1' };

describeBlobStoreConformance('S3BlobStore (wire-level S3 fake checking SigV4)', async () => {
  const s3 = await startFakeS3('pinpoint', creds);
  const port = new S3BlobStore({ endpoint: s3.url, bucket: 'pinpoint', prefix: 'blobs/', ...creds });
  return { port, dispose: () => s3.close() };
});

describe('S3BlobStore', () => {
  it('keeps keys under the prefix, encodes odd characters, and names refused credentials as a configuration error', async () => {
    const s3 = await startFakeS3('pinpoint', creds);
    try {
      const blobs = new S3BlobStore({ endpoint: `${s3.url}/`, bucket: 'pinpoint', prefix: 'tenant a/', ...creds });
      await blobs.put('sha256/ab/日本 語+1.pdf', new Uint8Array([1, 2, 3]));
      expect([...s3.objects.keys()]).toEqual(['tenant a/sha256/ab/日本 語+1.pdf']);
      expect(Array.from(await blobs.get('sha256/ab/日本 語+1.pdf'))).toEqual([1, 2, 3]);
      const wrong = new S3BlobStore({ endpoint: s3.url, bucket: 'pinpoint', ...creds, secretAccessKey: 'wrong' });
      await expect(wrong.get('x')).rejects.toMatchObject({
        code: 'PP_CONFIG_INVALID',
        message: expect.stringMatching(/SignatureDoesNotMatch/),
      });
    } finally {
      await s3.close();
    }
  });

  it('reports an unreachable store as a retryable error', async () => {
    const blobs = new S3BlobStore({ endpoint: 'http://127.0.0.1:9', bucket: 'b', ...creds });
    await expect(blobs.has('k')).rejects.toMatchObject({ code: 'PP_STORE_UNAVAILABLE', retryable: true });
  });

  it('putFile sends a large file part by part (never more than one part in a request) and a small one in one PUT', async () => {
    const s3 = await startFakeS3('pinpoint', creds);
    const dir = mkdtempSync(join(tmpdir(), 'pp-s3-'));
    try {
      const partBytes = 64 * 1024;
      const blobs = new S3BlobStore({ endpoint: s3.url, bucket: 'pinpoint', prefix: 'p/', ...creds, partBytes });
      const big = randomBytes(partBytes * 3 + 12_345);
      writeFileSync(join(dir, 'big.bin'), big);
      await blobs.putFile('sha256/big', join(dir, 'big.bin'));
      expect(Buffer.compare(s3.objects.get('p/sha256/big') as Buffer, big)).toBe(0);
      const parts = s3.requests.filter((r) => r.query.includes('partNumber'));
      expect(parts.map((r) => r.bytes)).toEqual([partBytes, partBytes, partBytes, 12_345]);
      expect(Math.max(...s3.requests.map((r) => r.bytes))).toBeLessThanOrEqual(partBytes);
      expect(s3.openUploads()).toBe(0);
      expect(Buffer.compare(Buffer.from(await blobs.get('sha256/big')), big)).toBe(0);

      const before = s3.requests.length;
      const small = randomBytes(1000);
      writeFileSync(join(dir, 'small.bin'), small);
      await blobs.putFile('sha256/small', join(dir, 'small.bin'));
      expect(s3.requests.slice(before).map((r) => [r.method, r.query, r.bytes])).toEqual([['PUT', '', 1000]]);
      writeFileSync(join(dir, 'empty.bin'), '');
      await blobs.putFile('sha256/empty', join(dir, 'empty.bin'));
      expect(s3.objects.get('p/sha256/empty')?.length).toBe(0);
    } finally {
      rmSync(dir, { recursive: true, force: true });
      await s3.close();
    }
  });

  it('putFile aborts a multipart upload that fails, leaving no parts behind', async () => {
    const s3 = await startFakeS3('pinpoint', creds, { failPart: 3 });
    const dir = mkdtempSync(join(tmpdir(), 'pp-s3-'));
    try {
      const blobs = new S3BlobStore({ endpoint: s3.url, bucket: 'pinpoint', ...creds, partBytes: 1024 });
      writeFileSync(join(dir, 'f.bin'), randomBytes(5000));
      await expect(blobs.putFile('k', join(dir, 'f.bin'))).rejects.toMatchObject({
        code: 'PP_STORE_UNAVAILABLE',
        message: expect.stringMatching(/InternalError/),
      });
      expect(s3.requests.at(-1)).toMatchObject({ method: 'DELETE', query: expect.stringMatching(/uploadId=/) });
      expect(s3.openUploads()).toBe(0);
      expect(s3.objects.has('k')).toBe(false);
    } finally {
      rmSync(dir, { recursive: true, force: true });
      await s3.close();
    }
  });
});
