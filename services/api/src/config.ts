import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { createError } from '@pinpoint/core';
import type { EngineConfig, ModelsConfig } from '@pinpoint/engine';
import { modelsEnvShape, modelsFromEnv } from '@pinpoint/engine';
import { z } from 'zod';

/**
 * The only place that reads process.env (and argv): PINPOINT_* variables and flags, validated once
 * at start-up into a frozen Config. Flags win over variables. Every variable is listed in README.md.
 */
/** Empty = automatic language choice by the OCR engine. */
const ocrLangsOf = (v: string): { ocrLangs?: string[] } => {
  const langs = v.split(/[+,]/).filter(Boolean);
  return langs.length > 0 ? { ocrLangs: langs } : {};
};

const bool = z.enum(['true', 'false', '1', '0']).transform((v) => v === 'true' || v === '1');

const envSchema = z.object({
  PINPOINT_DATA_DIR: z.string().min(1).default('./data'),
  PINPOINT_HOST: z.string().min(1).default('127.0.0.1'),
  PINPOINT_PORT: z.coerce.number().int().min(0).max(65535).default(8080),
  PINPOINT_LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  PINPOINT_WEB_DIST: z.string().min(1).default('web/dist'),
  PINPOINT_MAX_UPLOAD_MB: z.coerce.number().positive().default(100),
  PINPOINT_MAX_FILES_PER_UPLOAD: z.coerce.number().int().positive().default(100),
  PINPOINT_PARSE_ISOLATE: bool.default(true),
  PINPOINT_PARSE_TIMEOUT_MS: z.coerce.number().int().positive().default(120_000),
  PINPOINT_PARSE_MEMORY_MB: z.coerce.number().int().min(64).default(1024),
  PINPOINT_OCR: z.enum(['none', 'tesseract-cli']).default('tesseract-cli'),
  PINPOINT_OCR_LANGS: z.string().default(''),
  PINPOINT_OFFICE_CONVERTER: z.enum(['none', 'libreoffice']).default('libreoffice'),
  PINPOINT_WORKER: bool.default(true),
  PINPOINT_WORKER_CONCURRENCY: z.coerce.number().int().min(1).max(16).default(2),
  PINPOINT_JOB_MAX_ATTEMPTS: z.coerce.number().int().min(1).max(20).default(3),
  PINPOINT_JOB_BACKOFF_MS: z.coerce.number().int().min(1).default(1000),
  PINPOINT_RETRIEVAL_K: z.coerce.number().int().min(1).max(1000).default(50),
  PINPOINT_SIGNING_SECRET: z.string().min(16).optional(),
  PINPOINT_SIGNED_URL_TTL_SECONDS: z.coerce.number().int().positive().default(900),
  PINPOINT_DEFAULT_COLLECTION: z.string().min(1).default('default'),
  PINPOINT_MODE: z.enum(['embedded', 'distributed']).default('embedded'),
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
  PINPOINT_QUEUE_NAME: z.string().min(1).default('pinpoint-ingest'),
  PINPOINT_QUEUE_PREFIX: z.string().min(1).default('pp'),
  PINPOINT_BLOB_DIR: z.string().min(1).optional(),
  PINPOINT_LEXICAL: z.enum(['postgres', 'qdrant']).default('postgres'),
  PINPOINT_QDRANT_LEXICAL_COLLECTION: z.string().min(1).default('pinpoint_lexical'),
  PINPOINT_BLOBS: z.enum(['fs', 's3']).default('fs'),
  PINPOINT_S3_ENDPOINT: z.url().optional(),
  PINPOINT_S3_BUCKET: z.string().min(1).optional(),
  PINPOINT_S3_PREFIX: z.string().default(''),
  PINPOINT_S3_REGION: z.string().min(1).default('us-east-1'),
  PINPOINT_S3_ACCESS_KEY_ID: z.string().min(1).optional(),
  PINPOINT_S3_SECRET_ACCESS_KEY: z.string().min(1).optional(),
  ...modelsEnvShape,
});

export interface Config {
  dataDir: string;
  host: string;
  port: number;
  logLevel: z.infer<typeof envSchema>['PINPOINT_LOG_LEVEL'];
  webDist: string;
  maxFilesPerUpload: number;
  worker: { enabled: boolean; concurrency: number; maxAttempts: number; backoffMs: number };
  /** HMAC secret for signed download URLs; when absent one is generated and kept in the data folder. */
  signing: { secret?: string; ttlSeconds: number };
  defaultCollection: string;
  engine: EngineConfig;
  /** embedded: SQLite + in-process worker; distributed: PostgreSQL + BullMQ (workers run as services/worker). */
  mode: 'embedded' | 'distributed';
  /** Optional model providers (embeddings, generation, reranking) and where vectors live; none by default. */
  models: ModelsConfig;
  distributed: {
    redisUrl: string;
    databaseUrl: string;
    pgSchema: string;
    queueName: string;
    queuePrefix: string;
    blobDir: string;
    /** distributed: the lexical index in PostgreSQL (BM25 in SQL) or in Qdrant sparse vectors. */
    lexical: { kind: 'postgres' } | { kind: 'qdrant'; url: string; apiKey?: string; collection: string };
    /** distributed: blobs on the shared volume (blobDir) or in an S3-compatible bucket. */
    blobs:
      | { kind: 'fs' }
      | {
          kind: 's3';
          endpoint: string;
          bucket: string;
          prefix: string;
          region: string;
          accessKeyId: string;
          secretAccessKey: string;
        };
  };
}

const flagOptions = {
  'data-dir': { type: 'string' },
  host: { type: 'string' },
  port: { type: 'string' },
  'no-worker': { type: 'boolean' },
} as const;

/** PINPOINT_BLOBS=s3 and its PINPOINT_S3_* settings (distributed mode). */
function s3BlobsFrom(e: z.infer<typeof envSchema>): Config['distributed']['blobs'] {
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

function fromEnv(e: z.infer<typeof envSchema>): Config {
  return {
    dataDir: resolve(e.PINPOINT_DATA_DIR),
    host: e.PINPOINT_HOST,
    port: e.PINPOINT_PORT,
    logLevel: e.PINPOINT_LOG_LEVEL,
    webDist: resolve(e.PINPOINT_WEB_DIST),
    maxFilesPerUpload: e.PINPOINT_MAX_FILES_PER_UPLOAD,
    worker: {
      enabled: e.PINPOINT_WORKER,
      concurrency: e.PINPOINT_WORKER_CONCURRENCY,
      maxAttempts: e.PINPOINT_JOB_MAX_ATTEMPTS,
      backoffMs: e.PINPOINT_JOB_BACKOFF_MS,
    },
    signing: {
      ...(e.PINPOINT_SIGNING_SECRET ? { secret: e.PINPOINT_SIGNING_SECRET } : {}),
      ttlSeconds: e.PINPOINT_SIGNED_URL_TTL_SECONDS,
    },
    defaultCollection: e.PINPOINT_DEFAULT_COLLECTION,
    mode: e.PINPOINT_MODE,
    models: modelsFromEnv(e),
    distributed: {
      redisUrl: e.PINPOINT_REDIS_URL,
      databaseUrl: e.PINPOINT_DATABASE_URL,
      pgSchema: e.PINPOINT_PG_SCHEMA,
      queueName: e.PINPOINT_QUEUE_NAME,
      queuePrefix: e.PINPOINT_QUEUE_PREFIX,
      blobDir: resolve(e.PINPOINT_BLOB_DIR ?? `${e.PINPOINT_DATA_DIR}/blobs`),
      lexical:
        e.PINPOINT_LEXICAL === 'qdrant'
          ? {
              kind: 'qdrant',
              url: e.PINPOINT_QDRANT_URL,
              collection: e.PINPOINT_QDRANT_LEXICAL_COLLECTION,
              ...(e.PINPOINT_QDRANT_API_KEY ? { apiKey: e.PINPOINT_QDRANT_API_KEY } : {}),
            }
          : { kind: 'postgres' },
      blobs: s3BlobsFrom(e),
    },
    engine: {
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
      chunk: {},
      retrieval: { k: e.PINPOINT_RETRIEVAL_K, answerChunks: 8 },
      maxUploadBytes: Math.round(e.PINPOINT_MAX_UPLOAD_MB * 1024 * 1024),
    },
  };
}

function deepFreeze<T>(value: T): T {
  if (value && typeof value === 'object') {
    for (const v of Object.values(value)) deepFreeze(v);
    Object.freeze(value);
  }
  return value;
}

/** Reads and validates the configuration; throws PP_CONFIG_INVALID naming the setting. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env, argv: string[] = process.argv.slice(2)): Config {
  const { values } = parseArgs({ args: argv, options: flagOptions, strict: false, allowPositionals: true });
  const merged = {
    ...env,
    ...(typeof values['data-dir'] === 'string' ? { PINPOINT_DATA_DIR: values['data-dir'] } : {}),
    ...(typeof values.host === 'string' ? { PINPOINT_HOST: values.host } : {}),
    ...(typeof values.port === 'string' ? { PINPOINT_PORT: values.port } : {}),
    ...(values['no-worker'] === true ? { PINPOINT_WORKER: 'false' } : {}),
  };
  const parsed = envSchema.safeParse(merged);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw createError('PP_CONFIG_INVALID', `Invalid setting ${issue?.path.join('.') ?? '?'}: ${issue?.message ?? 'invalid'}.`);
  }
  return deepFreeze(fromEnv(parsed.data));
}

/** Settings for tests and tools: the defaults with a data folder, never touching process.env. */
export function configFor(dataDir: string, overrides: Record<string, string> = {}): Config {
  return loadConfig({ PINPOINT_DATA_DIR: dataDir, ...overrides }, []);
}
