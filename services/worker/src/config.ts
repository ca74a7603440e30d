import { resolve } from 'node:path';
import {
  blobsFromEnv,
  deepFreeze,
  distributedEnvShape,
  embedderEnvShape,
  parseConfigFromEnv,
  parseEnv,
  parseEnvShape,
  vectorsEnvShape,
} from '@pinpoint/compose';
import { createError } from '@pinpoint/core';
import type { EngineConfig } from '@pinpoint/engine';
import { defaultEngineConfig } from '@pinpoint/engine';
import type { S3BlobStoreOptions } from '@pinpoint/s3';
import { z } from 'zod';
import type { WorkerModels } from './models.js';
import { workerModelsFrom } from './models.js';

/**
 * The worker's only reader of process.env: PINPOINT_* variables validated once into a frozen
 * config. Every variable is listed in docs/distributed.md.
 */
const ms = (fallback: number) => z.coerce.number().int().min(1).default(fallback);

const envSchema = z.object({
  ...distributedEnvShape,
  PINPOINT_BLOB_DIR: z.string().min(1).default('./data/blobs'),
  PINPOINT_WORKER_CONCURRENCY: z.coerce.number().int().min(1).max(64).default(1),
  PINPOINT_JOB_MAX_ATTEMPTS: z.coerce.number().int().min(1).max(20).default(3),
  PINPOINT_JOB_BACKOFF_MS: ms(1000),
  PINPOINT_LOCK_DURATION_MS: ms(30_000),
  PINPOINT_STALLED_INTERVAL_MS: ms(15_000),
  PINPOINT_MAX_STALLED_COUNT: z.coerce.number().int().min(0).max(100).default(3),
  PINPOINT_RATE_LIMIT_MS: ms(30_000),
  PINPOINT_DRAIN_TIMEOUT_MS: ms(60_000),
  ...parseEnvShape,
  // Checked like the worker's other millisecond settings (at least 1).
  PINPOINT_PARSE_TIMEOUT_MS: ms(120_000),
  ...embedderEnvShape,
  ...vectorsEnvShape,
});

export interface WorkerConfig {
  redisUrl: string;
  databaseUrl: string;
  pgSchema: string;
  blobDir: string;
  /** Blobs on the shared volume (blobDir) or in an S3-compatible bucket. */
  blobs: { kind: 'fs' } | ({ kind: 's3' } & S3BlobStoreOptions);
  queue: {
    name: string;
    prefix: string;
    concurrency: number;
    maxAttempts: number;
    backoffMs: number;
    lockDurationMs: number;
    stalledIntervalMs: number;
    maxStalledCount: number;
    rateLimitMs: number;
    drainTimeoutMs: number;
  };
  engine: EngineConfig;
  /** Where the lexical index lives: PostgreSQL (BM25 in SQL, as embedded) or Qdrant sparse vectors. */
  lexical: { kind: 'postgres' } | { kind: 'qdrant'; collection: string };
  /** Embedder + Qdrant for vectors (ingestion embeds only when an embedder is set). */
  models: WorkerModels;
}

function fromEnv(e: z.infer<typeof envSchema>): WorkerConfig {
  return {
    redisUrl: e.PINPOINT_REDIS_URL,
    databaseUrl: e.PINPOINT_DATABASE_URL,
    pgSchema: e.PINPOINT_PG_SCHEMA,
    blobDir: resolve(e.PINPOINT_BLOB_DIR),
    blobs: blobsFromEnv(e),
    queue: {
      name: e.PINPOINT_QUEUE_NAME,
      prefix: e.PINPOINT_QUEUE_PREFIX,
      concurrency: e.PINPOINT_WORKER_CONCURRENCY,
      maxAttempts: e.PINPOINT_JOB_MAX_ATTEMPTS,
      backoffMs: e.PINPOINT_JOB_BACKOFF_MS,
      lockDurationMs: e.PINPOINT_LOCK_DURATION_MS,
      stalledIntervalMs: e.PINPOINT_STALLED_INTERVAL_MS,
      maxStalledCount: e.PINPOINT_MAX_STALLED_COUNT,
      rateLimitMs: e.PINPOINT_RATE_LIMIT_MS,
      drainTimeoutMs: e.PINPOINT_DRAIN_TIMEOUT_MS,
    },
    models: workerModelsFrom(e),
    lexical:
      e.PINPOINT_LEXICAL === 'qdrant'
        ? { kind: 'qdrant', collection: e.PINPOINT_QDRANT_LEXICAL_COLLECTION }
        : { kind: 'postgres' },
    engine: { ...defaultEngineConfig, parse: parseConfigFromEnv(e) },
  };
}

/** Reads and validates the worker's settings; throws PP_CONFIG_INVALID naming the setting. */
export function loadWorkerConfig(env: NodeJS.ProcessEnv = process.env): WorkerConfig {
  return deepFreeze(fromEnv(parseEnv(envSchema, env)));
}

/**
 * The environment `pnpm start:distributed` gives the api and worker processes: the caller's, with
 * this machine's Redis and PostgreSQL (database `test`) and a local blob folder as defaults.
 */
export function localDistributedEnv(env: NodeJS.ProcessEnv = process.env): { env: Record<string, string>; workers: number } {
  const defaults: Record<string, string> = {
    PINPOINT_MODE: 'distributed',
    PINPOINT_REDIS_URL: 'redis://127.0.0.1:6379',
    PINPOINT_DATABASE_URL: 'postgres://postgres@127.0.0.1:5432/test',
    PINPOINT_PG_SCHEMA: 'pinpoint',
    PINPOINT_DATA_DIR: './data/distributed',
    PINPOINT_BLOB_DIR: './data/distributed/blobs',
  };
  const merged = {
    ...defaults,
    ...Object.fromEntries(Object.entries(env).filter((e): e is [string, string] => e[1] !== undefined)),
  };
  const workers = z.coerce.number().int().min(1).max(16).default(2).safeParse(env.PINPOINT_WORKERS);
  if (!workers.success) throw createError('PP_CONFIG_INVALID', 'Invalid setting PINPOINT_WORKERS: a whole number 1..16.');
  return { env: { ...merged, PINPOINT_BLOB_DIR: resolve(merged.PINPOINT_BLOB_DIR ?? '') }, workers: workers.data };
}
