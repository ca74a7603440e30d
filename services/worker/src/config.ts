import { resolve } from 'node:path';
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
const bool = z.enum(['true', 'false', '1', '0']).transform((v) => v === 'true' || v === '1');
const ms = (fallback: number) => z.coerce.number().int().min(1).default(fallback);

const envSchema = z.object({
  PINPOINT_REDIS_URL: z
    .string()
    .regex(/^rediss?:\/\//, 'must be a redis:// URL')
    .default('redis://127.0.0.1:6379'),
  PINPOINT_DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, 'must be a postgres:// URL')
    .default('postgres://postgres@127.0.0.1:5432/pinpoint'),
  PINPOINT_PG_SCHEMA: z
    .string()
    .regex(/^[a-z_][a-z0-9_]*$/)
    .default('pinpoint'),
  PINPOINT_BLOB_DIR: z.string().min(1).default('./data/blobs'),
  PINPOINT_QUEUE_NAME: z.string().min(1).default('pinpoint-ingest'),
  PINPOINT_QUEUE_PREFIX: z.string().min(1).default('pp'),
  PINPOINT_WORKER_CONCURRENCY: z.coerce.number().int().min(1).max(64).default(1),
  PINPOINT_JOB_MAX_ATTEMPTS: z.coerce.number().int().min(1).max(20).default(3),
  PINPOINT_JOB_BACKOFF_MS: ms(1000),
  PINPOINT_LOCK_DURATION_MS: ms(30_000),
  PINPOINT_STALLED_INTERVAL_MS: ms(15_000),
  PINPOINT_MAX_STALLED_COUNT: z.coerce.number().int().min(0).max(100).default(3),
  PINPOINT_RATE_LIMIT_MS: ms(30_000),
  PINPOINT_DRAIN_TIMEOUT_MS: ms(60_000),
  PINPOINT_PARSE_ISOLATE: bool.default(true),
  PINPOINT_PARSE_TIMEOUT_MS: ms(120_000),
  PINPOINT_PARSE_MEMORY_MB: z.coerce.number().int().min(64).default(1024),
  PINPOINT_OCR: z.enum(['none', 'tesseract-cli']).default('tesseract-cli'),
  /** Empty = automatic language choice by the OCR engine (as in the API). */
  PINPOINT_OCR_LANGS: z.string().default(''),
  PINPOINT_OFFICE_CONVERTER: z.enum(['none', 'libreoffice']).default('libreoffice'),
  PINPOINT_EMBEDDER: z.enum(['none', 'gemini', 'ollama', 'onnx']).default('none'),
  PINPOINT_EMBEDDER_MODEL: z.string().min(1).optional(),
  PINPOINT_EMBEDDER_DIMENSIONS: z.coerce.number().int().positive().optional(),
  PINPOINT_GEMINI_API_KEY: z.string().min(1).optional(),
  PINPOINT_GEMINI_BASE_URL: z.url().optional(),
  PINPOINT_OLLAMA_URL: z.url().default('http://127.0.0.1:11434'),
  PINPOINT_ONNX_MODEL_DIR: z.string().min(1).optional(),
  PINPOINT_VECTORS: z.enum(['embedded', 'qdrant']).default('embedded'),
  PINPOINT_QDRANT_URL: z.url().default('http://127.0.0.1:6333'),
  PINPOINT_QDRANT_API_KEY: z.string().min(1).optional(),
  PINPOINT_QDRANT_COLLECTION: z.string().min(1).default('pinpoint'),
  PINPOINT_LEXICAL: z.enum(['postgres', 'qdrant']).default('postgres'),
  PINPOINT_BLOBS: z.enum(['fs', 's3']).default('fs'),
  PINPOINT_S3_ENDPOINT: z.url().optional(),
  PINPOINT_S3_BUCKET: z.string().min(1).optional(),
  PINPOINT_S3_PREFIX: z.string().default(''),
  PINPOINT_S3_REGION: z.string().min(1).default('us-east-1'),
  PINPOINT_S3_ACCESS_KEY_ID: z.string().min(1).optional(),
  PINPOINT_S3_SECRET_ACCESS_KEY: z.string().min(1).optional(),
  PINPOINT_QDRANT_LEXICAL_COLLECTION: z.string().min(1).default('pinpoint_lexical'),
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
    blobs: blobsFrom(e),
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
    engine: {
      ...defaultEngineConfig,
      parse: {
        isolate: e.PINPOINT_PARSE_ISOLATE,
        timeoutMs: e.PINPOINT_PARSE_TIMEOUT_MS,
        maxOldSpaceMb: e.PINPOINT_PARSE_MEMORY_MB,
        ...ocrLangsOf(e.PINPOINT_OCR_LANGS),
        capabilities: {
          ...(e.PINPOINT_OCR !== 'none' ? { ocr: { engine: e.PINPOINT_OCR } } : {}),
          ...(e.PINPOINT_OFFICE_CONVERTER !== 'none' ? { convert: { engine: e.PINPOINT_OFFICE_CONVERTER } } : {}),
        },
      },
    },
  };
}

function blobsFrom(e: z.infer<typeof envSchema>): WorkerConfig['blobs'] {
  if (e.PINPOINT_BLOBS === 'fs') return { kind: 'fs' };
  const need = (v: string | undefined, name: string) => {
    if (!v) throw createError('PP_CONFIG_INVALID', `Set ${name}: PINPOINT_BLOBS=s3 needs it.`);
    return v;
  };
  return {
    kind: 's3',
    endpoint: need(e.PINPOINT_S3_ENDPOINT, 'PINPOINT_S3_ENDPOINT'),
    bucket: need(e.PINPOINT_S3_BUCKET, 'PINPOINT_S3_BUCKET'),
    prefix: e.PINPOINT_S3_PREFIX,
    region: e.PINPOINT_S3_REGION,
    accessKeyId: need(e.PINPOINT_S3_ACCESS_KEY_ID, 'PINPOINT_S3_ACCESS_KEY_ID'),
    secretAccessKey: need(e.PINPOINT_S3_SECRET_ACCESS_KEY, 'PINPOINT_S3_SECRET_ACCESS_KEY'),
  };
}

function ocrLangsOf(value: string): { ocrLangs?: string[] } {
  const langs = value.split(/[+,]/).filter(Boolean);
  return langs.length > 0 ? { ocrLangs: langs } : {};
}

function deepFreeze<T>(value: T): T {
  if (value && typeof value === 'object') {
    for (const v of Object.values(value)) deepFreeze(v);
    Object.freeze(value);
  }
  return value;
}

/** Reads and validates the worker's settings; throws PP_CONFIG_INVALID naming the setting. */
export function loadWorkerConfig(env: NodeJS.ProcessEnv = process.env): WorkerConfig {
  const parsed = envSchema.safeParse(env);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw createError('PP_CONFIG_INVALID', `Invalid setting ${issue?.path.join('.') ?? '?'}: ${issue?.message ?? 'invalid'}.`);
  }
  return deepFreeze(fromEnv(parsed.data));
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
