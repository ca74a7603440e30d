import { ANALYZER_ID, analyze } from '@pinpoint/analysis';
import { BullMQJobQueue } from '@pinpoint/bullmq';
import type { LexicalIndex } from '@pinpoint/core';
import type { EnginePorts } from '@pinpoint/engine';
import { PgLexicalIndex, PgMetadataStore } from '@pinpoint/postgres';
import { defaultTermWeight } from '@pinpoint/retrieval';
import { S3BlobStore } from '@pinpoint/s3';
import { FsBlobStore } from '@pinpoint/storage';
import { QdrantLexicalIndex } from '@pinpoint/vectors';
import type { WorkerConfig } from './config.js';
import { openModelPorts } from './models.js';

async function openLexical(config: WorkerConfig): Promise<LexicalIndex> {
  if (config.lexical.kind === 'qdrant') {
    const { url, apiKey } = config.models.qdrant;
    return QdrantLexicalIndex.open({
      url,
      collection: config.lexical.collection,
      analyze,
      analyzerId: ANALYZER_ID,
      termWeight: defaultTermWeight,
      ...(apiKey ? { apiKey } : {}),
    });
  }
  return PgLexicalIndex.open({
    connectionString: config.databaseUrl,
    schema: config.pgSchema,
    analyzer: { id: ANALYZER_ID, analyze },
    termWeight: defaultTermWeight,
  });
}

/** The distributed adapters: PostgreSQL metadata and lexical index, blobs on the shared volume, BullMQ on Redis, vectors in Qdrant. */
export async function openDistributedPorts(
  config: WorkerConfig,
  onError: (err: Error) => void,
): Promise<EnginePorts & { queue: BullMQJobQueue }> {
  const connection = { connectionString: config.databaseUrl, schema: config.pgSchema };
  const metadata = await PgMetadataStore.open(connection);
  const lexical = await openLexical(config);
  const q = config.queue;
  const queue = new BullMQJobQueue({
    redisUrl: config.redisUrl,
    queueName: q.name,
    prefix: q.prefix,
    maxAttempts: q.maxAttempts,
    backoffMs: q.backoffMs,
    lockDurationMs: q.lockDurationMs,
    stalledIntervalMs: q.stalledIntervalMs,
    maxStalledCount: q.maxStalledCount,
    rateLimitMs: q.rateLimitMs,
    drainTimeoutMs: q.drainTimeoutMs,
    onError,
  });
  const models = await openModelPorts(config.models);
  const blobs = config.blobs.kind === 's3' ? new S3BlobStore(config.blobs) : new FsBlobStore(config.blobDir);
  return { ...models, metadata, lexical, queue, blobs };
}
