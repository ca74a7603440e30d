import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { ModelPorts } from '@pinpoint/compose';
import type { Engine, EngineConfig } from '@pinpoint/engine';
import { createEngine } from '@pinpoint/engine';
import { openLexicalIndex } from '@pinpoint/retrieval';
import { FsBlobStore, SqliteJobQueue, SqliteMetadataStore } from '@pinpoint/storage';

/** The same embedded composition as the server's, on a data folder (the server may run on it at the same time). */
export function openEmbeddedEngine(dataDir: string, config: EngineConfig, models: ModelPorts = {}): Engine {
  mkdirSync(dataDir, { recursive: true });
  return createEngine(config, {
    ...models,
    metadata: new SqliteMetadataStore(join(dataDir, 'metadata.db')),
    blobs: new FsBlobStore(join(dataDir, 'blobs')),
    queue: new SqliteJobQueue({ path: join(dataDir, 'jobs.db'), pollMs: 50 }),
    lexical: openLexicalIndex(join(dataDir, 'lexical.db')),
  });
}
