import { openDistributedAccessStore, openEmbeddedAccessStore } from '@pinpoint/compose';
import type { AccessStore } from '@pinpoint/core';
import type { Config } from './config.js';

/** The AccessStore beside the metadata: the SQLite metadata file (embedded) or the PostgreSQL schema (distributed). */
export async function openAccessStore(config: Config): Promise<AccessStore> {
  if (config.mode === 'distributed') {
    return openDistributedAccessStore(config.distributed.databaseUrl, config.distributed.pgSchema);
  }
  return openEmbeddedAccessStore(config.dataDir);
}
