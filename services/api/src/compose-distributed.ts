import { mkdirSync } from 'node:fs';
import { ANALYZER_ID, analyze, termKind } from '@pinpoint/analysis';
import { BullMQJobQueue } from '@pinpoint/bullmq';
import { createModelPorts } from '@pinpoint/compose';
import type { LexicalIndex } from '@pinpoint/core';
import { createError } from '@pinpoint/core';
import type { Engine } from '@pinpoint/engine';
import { createEngine } from '@pinpoint/engine';
import { PgLexicalIndex, PgMetadataStore } from '@pinpoint/postgres';
import { DEFAULT_BM25 } from '@pinpoint/retrieval';
import { S3BlobStore } from '@pinpoint/s3';
import { FsBlobStore } from '@pinpoint/storage';
import { QdrantLexicalIndex } from '@pinpoint/vectors';
import type { Config } from './config.js';

async function openLexical(config: Config): Promise<LexicalIndex> {
  const d = config.distributed;
  if (d.lexical.kind === 'qdrant') {
    const { kind: _, ...qdrant } = d.lexical;
    return QdrantLexicalIndex.open({ ...qdrant, analyze, analyzerId: ANALYZER_ID });
  }
  return PgLexicalIndex.open({
    connectionString: d.databaseUrl,
    schema: d.pgSchema,
    analyzer: { id: ANALYZER_ID, analyze },
    termWeight: (term) => DEFAULT_BM25.weights[termKind(term)],
  });
}

/**
 * The distributed composition: PostgreSQL metadata and lexical index, blobs on the volume shared
 * with the workers, BullMQ on Redis, vectors (when an embedder is set) in Qdrant. The API only
 * enqueues; services/worker runs the jobs.
 */
export async function createDistributedEngine(config: Config, onError: (err: Error) => void): Promise<Engine> {
  const d = config.distributed;
  if (config.models.embedder.kind !== 'none' && config.models.vectors.kind !== 'qdrant') {
    throw createError(
      'PP_CONFIG_INVALID',
      'Set PINPOINT_VECTORS=qdrant: in distributed mode vectors must live where every process sees them.',
    );
  }
  mkdirSync(d.blobDir, { recursive: true });
  const connection = { connectionString: d.databaseUrl, schema: d.pgSchema };
  const metadata = await PgMetadataStore.open(connection);
  const lexical = await openLexical(config);
  const queue = new BullMQJobQueue({
    redisUrl: d.redisUrl,
    queueName: d.queueName,
    prefix: d.queuePrefix,
    maxAttempts: config.worker.maxAttempts,
    backoffMs: config.worker.backoffMs,
    onError,
  });
  const models = await createModelPorts(config.models, config.dataDir);
  return createEngine(config.engine, {
    ...models,
    metadata,
    lexical,
    queue,
    blobs: d.blobs.kind === 's3' ? new S3BlobStore(d.blobs) : new FsBlobStore(d.blobDir),
  });
}
