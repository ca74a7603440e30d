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

/** Bytes on disk of each table of a schema, with its indexes and TOAST (capacity planning). */
export async function tableSizes(connectionString: string, schema: string): Promise<Record<string, number>> {
  const client = new pg.Client({ connectionString });
  await client.connect();
  try {
    const { rows } = await client.query<{ name: string; bytes: string }>(
      `SELECT c.relname AS name, pg_total_relation_size(c.oid) AS bytes FROM pg_class c
       JOIN pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname = $1 AND c.relkind = 'r'`,
      [schema],
    );
    return Object.fromEntries(rows.map((r) => [r.name, Number(r.bytes)]));
  } finally {
    await client.end();
  }
}

/**
 * Turns autovacuum off (or back on) for every table of a schema. Tests that compare the work of two
 * reads (rows read, heap pages visited) use it: vacuum marks pages all-visible on its own clock, and
 * an index-only scan's heap visits change with it, whatever the data.
 */
export async function setAutovacuum(connectionString: string, schema: string, enabled: boolean): Promise<void> {
  const client = new pg.Client({ connectionString });
  await client.connect();
  try {
    const { rows } = await client.query<{ name: string }>(
      `SELECT c.relname AS name FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
       WHERE n.nspname = $1 AND c.relkind = 'r'`,
      [schema],
    );
    for (const { name } of rows) {
      await client.query(`ALTER TABLE ${quoteIdent(schema)}.${quoteIdent(name)} SET (autovacuum_enabled = ${enabled})`);
    }
  } finally {
    await client.end();
  }
}
