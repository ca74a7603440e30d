import { join } from 'node:path';
import type { AccessStore, MetadataStore } from '@pinpoint/core';
import { PgAccessStore, PgMetadataStore } from '@pinpoint/postgres';
import { SqliteAccessStore, SqliteMetadataStore } from '@pinpoint/storage';

/** The AccessStore beside the embedded metadata: the data folder's SQLite metadata file. */
export function openEmbeddedAccessStore(dataDir: string): AccessStore {
  return new SqliteAccessStore(join(dataDir, 'metadata.db'));
}

/** The AccessStore beside the distributed metadata: the same PostgreSQL schema. */
export function openDistributedAccessStore(databaseUrl: string, pgSchema: string): Promise<AccessStore> {
  return PgAccessStore.open({ connectionString: databaseUrl, schema: pgSchema });
}

/** The metadata (collections, documents) of a data folder or a distributed schema, for tools beside the server. */
export async function openMetadataStore(
  accounts: { kind: 'embedded'; dataDir: string } | { kind: 'distributed'; databaseUrl: string; pgSchema: string },
): Promise<MetadataStore> {
  if (accounts.kind === 'distributed')
    return PgMetadataStore.open({ connectionString: accounts.databaseUrl, schema: accounts.pgSchema });
  return new SqliteMetadataStore(join(accounts.dataDir, 'metadata.db'));
}
