import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { BullMQJobQueue } from '@pinpoint/bullmq';
import type { AccessStore } from '@pinpoint/core';
import type { Engine } from '@pinpoint/engine';
import { dropSchema, PgLexicalIndex, setAutovacuum } from '@pinpoint/postgres';
import type { FastifyInstance } from 'fastify';
import { openAccessStore } from '../src/access.js';
import { buildApp } from '../src/app.js';
import { createDistributedEngine } from '../src/compose-distributed.js';
import { configFor } from '../src/config.js';
import { startTestApp } from './test-app.js';

/** A running API with auth on, for the access tests: the app, its AccessStore and a listening URL (event streams). */
export interface AuthDeployment {
  app: FastifyInstance;
  access: AccessStore;
  /** The engine behind the app, for checks on its ports (e.g. that a deleted blob is gone). */
  engine: Engine;
  url: string;
  /**
   * The work of the lexical index's last search: postings lists looked up, postings read and chunks
   * scored (embedded); the plan's shape and the rows and heap pages its scans read (PostgreSQL).
   */
  lexicalWork(): Record<string, number | string> | null;
  close(): Promise<void>;
}

const workOf = (lexical: unknown): Record<string, number | string> | null => {
  const work = (lexical as { lastWork?: Record<string, number | string> }).lastWork;
  return work ? { ...work } : null;
};

const DATABASE_URL = 'postgres://postgres@127.0.0.1:5432/test';

/** The embedded mode: SQLite, the in-process worker, the embedded vector store (with the given embedder settings). */
export async function embeddedAuthDeployment(env: Record<string, string>): Promise<AuthDeployment> {
  const t = await startTestApp({ PINPOINT_AUTH: 'on', ...env });
  const url = await t.app.listen({ host: '127.0.0.1', port: 0 });
  return {
    app: t.app,
    access: t.access,
    engine: t.engine,
    url,
    lexicalWork: () => workOf(t.engine.ports.lexical),
    close: () => t.close(),
  };
}

/** The distributed mode in one process: PostgreSQL (metadata, lexical, access), BullMQ on Redis, vectors in Qdrant. */
export async function distributedAuthDeployment(env: Record<string, string>): Promise<AuthDeployment> {
  const dir = mkdtempSync(join(tmpdir(), 'pp-dist-auth-'));
  const id = randomUUID().replaceAll('-', '').slice(0, 12);
  const config = configFor(join(dir, 'data'), {
    PINPOINT_MODE: 'distributed',
    PINPOINT_AUTH: 'on',
    PINPOINT_LOG_LEVEL: 'silent',
    PINPOINT_WEB_DIST: join(dir, 'no-web'),
    PINPOINT_JOB_BACKOFF_MS: '10',
    PINPOINT_DATABASE_URL: DATABASE_URL,
    PINPOINT_PG_SCHEMA: `pp_auth_${id}`,
    PINPOINT_QUEUE_NAME: `pp-auth-${id}`,
    PINPOINT_QUEUE_PREFIX: `pp-auth-${id}`,
    ...env,
  });
  const engine = await createDistributedEngine(config, () => undefined);
  if (engine.ports.lexical instanceof PgLexicalIndex) engine.ports.lexical.explainWork = true;
  // The test compares the heap pages a search visits before and after other documents arrive; vacuum
  // would change them on its own clock.
  await setAutovacuum(DATABASE_URL, config.distributed.pgSchema, false);
  const access = await openAccessStore(config);
  const app = await buildApp(config, { engine, access, signingSecret: 'distributed-test-secret-0123' });
  const runner = engine.startWorker({ concurrency: 2 });
  const url = await app.listen({ host: '127.0.0.1', port: 0 });
  return {
    app,
    access,
    engine,
    url,
    lexicalWork: () => workOf(engine.ports.lexical),
    close: async () => {
      await app.close();
      await runner.stop();
      await (engine.ports.queue as BullMQJobQueue).destroy().catch(() => undefined);
      await engine.close().catch(() => undefined);
      await access.close();
      await dropSchema(DATABASE_URL, config.distributed.pgSchema);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
