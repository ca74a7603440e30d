import pg from 'pg';
import { quoteIdent } from './migrate.js';

/** Drops a schema and everything in it (tests and teardown of throw-away deployments). */
export async function dropSchema(connectionString: string, schema: string): Promise<void> {
  const client = new pg.Client({ connectionString });
  await client.connect();
  try {
    await client.query(`DROP SCHEMA IF EXISTS ${quoteIdent(schema)} CASCADE`);
  } finally {
    await client.end();
  }
}
