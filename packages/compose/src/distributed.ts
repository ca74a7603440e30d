import { mkdirSync } from 'node:fs';
import { ANALYZER_ID, analyze } from '@pinpoint/analysis';
import type { BullMQJobQueueOptions } from '@pinpoint/bullmq';
import { BullMQJobQueue } from '@pinpoint/bullmq';
import type { LexicalIndex } from '@pinpoint/core';
import type { EnginePorts } from '@pinpoint/engine';
import { PgLexicalIndex, PgMetadataStore } from '@pinpoint/postgres';
import { defaultTermWeight } from '@pinpoint/retrieval';
import type { S3BlobStoreOptions } from '@pinpoint/s3';
import { S3BlobStore } from '@pinpoint/s3';
import { FsBlobStore } from '@pinpoint/storage';
import { QdrantLexicalIndex } from '@pinpoint/vectors';
import type { ModelPorts } from './models.js';

/** Where the distributed adapters live, as the API and the worker configure them. */
export interface DistributedPortsConfig {
  databaseUrl: string;
  pgSchema: string;
  /** The lexical index in PostgreSQL (BM25 in SQL, as embedded) or in Qdrant sparse vectors. */
  lexical: { kind: 'postgres' } | { kind: 'qdrant'; url: string; apiKey?: string; collection: string };
  /** Blobs on the volume every process mounts (blobDir) or in an S3-compatible bucket. */
  blobs: { kind: 'fs' } | ({ kind: 's3' } & S3BlobStoreOptions);
  blobDir: string;
  /** BullMQ on Redis: the queue name, prefix, retry and lock settings, and where its errors go. */
  queue: BullMQJobQueueOptions;
}

async function openLexical(config: DistributedPortsConfig): Promise<LexicalIndex> {
  if (config.lexical.kind === 'qdrant') {
    const { kind: _, ...qdrant } = config.lexical;
    return QdrantLexicalIndex.open({ ...qdrant, analyze, analyzerId: ANALYZER_ID, termWeight: defaultTermWeight });
  }
  return PgLexicalIndex.open({
    connectionString: config.databaseUrl,
    schema: config.pgSchema,
    analyzer: { id: ANALYZER_ID, analyze },
    termWeight: defaultTermWeight,
  });
}

/**
 * The distributed adapters: PostgreSQL metadata and lexical index (or Qdrant's), blobs on the
 * shared volume or S3, BullMQ on Redis, plus the model ports given (vectors in Qdrant). The API
 * only enqueues on them; services/worker runs the jobs.
 */
export async function openDistributedPorts(
  config: DistributedPortsConfig,
  models: ModelPorts = {},
): Promise<EnginePorts & { queue: BullMQJobQueue }> {
  mkdirSync(config.blobDir, { recursive: true });
  const metadata = await PgMetadataStore.open({ connectionString: config.databaseUrl, schema: config.pgSchema });
  const lexical = await openLexical(config);
  const queue = new BullMQJobQueue(config.queue);
  const blobs = config.blobs.kind === 's3' ? new S3BlobStore(config.blobs) : new FsBlobStore(config.blobDir);
  // a full disk's messages and the upload reserve look at the shared volume, where files are written
  return { ...models, metadata, lexical, queue, blobs, ...(config.blobs.kind === 'fs' ? { dataDir: config.blobDir } : {}) };
}
