import { describe, expect, it } from 'vitest';
import { loadWorkerConfig, localDistributedEnv } from './config.js';

describe('worker config', () => {
  it('has working defaults and is frozen', () => {
    const config = loadWorkerConfig({});
    expect(config).toMatchObject({
      redisUrl: 'redis://127.0.0.1:6379',
      pgSchema: 'pinpoint',
      queue: { name: 'pinpoint-ingest', concurrency: 1, maxAttempts: 3 },
    });
    expect(config.engine.parse.isolate).toBe(true);
    expect(Object.isFrozen(config.queue)).toBe(true);
  });

  it('names the bad setting', () => {
    expect(() => loadWorkerConfig({ PINPOINT_REDIS_URL: 'localhost:6379' })).toThrow(/PINPOINT_REDIS_URL/);
    expect(() => loadWorkerConfig({ PINPOINT_WORKER_CONCURRENCY: '0' })).toThrow(/PINPOINT_WORKER_CONCURRENCY/);
    expect(() => loadWorkerConfig({ PINPOINT_PG_SCHEMA: 'Bad-Name' })).toThrow(/PINPOINT_PG_SCHEMA/);
  });

  it('start:distributed defaults to this machine and keeps what the caller set', () => {
    const { env, workers } = localDistributedEnv({ PINPOINT_PG_SCHEMA: 'mine', PINPOINT_WORKERS: '3' });
    expect(env).toMatchObject({
      PINPOINT_MODE: 'distributed',
      PINPOINT_DATABASE_URL: 'postgres://postgres@127.0.0.1:5432/test',
      PINPOINT_PG_SCHEMA: 'mine',
    });
    expect(workers).toBe(3);
    expect(() => localDistributedEnv({ PINPOINT_WORKERS: 'many' })).toThrow(/PINPOINT_WORKERS/);
  });

  it('reads the same model variables as the API; an embedder needs Qdrant for its vectors', () => {
    expect(loadWorkerConfig({}).models.embedder).toEqual({ kind: 'none' });
    const ollama = { PINPOINT_EMBEDDER: 'ollama', PINPOINT_EMBEDDER_MODEL: 'bge-m3', PINPOINT_EMBEDDER_DIMENSIONS: '1024' };
    expect(() => loadWorkerConfig(ollama)).toThrow(/PINPOINT_VECTORS=qdrant/);
    const config = loadWorkerConfig({ ...ollama, PINPOINT_VECTORS: 'qdrant', PINPOINT_QDRANT_URL: 'http://qdrant:6333' });
    expect(config.models).toEqual({
      embedder: { kind: 'ollama', url: 'http://127.0.0.1:11434', model: 'bge-m3', dimensions: 1024 },
      qdrant: { url: 'http://qdrant:6333', collection: 'pinpoint' },
    });
    expect(() => loadWorkerConfig({ PINPOINT_EMBEDDER: 'gemini', PINPOINT_VECTORS: 'qdrant' })).toThrow(
      /PINPOINT_GEMINI_API_KEY/,
    );
  });

  it('puts blobs in an S3-compatible bucket when asked, and names what is missing', () => {
    expect(loadWorkerConfig({}).blobs).toEqual({ kind: 'fs' });
    expect(() => loadWorkerConfig({ PINPOINT_BLOBS: 's3', PINPOINT_S3_ENDPOINT: 'http://minio:9000' })).toThrow(
      /PINPOINT_S3_BUCKET/,
    );
    const s3 = {
      PINPOINT_BLOBS: 's3',
      PINPOINT_S3_ENDPOINT: 'http://minio:9000',
      PINPOINT_S3_BUCKET: 'pp',
      PINPOINT_S3_ACCESS_KEY_ID: 'a',
      PINPOINT_S3_SECRET_ACCESS_KEY: 'b',
    };
    expect(loadWorkerConfig(s3).blobs).toEqual({
      kind: 's3',
      endpoint: 'http://minio:9000',
      bucket: 'pp',
      prefix: '',
      region: 'us-east-1',
      accessKeyId: 'a',
      secretAccessKey: 'b',
    });
  });
});
