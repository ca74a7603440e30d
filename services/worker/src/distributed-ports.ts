import type { BullMQJobQueue } from '@pinpoint/bullmq';
import type { DistributedPortsConfig } from '@pinpoint/compose';
import { openDistributedPorts as openPorts } from '@pinpoint/compose';
import type { EnginePorts } from '@pinpoint/engine';
import type { WorkerConfig } from './config.js';
import { openModelPorts } from './models.js';

/** Where the worker's settings put each adapter, in @pinpoint/compose's terms (the API's are the same). */
function portsConfig(config: WorkerConfig, onError: (err: Error) => void): DistributedPortsConfig {
  const { url, apiKey } = config.models.qdrant;
  const q = config.queue;
  return {
    databaseUrl: config.databaseUrl,
    pgSchema: config.pgSchema,
    lexical:
      config.lexical.kind === 'qdrant'
        ? { kind: 'qdrant', url, collection: config.lexical.collection, ...(apiKey ? { apiKey } : {}) }
        : { kind: 'postgres' },
    blobs: config.blobs,
    blobDir: config.blobDir,
    queue: {
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
    },
  };
}

/** The distributed adapters (@pinpoint/compose) with the embedder and Qdrant store ingestion needs. */
export async function openDistributedPorts(
  config: WorkerConfig,
  onError: (err: Error) => void,
): Promise<EnginePorts & { queue: BullMQJobQueue }> {
  return openPorts(portsConfig(config, onError), await openModelPorts(config.models));
}
