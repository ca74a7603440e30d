import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import type { BlobsConfig, ModelsConfig } from '@pinpoint/compose';
import {
  answerEnvShape,
  blobsFromEnv,
  deepFreeze,
  distributedEnvShape,
  envBool,
  gateFromEnv,
  modelsEnvShape,
  modelsFromEnv,
  parseConfigFromEnv,
  parseEnv,
  parseEnvShape,
} from '@pinpoint/compose';
import { createError } from '@pinpoint/core';
import type { EngineConfig } from '@pinpoint/engine';
import { publicUrlEnvShape, publicUrlOf } from '@pinpoint/mcp';
import { z } from 'zod';

/**
 * The only place that reads process.env (and argv): PINPOINT_* variables and flags, validated once
 * at start-up into a frozen Config. Flags win over variables. Every variable is listed in README.md or docs/.
 */
const envSchema = z.object({
  PINPOINT_DATA_DIR: z.string().min(1).default('./data'),
  PINPOINT_HOST: z.string().min(1).default('127.0.0.1'),
  PINPOINT_PORT: z.coerce.number().int().min(0).max(65535).default(8080),
  PINPOINT_LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  PINPOINT_WEB_DIST: z.string().min(1).default('web/dist'),
  PINPOINT_MAX_UPLOAD_MB: z.coerce.number().positive().default(100),
  /** Uploads are refused while less than this is free on the data folder's disk (room to ingest what was accepted). */
  PINPOINT_MIN_FREE_MB: z.coerce.number().min(0).default(512),
  PINPOINT_MAX_FILES_PER_UPLOAD: z.coerce.number().int().positive().default(100),
  ...parseEnvShape,
  PINPOINT_WORKER: envBool.default(true),
  PINPOINT_WORKER_CONCURRENCY: z.coerce.number().int().min(1).max(16).default(2),
  PINPOINT_JOB_MAX_ATTEMPTS: z.coerce.number().int().min(1).max(20).default(3),
  PINPOINT_JOB_BACKOFF_MS: z.coerce.number().int().min(1).default(1000),
  PINPOINT_RETRIEVAL_K: z.coerce.number().int().min(1).max(1000).default(50),
  PINPOINT_SIGNING_SECRET: z.string().min(16).optional(),
  PINPOINT_SIGNED_URL_TTL_SECONDS: z.coerce.number().int().positive().default(900),
  PINPOINT_SIGNING_PREVIOUS_SECRETS: z.string().optional(),
  PINPOINT_AUTH: z.enum(['on', 'off']).optional(),
  PINPOINT_ALLOWED_HOSTS: z.string().optional(),
  PINPOINT_SESSION_TTL_HOURS: z.coerce
    .number()
    .positive()
    .max(24 * 90)
    .default(168),
  PINPOINT_INVITE_TTL_HOURS: z.coerce
    .number()
    .positive()
    .max(24 * 90)
    .default(168),
  PINPOINT_TRUST_PROXY: envBool.default(false),
  PINPOINT_RATE_LIMIT_LOGIN: z.coerce.number().int().positive().default(10),
  PINPOINT_RATE_LIMIT_UPLOAD: z.coerce.number().int().positive().default(60),
  PINPOINT_RATE_LIMIT_ASK: z.coerce.number().int().positive().default(120),
  PINPOINT_HISTORY_RETENTION_DAYS: z.coerce.number().int().min(0).max(36_500).default(365),
  PINPOINT_DEFAULT_COLLECTION: z.string().min(1).default('default'),
  PINPOINT_MODE: z.enum(['embedded', 'distributed']).default('embedded'),
  ...distributedEnvShape,
  PINPOINT_BLOB_DIR: z.string().min(1).optional(),
  ...modelsEnvShape,
  ...answerEnvShape,
  ...publicUrlEnvShape,
});

export interface Config {
  dataDir: string;
  host: string;
  port: number;
  logLevel: z.infer<typeof envSchema>['PINPOINT_LOG_LEVEL'];
  webDist: string;
  maxFilesPerUpload: number;
  worker: { enabled: boolean; concurrency: number; maxAttempts: number; backoffMs: number };
  /**
   * HMAC secret for signed download URLs; when absent one is generated and kept in the data folder.
   * Previous secrets still verify (rotation): each URL names its key by id.
   */
  signing: { secret?: string; previous: string[]; ttlSeconds: number };
  /** Users, sessions and tokens (on), or the single local user of a loopback-only server (off). */
  auth: {
    enabled: boolean;
    /** Host names (no port) the server answers; others get 421. */
    allowedHosts: string[];
    sessionTtlSeconds: number;
    /** How long an invitation link can be accepted (PINPOINT_INVITE_TTL_HOURS, default a week). */
    inviteTtlSeconds: number;
    /** Behind a TLS-terminating proxy: trust X-Forwarded-Proto/For (cookies become Secure). */
    trustProxy: boolean;
    /** Per user (or address) and minute. */
    rateLimits: { login: number; upload: number; ask: number };
  };
  /** Question history (and its feedback) older than this many days is deleted, hourly; 0 keeps it forever. */
  historyRetentionDays: number;
  defaultCollection: string;
  /** Where people reach the web app (PINPOINT_PUBLIC_URL, else the listen address): the origin of links handed to agents. */
  publicUrl: string;
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
    blobs: BlobsConfig;
  };
}

const list = (v: string | undefined): string[] =>
  (v ?? '')
    .split(',')
    .map((x) => x.trim())
    .filter(Boolean);

/** 127.0.0.0/8, ::1 and localhost: the addresses only this machine can reach. */
function isLoopback(host: string): boolean {
  const h = host.replace(/^\[|\]$/g, '').toLowerCase();
  return h === 'localhost' || h === '::1' || /^127(\.\d{1,3}){3}$/.test(h);
}

/** Auth defaults to on, except for the embedded mode on a loopback address; off is refused elsewhere. */
function authFromEnv(e: z.infer<typeof envSchema>): Config['auth'] {
  const loopback = isLoopback(e.PINPOINT_HOST);
  const enabled = e.PINPOINT_AUTH ? e.PINPOINT_AUTH === 'on' : !(loopback && e.PINPOINT_MODE === 'embedded');
  if (!enabled && !loopback) {
    throw createError(
      'PP_CONFIG_INVALID',
      `PINPOINT_AUTH=off is allowed only on a loopback address; PINPOINT_HOST is ${e.PINPOINT_HOST}. Set PINPOINT_AUTH=on or listen on 127.0.0.1.`,
    );
  }
  for (const s of list(e.PINPOINT_SIGNING_PREVIOUS_SECRETS))
    if (s.length < 16)
      throw createError(
        'PP_CONFIG_INVALID',
        'Invalid setting PINPOINT_SIGNING_PREVIOUS_SECRETS: each secret needs ≥ 16 characters.',
      );
  const host = e.PINPOINT_HOST.replace(/^\[|\]$/g, '').toLowerCase();
  const wildcard = host === '0.0.0.0' || host === '::';
  const configured = list(e.PINPOINT_ALLOWED_HOSTS).map((h) => h.toLowerCase());
  return {
    enabled,
    allowedHosts: configured.length ? configured : [...new Set([...(wildcard ? [] : [host]), 'localhost', '127.0.0.1', '::1'])],
    sessionTtlSeconds: Math.round(e.PINPOINT_SESSION_TTL_HOURS * 3600),
    inviteTtlSeconds: Math.round(e.PINPOINT_INVITE_TTL_HOURS * 3600),
    trustProxy: e.PINPOINT_TRUST_PROXY,
    rateLimits: { login: e.PINPOINT_RATE_LIMIT_LOGIN, upload: e.PINPOINT_RATE_LIMIT_UPLOAD, ask: e.PINPOINT_RATE_LIMIT_ASK },
  };
}

const flagOptions = {
  'data-dir': { type: 'string' },
  host: { type: 'string' },
  port: { type: 'string' },
  'no-worker': { type: 'boolean' },
} as const;

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
      previous: list(e.PINPOINT_SIGNING_PREVIOUS_SECRETS),
      ttlSeconds: e.PINPOINT_SIGNED_URL_TTL_SECONDS,
    },
    auth: authFromEnv(e),
    historyRetentionDays: e.PINPOINT_HISTORY_RETENTION_DAYS,
    defaultCollection: e.PINPOINT_DEFAULT_COLLECTION,
    publicUrl: publicUrlOf(e.PINPOINT_PUBLIC_URL, { host: e.PINPOINT_HOST, port: e.PINPOINT_PORT }),
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
      blobs: blobsFromEnv(e),
    },
    engine: {
      parse: parseConfigFromEnv(e),
      chunk: {},
      retrieval: { k: e.PINPOINT_RETRIEVAL_K, answerChunks: 8 },
      maxUploadBytes: Math.round(e.PINPOINT_MAX_UPLOAD_MB * 1024 * 1024),
      minFreeBytes: Math.round(e.PINPOINT_MIN_FREE_MB * 1024 * 1024),
      ...gateFromEnv(e, (p) => resolve(p)),
    },
  };
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
  return deepFreeze(fromEnv(parseEnv(envSchema, merged)));
}

/** Settings for tests and tools: the defaults with a data folder, never touching process.env. */
export function configFor(dataDir: string, overrides: Record<string, string> = {}): Config {
  return loadConfig({ PINPOINT_DATA_DIR: dataDir, ...overrides }, []);
}
