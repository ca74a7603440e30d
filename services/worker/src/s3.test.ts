import { fileURLToPath } from 'node:url';
import { startFakeS3 } from '@pinpoint/testing';
import { describe, expect, it } from 'vitest';
import { createThrowawayDeployment } from '../test/throwaway-deployment.js';

const NORMANS = fileURLToPath(new URL('../../../../shared/eval/squad2-dev/docs/000_Normans.md', import.meta.url));
const creds = { accessKeyId: 'AKIDTEST', secretAccessKey: 'test-secret', region: 'us-east-1' };

describe('distributed worker with blobs in S3', () => {
  it('API and worker processes share originals and derived artifacts through the bucket (wire-level S3 fake)', async () => {
    const s3 = await startFakeS3('pinpoint', creds);
    const d = await createThrowawayDeployment({
      PINPOINT_PARSE_ISOLATE: 'false',
      PINPOINT_BLOBS: 's3',
      PINPOINT_S3_ENDPOINT: s3.url,
      PINPOINT_S3_BUCKET: 'pinpoint',
      PINPOINT_S3_PREFIX: 'test/',
      PINPOINT_S3_ACCESS_KEY_ID: creds.accessKeyId,
      PINPOINT_S3_SECRET_ACCESS_KEY: creds.secretAccessKey,
    });
    try {
      await d.spawnWorker();
      const [upload] = await d.uploadFiles([NORMANS]);
      const versionId = upload?.version.version_id ?? '';
      const [version] = await d.engine.waitForVersions([versionId], { timeoutMs: 120_000 });
      expect(version?.state).toBe('ready');
      const artifacts = await d.ports.metadata.listArtifacts(versionId);
      expect(artifacts.map((a) => a.kind)).toContain('sourcemap.json');
      for (const a of artifacts) expect(s3.objects.has(`test/${a.blob_key}`)).toBe(true);
      const { bytes } = await d.engine.readArtifact(versionId, 'sourcemap.json');
      expect(bytes.byteLength).toBeGreaterThan(0);
    } finally {
      await d.dispose();
      await s3.close();
    }
  }, 180_000);
});
