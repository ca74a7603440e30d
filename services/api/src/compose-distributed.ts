import { mkdirSync } from 'node:fs';
import { ANALYZER_ID, analyze } from '@pinpoint/analysis';
import { BullMQJobQueue } from '@pinpoint/bullmq';
import type { Engine } from '@pinpoint/engine';
import { createEngine } from '@pinpoint/engine';
import { PgLexicalIndex, PgMetadataStore } from '@pinpoint/postgres';
import { FsBlobStore } from '@pinpoint/storage';
import type { Config } from './config.js';

/**
 * The distributed composition: PostgreSQL metadata and lexical index, blobs on the volume shared
 * with the workers, BullMQ on Redis. The API only enqueues; services/worker runs the jobs.
 */
export async function createDistributedEngine(config: Config, onError: (err: Error) => void): Promise<Engine> {
  const d = config.distributed;
  mkdirSync(d.blobDir, { recursive: true });
  const connection = { connectionString: d.databaseUrl, schema: d.pgSchema };
  const metadata = await PgMetadataStore.open(connection);
  const lexical = await PgLexicalIndex.open({ ...connection, analyzer: { id: ANALYZER_ID, analyze } });
  const queue = new BullMQJobQueue({
    redisUrl: d.redisUrl,
    queueName: d.queueName,
    prefix: d.queuePrefix,
    maxAttempts: config.worker.maxAttempts,
    backoffMs: config.worker.backoffMs,
    onError,
  });
  return createEngine(config.engine, { metadata, lexical, queue, blobs: new FsBlobStore(d.blobDir) });
}
