import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Engine } from '@pinpoint/engine';
import { createEngine, createModelPorts, signingSecretIn } from '@pinpoint/engine';
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
  return signingSecretIn(config.dataDir, config.signing.secret);
}
