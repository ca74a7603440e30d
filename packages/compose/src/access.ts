import { join } from 'node:path';
import type { AccessStore } from '@pinpoint/core';
import { PgAccessStore } from '@pinpoint/postgres';
import { SqliteAccessStore } from '@pinpoint/storage';

/** The AccessStore beside the embedded metadata: the data folder's SQLite metadata file. */
export function openEmbeddedAccessStore(dataDir: string): AccessStore {
  return new SqliteAccessStore(join(dataDir, 'metadata.db'));
}

/** The AccessStore beside the distributed metadata: the same PostgreSQL schema. */
export function openDistributedAccessStore(databaseUrl: string, pgSchema: string): Promise<AccessStore> {
  return PgAccessStore.open({ connectionString: databaseUrl, schema: pgSchema });
}
