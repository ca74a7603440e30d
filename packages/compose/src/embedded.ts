import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { EnginePorts } from '@pinpoint/engine';
import { openLexicalIndex } from '@pinpoint/retrieval';
import type { SqliteJobQueueOptions } from '@pinpoint/storage';
import { FsBlobStore, SqliteJobQueue, SqliteMetadataStore } from '@pinpoint/storage';
import type { ModelPorts } from './models.js';

/**
 * The embedded adapters on one data folder: SQLite metadata and job table, blobs on disk, the
 * on-disk lexical index, plus the model ports given. The server and the CLI open the same folder
 * this way (at the same time, too: SQLite arbitrates).
 */
export function openEmbeddedPorts(
  dataDir: string,
  models: ModelPorts = {},
  queue: Omit<SqliteJobQueueOptions, 'path'> = {},
): EnginePorts {
  mkdirSync(dataDir, { recursive: true });
  return {
    ...models,
    metadata: new SqliteMetadataStore(join(dataDir, 'metadata.db')),
    blobs: new FsBlobStore(join(dataDir, 'blobs')),
    queue: new SqliteJobQueue({ ...queue, path: join(dataDir, 'jobs.db') }),
    lexical: openLexicalIndex(join(dataDir, 'lexical.db'), { analysisThread: true, mergeThread: true }),
    dataDir,
  };
}
