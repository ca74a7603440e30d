import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import Database from 'better-sqlite3';

export type SqliteDatabase = Database.Database;

/**
 * A numbered schema step; applied once, in order, inside a transaction, recorded in `migrations`.
 * `up`, when given, runs after `sql` in the same transaction: rows that move to a new shape by code.
 */
export interface Migration {
  id: number;
  name: string;
  sql: string;
  up?: (db: SqliteDatabase) => void;
}

/** Distinct SQL texts whose compiled statements a connection keeps (the stores use a few dozen). */
const STATEMENT_CACHE = 256;

/**
 * Opens (creating the folder) a SQLite file in WAL mode with foreign keys and a busy timeout.
 * `prepare` compiles each SQL text once per connection and hands back the same statement after
 * that: the stores call it with literal SQL on every operation, and compiling was a sixth of the
 * metadata work per ingested document. (No caller switches a statement to pluck/raw/expand mode,
 * which would leak into the next caller of the same SQL.)
 */
export function openDatabase(path: string): SqliteDatabase {
  if (path !== ':memory:') mkdirSync(dirname(path), { recursive: true });
  const db = new Database(path);
  const compile = db.prepare.bind(db);
  const statements = new Map<string, Database.Statement>();
  db.prepare = ((sql: string) => {
    let statement = statements.get(sql);
    if (!statement) {
      if (statements.size >= STATEMENT_CACHE) statements.clear();
      statement = compile(sql);
      statements.set(sql, statement);
    }
    return statement;
  }) as typeof db.prepare;
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  db.pragma('foreign_keys = ON');
  db.pragma('busy_timeout = 5000');
  return db;
}

/** Applies the migrations not yet recorded for `scope`; safe to call on every start. */
export function migrate(db: SqliteDatabase, scope: string, migrations: readonly Migration[]): void {
  db.exec(`CREATE TABLE IF NOT EXISTS migrations (
    scope TEXT NOT NULL, id INTEGER NOT NULL, name TEXT NOT NULL, applied_at TEXT NOT NULL,
    PRIMARY KEY (scope, id))`);
  const applied = new Set(
    db
      .prepare('SELECT id FROM migrations WHERE scope = ?')
      .all(scope)
      .map((r) => (r as { id: number }).id),
  );
  const record = db.prepare('INSERT INTO migrations (scope, id, name, applied_at) VALUES (?, ?, ?, ?)');
  for (const m of [...migrations].sort((a, b) => a.id - b.id)) {
    if (applied.has(m.id)) continue;
    db.transaction(() => {
      db.exec(m.sql);
      m.up?.(db);
      record.run(scope, m.id, m.name, new Date().toISOString());
    })();
  }
}
