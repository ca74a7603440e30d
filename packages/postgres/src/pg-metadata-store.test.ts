import { randomUUID } from 'node:crypto';
import { describeAccessStoreConformance, describeMetadataStoreConformance } from '@pinpoint/conformance';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { loadMigrations } from './migrate.js';
import { PgAccessStore } from './pg-access-store.js';
import { PgMetadataStore } from './pg-metadata-store.js';
import { dropSchema } from './schema.js';

const DATABASE_URL = 'postgres://postgres@127.0.0.1:5432/test';
const uniqueSchema = () => `pp_test_${randomUUID().replaceAll('-', '').slice(0, 16)}`;

describeMetadataStoreConformance('PgMetadataStore', async () => {
  const schema = uniqueSchema();
  const store = await PgMetadataStore.open({ connectionString: DATABASE_URL, schema });
  return {
    port: store,
    dispose: async () => {
      await store.close();
      await dropSchema(DATABASE_URL, schema);
    },
  };
});

describeAccessStoreConformance('PgAccessStore', async () => {
  const schema = uniqueSchema();
  const store = await PgAccessStore.open({ connectionString: DATABASE_URL, schema });
  return {
    port: store,
    dispose: async () => {
      await store.close();
      await dropSchema(DATABASE_URL, schema);
    },
  };
});

describe('PgMetadataStore migrations', () => {
  const schema = uniqueSchema();
  afterAll(() => dropSchema(DATABASE_URL, schema));

  it('applies numbered migrations once, even when several processes open the store together', async () => {
    const stores = await Promise.all([1, 2, 3].map(() => PgMetadataStore.open({ connectionString: DATABASE_URL, schema })));
    await Promise.all(stores.map((s) => s.close()));
    const client = new pg.Client({ connectionString: DATABASE_URL });
    await client.connect();
    try {
      const { rows } = await client.query(`SELECT id, name FROM "${schema}".schema_migrations ORDER BY id`);
      expect(rows).toEqual((await loadMigrations()).map((m) => ({ id: m.id, name: m.name })));
    } finally {
      await client.end();
    }
  });

  it('rejects schema names that are not plain identifiers', async () => {
    await expect(PgMetadataStore.open({ connectionString: DATABASE_URL, schema: 'x"; drop' })).rejects.toMatchObject({
      code: 'PP_CONFIG_INVALID',
    });
  });
});
