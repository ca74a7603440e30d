import { join } from 'node:path';
import type { AccessStore } from '@pinpoint/core';
import { PgAccessStore } from '@pinpoint/postgres';
import { SqliteAccessStore } from '@pinpoint/storage';
import type { Config } from './config.js';

/** The AccessStore beside the metadata: the SQLite metadata file (embedded) or the PostgreSQL schema (distributed). */
export async function openAccessStore(config: Config): Promise<AccessStore> {
  if (config.mode === 'distributed') {
    return PgAccessStore.open({ connectionString: config.distributed.databaseUrl, schema: config.distributed.pgSchema });
  }
  return new SqliteAccessStore(join(config.dataDir, 'metadata.db'));
}
