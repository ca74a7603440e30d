import { readdir, readFile } from 'node:fs/promises';
import { createError } from '@pinpoint/core';
import type { Pool } from 'pg';
import pg from 'pg';

const MIGRATIONS_DIR = new URL('./migrations/', import.meta.url);

export interface Migration {
  id: number;
  name: string;
  sql: string;
}

/** Numbered SQL files `NNN_name.sql`, in order. */
export async function loadMigrations(): Promise<Migration[]> {
  const files = (await readdir(MIGRATIONS_DIR)).filter((f) => /^\d{3}_[a-z0-9_]+\.sql$/.test(f)).sort();
  return Promise.all(
    files.map(async (file) => ({
      id: Number(file.slice(0, 3)),
      name: file.replace(/\.sql$/, ''),
      sql: await readFile(new URL(file, MIGRATIONS_DIR), 'utf8'),
    })),
  );
}

export function quoteIdent(name: string): string {
  if (!/^[a-z_][a-z0-9_]{0,62}$/.test(name)) {
    throw createError('PP_CONFIG_INVALID', `PostgreSQL schema name "${name}" must match [a-z_][a-z0-9_]*.`);
  }
  return `"${name}"`;
}

/**
 * Creates the schema and applies pending migrations, each in its own transaction, under an
 * advisory lock so that several processes starting together migrate once.
 */
async function migrate(pool: Pool, schema: string, migrations: Migration[]): Promise<number[]> {
  const client = await pool.connect();
  const applied: number[] = [];
  try {
    await client.query('SELECT pg_advisory_lock(hashtext($1))', [`pinpoint:${schema}`]);
    await client.query(`CREATE SCHEMA IF NOT EXISTS ${quoteIdent(schema)}`);
    await client.query(`SET search_path TO ${quoteIdent(schema)}`);
    await client.query(
      'CREATE TABLE IF NOT EXISTS schema_migrations (id integer PRIMARY KEY, name text NOT NULL, applied_at timestamptz NOT NULL DEFAULT now())',
    );
    const done = new Set((await client.query<{ id: number }>('SELECT id FROM schema_migrations')).rows.map((r) => r.id));
    for (const m of migrations) {
      if (done.has(m.id)) continue;
      await client.query('BEGIN');
      try {
        await client.query(m.sql);
        await client.query('INSERT INTO schema_migrations (id, name) VALUES ($1, $2)', [m.id, m.name]);
        await client.query('COMMIT');
        applied.push(m.id);
      } catch (err) {
        await client.query('ROLLBACK');
        throw createError('PP_INTERNAL', `PostgreSQL migration ${m.name} failed: ${(err as Error).message}`, err);
      }
    }
  } finally {
    await client.query('SELECT pg_advisory_unlock(hashtext($1))', [`pinpoint:${schema}`]).catch(() => undefined);
    client.release(true);
  }
  return applied;
}

/** A pool whose connections use the schema (search_path), with every migration applied; ended again if migrating fails. */
export async function openMigratedPool(
  options: { connectionString: string; schema?: string; poolSize?: number },
  defaultPoolSize: number,
): Promise<Pool> {
  const schema = options.schema ?? 'pinpoint';
  const pool = new pg.Pool({
    connectionString: options.connectionString,
    max: options.poolSize ?? defaultPoolSize,
    options: `-c search_path=${quoteIdent(schema)}`,
  });
  pool.on('error', () => undefined);
  try {
    await migrate(pool, schema, await loadMigrations());
  } catch (err) {
    await pool.end();
    throw err;
  }
  return pool;
}

/** Runs fn in one transaction on one connection: committed when it returns, rolled back when it throws. */
export async function inTransaction<T>(pool: Pool, fn: (client: pg.PoolClient) => Promise<T>): Promise<T> {
  const client = await pool.connect();
  try {
    await client.query('BEGIN');
    const result = await fn(client);
    await client.query('COMMIT');
    return result;
  } catch (err) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw err;
  } finally {
    client.release();
  }
}
