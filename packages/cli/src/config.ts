import { isAbsolute, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import type { BlobsConfig, ModelsConfig } from '@pinpoint/compose';
import {
  answerEnvShape,
  blobsFromEnv,
  distributedEnvShape,
  gateFromEnv,
  modelsEnvShape,
  modelsFromEnv,
  parseConfigFromEnv,
  parseEnv,
  parseEnvShape,
} from '@pinpoint/compose';
import type { Role } from '@pinpoint/core';
import { createError, roleSchema } from '@pinpoint/core';
import type { EngineConfig } from '@pinpoint/engine';
import { defaultEngineConfig } from '@pinpoint/engine';
import { publicUrlEnvShape, publicUrlOf } from '@pinpoint/mcp';
import { z } from 'zod';
import { CLI_OPTIONS, UsageError } from './usage.js';

/** The CLI's only reader of process.env and argv: PINPOINT_* variables (as the server's) and flags. */
const envSchema = z.object({
  PINPOINT_DATA_DIR: z.string().min(1).default('./data'),
  ...parseEnvShape,
  PINPOINT_MAX_UPLOAD_MB: z.coerce.number().positive().default(100),
  /** Uploads are refused while less than this is free on the data folder's disk (room to ingest what was accepted). */
  PINPOINT_MIN_FREE_MB: z.coerce.number().min(0).default(512),
  PINPOINT_WORKER_CONCURRENCY: z.coerce.number().int().min(1).max(16).default(1),
  PINPOINT_RETRIEVAL_K: z.coerce.number().int().min(1).max(1000).default(50),
  ...modelsEnvShape,
  ...answerEnvShape,
  ...publicUrlEnvShape,
  /** The server's port: `mcp` links point at it unless PINPOINT_PUBLIC_URL says otherwise. */
  PINPOINT_PORT: z.coerce.number().int().min(0).max(65535).default(8080),
  /** `mcp`: download links are signed as the server signs them (same secret, same lifetime). */
  PINPOINT_SIGNING_SECRET: z.string().min(16).optional(),
  PINPOINT_SIGNED_URL_TTL_SECONDS: z.coerce.number().int().positive().default(900),
  /** `users` / `tokens`: the distributed mode keeps users and tokens in PostgreSQL, as its server does. */
  PINPOINT_MODE: z.enum(['embedded', 'distributed']).default('embedded'),
  PINPOINT_DATABASE_URL: distributedEnvShape.PINPOINT_DATABASE_URL,
  PINPOINT_PG_SCHEMA: distributedEnvShape.PINPOINT_PG_SCHEMA,
  PINPOINT_LEXICAL: distributedEnvShape.PINPOINT_LEXICAL,
  PINPOINT_BLOBS: distributedEnvShape.PINPOINT_BLOBS,
  PINPOINT_BLOB_DIR: z.string().min(1).optional(),
  PINPOINT_S3_ENDPOINT: distributedEnvShape.PINPOINT_S3_ENDPOINT,
  PINPOINT_S3_BUCKET: distributedEnvShape.PINPOINT_S3_BUCKET,
  PINPOINT_S3_PREFIX: distributedEnvShape.PINPOINT_S3_PREFIX,
  PINPOINT_S3_REGION: distributedEnvShape.PINPOINT_S3_REGION,
  PINPOINT_S3_ACCESS_KEY_ID: distributedEnvShape.PINPOINT_S3_ACCESS_KEY_ID,
  PINPOINT_S3_SECRET_ACCESS_KEY: distributedEnvShape.PINPOINT_S3_SECRET_ACCESS_KEY,
  /** `mcp`: with auth on, the tools act as the user of this API token. */
  PINPOINT_AUTH: z.enum(['on', 'off']).optional(),
  PINPOINT_TOKEN: z.string().min(1).optional(),
  /** `invite`: how long the link can be accepted, as the server's setting. */
  PINPOINT_INVITE_TTL_HOURS: z.coerce
    .number()
    .positive()
    .max(24 * 90)
    .default(168),
  /** Set by pnpm to the folder the command was typed in; relative paths are taken from there. */
  INIT_CWD: z.string().optional(),
});

export interface CliConfig {
  command: string | undefined;
  /** The arguments as given, for result files that name the command that measured them. */
  argv: string[];
  args: string[];
  flags: {
    json: boolean;
    showSources: boolean;
    collection: string;
    out?: string;
    /** eval: write the run's figures as a result file for the benchmarks page (results/eval/<set>.json). */
    record: boolean;
    /** eval --record: a line the benchmarks page shows under the set's figures. */
    note?: string;
    mode?: string;
    k: number;
    /** calibrate: each dataset keeps at least this share of its answerable questions answered. */
    minAnswered: number;
    /** calibrate: a set's own share in place of minAnswered, by set name (`--min-answered financebench-dev=0.85`). */
    minAnsweredSets: Record<string, number>;
    /** eval: ask this other set's questions of the dataset's documents as off-topic ones. */
    offtopicFrom?: string;
    /** calibrate: off-topic sets to add, each `BASE=OTHER` (OTHER's questions on BASE's documents). */
    offtopic: { base: string; other: string }[];
    /** calibrate: balanced accuracy a set keeps when the fit can, by set name (`jsquad-dev`, off-topic `jsquad-dev+jaquad-dev`). */
    floors: Record<string, number>;
    /** verify: rebuild the indexes and re-queue stuck jobs. */
    repair: boolean;
    /** users add: an instance admin. */
    admin: boolean;
    /** users add: read the password from standard input. */
    passwordStdin: boolean;
    /** tokens create: the token's name. */
    name?: string;
    /** invite: the role the invitee gets in the collection. */
    role: Role;
  };
  dataDir: string;
  concurrency: number;
  engine: EngineConfig;
  /**
   * The model providers, from the server's PINPOINT_* variables: ingest, ask and search run with all
   * of them (as the server does on the same data folder); eval with those its --mode needs (lexical: none).
   */
  models: ModelsConfig;
  /** `mcp`: where people reach the web app, the origin of the links the tools hand out. */
  publicUrl: string;
  /** `mcp`: the server's signing secret (PINPOINT_SIGNING_SECRET, else the data folder's key) and link lifetime. */
  signing: { secret?: string; ttlSeconds: number };
  /** `invite`: seconds until an invitation link expires (PINPOINT_INVITE_TTL_HOURS). */
  inviteTtlSeconds: number;
  /** `mcp`: whose permissions the tools have: the user of `token`, required when auth is on; the local user otherwise. */
  mcpAuth: { required: boolean; token?: string };
  /**
   * Where users and tokens live: the data folder's metadata database (embedded), or the PostgreSQL
   * schema of a distributed deployment (PINPOINT_MODE=distributed).
   */
  accounts: { kind: 'embedded' } | { kind: 'distributed'; databaseUrl: string; pgSchema: string };
  /** `verify` in distributed mode: where the blobs and the lexical index live (as the server has them). */
  distributed: { blobs: BlobsConfig; blobDir: string; lexical: 'postgres' | 'qdrant' };
  /** Turns a path typed by the user into an absolute one. */
  resolvePath(path: string): string;
}

const MODES = ['lexical', 'dense', 'hybrid', 'hybrid+rerank'] as const;
type EvalMode = (typeof MODES)[number];
const NONE = { kind: 'none' } as const;

/**
 * The models a mode runs with: lexical none, dense and hybrid the embedder, hybrid+rerank also the
 * reranker. A mode whose model is not configured is refused, so a run file never records a mode that
 * did not run.
 */
function modelsForMode(mode: string, m: ModelsConfig): ModelsConfig {
  if (!(MODES as readonly string[]).includes(mode)) {
    throw createError('PP_CONFIG_INVALID', `Unknown --mode ${mode}: use one of ${MODES.join(', ')}.`);
  }
  if (mode === 'lexical') return { ...m, embedder: NONE, generator: NONE, reranker: NONE };
  if (m.embedder.kind === 'none') {
    throw createError('PP_CONFIG_INVALID', `--mode ${mode} needs an embedder: set PINPOINT_EMBEDDER (gemini, ollama or onnx).`);
  }
  if (mode !== 'hybrid+rerank') return { ...m, generator: NONE, reranker: NONE };
  if (m.reranker.kind === 'none') {
    throw createError('PP_CONFIG_INVALID', '--mode hybrid+rerank needs a reranker: set PINPOINT_RERANKER (onnx or llm).');
  }
  // The LLM reranker needs the generator; otherwise eval measures extractive answers.
  return m.reranker.kind === 'llm' ? m : { ...m, generator: NONE };
}

/** `--min-answered SHARE` for every set, `--min-answered SET=SHARE` for one set (repeatable; the last bare share wins). */
function minAnsweredOf(values: string[]): { all: number; sets: Record<string, number> } {
  let all = 0.91;
  const sets: Record<string, number> = {};
  for (const value of values) {
    const at = value.lastIndexOf('=');
    const n = Number(value.slice(at + 1));
    if (!(n > 0 && n <= 1) || at === 0) {
      throw createError(
        'PP_CONFIG_INVALID',
        `--min-answered ${value}: give a share between 0 and 1, or SET=SHARE for one set (financebench-dev=0.85).`,
      );
    }
    if (at < 0) all = n;
    else sets[value.slice(0, at)] = n;
  }
  return { all, sets };
}

/**
 * The flags and positionals of `argv`. An unknown option, or one without its value, is a
 * UsageError (PP_VALIDATION) naming it, with the usage of the command it was given to.
 */
function parseCommandLine(argv: string[]) {
  try {
    return parseArgs({ args: argv, options: CLI_OPTIONS, allowPositionals: true, strict: true });
  } catch (err) {
    const { positionals } = parseArgs({ args: argv, options: CLI_OPTIONS, allowPositionals: true, strict: false });
    const command = positionals[0];
    const code = (err as { code?: string }).code;
    const option = /'(-[^' ]*)/.exec(err instanceof Error ? err.message : '')?.[1] ?? '';
    const where = command ? ` for 'pinpoint ${command}'` : '';
    if (code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION') throw new UsageError(`Unknown option '${option}'${where}.`, command);
    if (code === 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE')
      throw new UsageError(`Option '${option}' needs a value${where}.`, command);
    throw new UsageError(err instanceof Error ? err.message : String(err), command);
  }
}

function offtopicPair(value: string, resolvePath: (p: string) => string): { base: string; other: string } {
  const [base, other, ...rest] = value.split('=');
  if (!base || !other || rest.length > 0) {
    throw createError('PP_CONFIG_INVALID', `--offtopic ${value}: give BASE=OTHER, two dataset folders.`);
  }
  return { base: resolvePath(base), other: resolvePath(other) };
}

function roleOf(value: string): Role {
  const role = roleSchema.safeParse(value);
  if (!role.success) throw createError('PP_VALIDATION', `--role ${value}: use viewer, editor or admin.`);
  return role.data;
}

function floorOf(value: string): [string, number] {
  const at = value.lastIndexOf('=');
  const n = Number(value.slice(at + 1));
  if (at <= 0 || !(n > 0 && n <= 1)) {
    throw createError(
      'PP_CONFIG_INVALID',
      `--floor ${value}: give SET=SHARE, e.g. jsquad-dev=0.8 or jsquad-dev+jaquad-dev=0.95.`,
    );
  }
  return [value.slice(0, at), n];
}

export function loadCliConfig(argv: string[] = process.argv.slice(2), env: NodeJS.ProcessEnv = process.env): CliConfig {
  const { values, positionals } = parseCommandLine(argv);
  const e = parseEnv(envSchema, env);
  const mode = (values.mode ?? 'lexical') as EvalMode;
  const configured = modelsFromEnv(e);
  const evaluates = positionals[0] === 'eval' || positionals[0] === 'calibrate';
  const models = evaluates ? modelsForMode(mode, configured) : configured;
  const base = e.INIT_CWD ?? process.cwd();
  const resolvePath = (p: string): string => (isAbsolute(p) ? p : resolve(base, p));
  return {
    command: positionals[0],
    argv,
    args: positionals.slice(1),
    flags: {
      json: values.json,
      showSources: values['show-sources'],
      collection: values.collection,
      ...(values.out ? { out: resolvePath(values.out) } : {}),
      record: values.record,
      ...(values.note ? { note: values.note } : {}),
      ...(values.mode ? { mode: values.mode } : {}),
      k: Number(values.k) || 10,
      minAnswered: minAnsweredOf(values['min-answered']).all,
      minAnsweredSets: minAnsweredOf(values['min-answered']).sets,
      ...(values['offtopic-from'] ? { offtopicFrom: resolvePath(values['offtopic-from']) } : {}),
      offtopic: values.offtopic.map((v) => offtopicPair(v, resolvePath)),
      floors: Object.fromEntries(values.floor.map(floorOf)),
      admin: values.admin,
      repair: values.repair,
      passwordStdin: values['password-stdin'],
      ...(values.name ? { name: values.name } : {}),
      role: roleOf(values.role),
    },
    dataDir: resolvePath(values['data-dir'] ?? e.PINPOINT_DATA_DIR),
    concurrency: e.PINPOINT_WORKER_CONCURRENCY,
    engine: {
      ...defaultEngineConfig,
      parse: parseConfigFromEnv(e),
      retrieval: {
        ...defaultEngineConfig.retrieval,
        k: e.PINPOINT_RETRIEVAL_K,
        ...(mode === 'dense' ? { lexical: false } : {}),
      },
      maxUploadBytes: Math.round(e.PINPOINT_MAX_UPLOAD_MB * 1024 * 1024),
      minFreeBytes: Math.round(e.PINPOINT_MIN_FREE_MB * 1024 * 1024),
      ...gateFromEnv(e, resolvePath),
    },
    models,
    publicUrl: publicUrlOf(e.PINPOINT_PUBLIC_URL, { host: 'localhost', port: e.PINPOINT_PORT }),
    signing: {
      ...(e.PINPOINT_SIGNING_SECRET ? { secret: e.PINPOINT_SIGNING_SECRET } : {}),
      ttlSeconds: e.PINPOINT_SIGNED_URL_TTL_SECONDS,
    },
    inviteTtlSeconds: Math.round(e.PINPOINT_INVITE_TTL_HOURS * 3600),
    mcpAuth: { required: e.PINPOINT_AUTH === 'on', ...(e.PINPOINT_TOKEN ? { token: e.PINPOINT_TOKEN } : {}) },
    accounts:
      e.PINPOINT_MODE === 'distributed'
        ? { kind: 'distributed', databaseUrl: e.PINPOINT_DATABASE_URL, pgSchema: e.PINPOINT_PG_SCHEMA }
        : { kind: 'embedded' },
    distributed: {
      blobs: e.PINPOINT_MODE === 'distributed' ? blobsFromEnv(e) : { kind: 'fs' },
      blobDir: resolvePath(e.PINPOINT_BLOB_DIR ?? `${e.PINPOINT_DATA_DIR}/blobs`),
      lexical: e.PINPOINT_LEXICAL,
    },
    resolvePath,
  };
}
