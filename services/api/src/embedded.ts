import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createModelPorts } from '@pinpoint/compose';
import type { Engine } from '@pinpoint/engine';
import { createEngine } from '@pinpoint/engine';
import { openLexicalIndex } from '@pinpoint/retrieval';
import { FsBlobStore, SqliteJobQueue, SqliteMetadataStore } from '@pinpoint/storage';
import type { Config } from './config.js';

/** The embedded composition: SQLite metadata + job table, blobs in the data folder, the on-disk lexical index, optional models. */
export async function createEmbeddedEngine(config: Config): Promise<Engine> {
  mkdirSync(config.dataDir, { recursive: true });
  const models = await createModelPorts(config.models, config.dataDir);
  return createEngine(config.engine, {
    ...models,
    metadata: new SqliteMetadataStore(join(config.dataDir, 'metadata.db')),
    blobs: new FsBlobStore(join(config.dataDir, 'blobs')),
    queue: new SqliteJobQueue({
      path: join(config.dataDir, 'jobs.db'),
      maxAttempts: config.worker.maxAttempts,
      backoffMs: config.worker.backoffMs,
    }),
    lexical: openLexicalIndex(join(config.dataDir, 'lexical.db')),
  });
}

/** The signing secret: configured, or generated once and kept in the data folder so URLs survive restarts. */
export function signingSecret(config: Config): string {
  if (config.signing.secret) return config.signing.secret;
  const path = join(config.dataDir, 'signing.key');
  if (!existsSync(path)) {
    mkdirSync(config.dataDir, { recursive: true });
    writeFileSync(path, randomBytes(32).toString('hex'), { mode: 0o600, flag: 'wx' });
  }
  return readFileSync(path, 'utf8').trim();
}
