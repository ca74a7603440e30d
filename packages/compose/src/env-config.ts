import { createError } from '@pinpoint/core';
import type { EngineConfig } from '@pinpoint/engine';
import { loadGateFile } from '@pinpoint/engine';
import { z } from 'zod';

/**
 * The PINPOINT_* settings the server, the worker and the CLI share: schema pieces each config.ts
 * merges into its own schema, and builders that take the parsed values (never process.env).
 */
export const envBool = z.enum(['true', 'false', '1', '0']).transform((v) => v === 'true' || v === '1');

/** Parsing: isolation, OCR and office conversion. */
export const parseEnvShape = {
  PINPOINT_PARSE_ISOLATE: envBool.default(true),
  PINPOINT_PARSE_TIMEOUT_MS: z.coerce.number().int().positive().default(120_000),
  PINPOINT_PARSE_MEMORY_MB: z.coerce.number().int().min(64).default(1024),
  PINPOINT_OCR: z.enum(['none', 'tesseract-cli']).default('tesseract-cli'),
  /** Empty = automatic language choice by the OCR engine. */
  PINPOINT_OCR_LANGS: z.string().default(''),
  PINPOINT_OFFICE_CONVERTER: z.enum(['none', 'libreoffice']).default('libreoffice'),
  /** One conversion's limit: this base plus the per-MB share of the file's size. */
  PINPOINT_CONVERT_TIMEOUT_MS: z.coerce.number().int().positive().default(30_000),
  PINPOINT_CONVERT_TIMEOUT_MS_PER_MB: z.coerce.number().int().min(0).default(10_000),
};
type ParseEnv = z.infer<z.ZodObject<typeof parseEnvShape>>;

/** Answering: a calibrated refusal gate written by `pinpoint calibrate` (absent: the built-in one). */
export const answerEnvShape = {
  PINPOINT_GATE_FILE: z.string().min(1).optional(),
};
type AnswerEnv = z.infer<z.ZodObject<typeof answerEnvShape>>;

/** The engine's `gate` from PINPOINT_GATE_FILE, read and validated once at start-up; none without one. */
export function gateFromEnv(e: AnswerEnv, resolvePath: (p: string) => string = (p) => p): Pick<EngineConfig, 'gate'> {
  if (!e.PINPOINT_GATE_FILE) return {};
  const { gate, calibration } = loadGateFile(resolvePath(e.PINPOINT_GATE_FILE));
  return { gate: { config: gate, calibration } };
}

/** Distributed mode: Redis, PostgreSQL, where the lexical index and the blobs live. */
export const distributedEnvShape = {
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
  PINPOINT_LEXICAL: z.enum(['postgres', 'qdrant']).default('postgres'),
  PINPOINT_QDRANT_LEXICAL_COLLECTION: z.string().min(1).default('pinpoint_lexical'),
  PINPOINT_BLOBS: z.enum(['fs', 's3']).default('fs'),
  PINPOINT_S3_ENDPOINT: z.url().optional(),
  PINPOINT_S3_BUCKET: z.string().min(1).optional(),
  PINPOINT_S3_PREFIX: z.string().default(''),
  PINPOINT_S3_REGION: z.string().min(1).default('us-east-1'),
  PINPOINT_S3_ACCESS_KEY_ID: z.string().min(1).optional(),
  PINPOINT_S3_SECRET_ACCESS_KEY: z.string().min(1).optional(),
};
type DistributedEnv = z.infer<z.ZodObject<typeof distributedEnvShape>>;

export type BlobsConfig =
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

/** PINPOINT_BLOBS=s3 and its PINPOINT_S3_* settings; each one it needs is named when missing. */
export function blobsFromEnv(
  e: Pick<DistributedEnv, 'PINPOINT_BLOBS' | (`PINPOINT_S3_${string}` & keyof DistributedEnv)>,
): BlobsConfig {
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

/** The engine's parse settings (isolation limits, OCR languages, capabilities) from the parsed variables. */
export function parseConfigFromEnv(e: ParseEnv): EngineConfig['parse'] {
  const langs = e.PINPOINT_OCR_LANGS.split(/[+,]/).filter(Boolean);
  return {
    isolate: e.PINPOINT_PARSE_ISOLATE,
    timeoutMs: e.PINPOINT_PARSE_TIMEOUT_MS,
    maxOldSpaceMb: e.PINPOINT_PARSE_MEMORY_MB,
    ...(langs.length > 0 ? { ocrLangs: langs } : {}),
    capabilities: {
      ...(e.PINPOINT_OCR !== 'none' ? { ocr: { engine: e.PINPOINT_OCR } } : {}),
      ...(e.PINPOINT_OFFICE_CONVERTER !== 'none'
        ? {
            convert: {
              engine: e.PINPOINT_OFFICE_CONVERTER,
              timeoutMs: e.PINPOINT_CONVERT_TIMEOUT_MS,
              timeoutMsPerMb: e.PINPOINT_CONVERT_TIMEOUT_MS_PER_MB,
            },
          }
        : {}),
    },
  };
}

/** Validates the variables against a schema; throws PP_CONFIG_INVALID naming the first bad setting. */
export function parseEnv<S extends z.ZodType>(schema: S, env: unknown): z.output<S> {
  const parsed = schema.safeParse(env);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw createError('PP_CONFIG_INVALID', `Invalid setting ${issue?.path.join('.') ?? '?'}: ${issue?.message ?? 'invalid'}.`);
  }
  return parsed.data;
}

/** Freezes a configuration object and everything in it. */
export function deepFreeze<T>(value: T): T {
  if (value && typeof value === 'object') {
    for (const v of Object.values(value)) deepFreeze(v);
    Object.freeze(value);
  }
  return value;
}
