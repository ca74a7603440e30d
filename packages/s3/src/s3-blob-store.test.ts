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
});
