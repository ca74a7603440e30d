import { createModelPorts, openDistributedPorts } from '@pinpoint/compose';
import { createError } from '@pinpoint/core';
import type { Engine } from '@pinpoint/engine';
import { createEngine } from '@pinpoint/engine';
import type { Config } from './config.js';

/**
 * The distributed engine: PostgreSQL, BullMQ on Redis, blobs on the shared volume or S3, vectors
 * (with an embedder) in Qdrant, opened by @pinpoint/compose as the workers open them. The API
 * only enqueues; services/worker runs the jobs.
 */
export async function createDistributedEngine(config: Config, onError: (err: Error) => void): Promise<Engine> {
  const d = config.distributed;
  if (config.models.embedder.kind !== 'none' && config.models.vectors.kind !== 'qdrant') {
    throw createError(
      'PP_CONFIG_INVALID',
      'Set PINPOINT_VECTORS=qdrant: in distributed mode vectors must live where every process sees them.',
    );
  }
  const models = await createModelPorts(config.models, config.dataDir);
  const ports = await openDistributedPorts(
    {
      databaseUrl: d.databaseUrl,
      pgSchema: d.pgSchema,
      lexical: d.lexical,
      blobs: d.blobs,
      blobDir: d.blobDir,
      queue: {
        redisUrl: d.redisUrl,
        queueName: d.queueName,
        prefix: d.queuePrefix,
        maxAttempts: config.worker.maxAttempts,
        backoffMs: config.worker.backoffMs,
        onError,
      },
    },
    models,
  );
  return createEngine(config.engine, ports);
}
