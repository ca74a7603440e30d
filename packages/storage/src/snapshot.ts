import { existsSync } from 'node:fs';
import Database from 'better-sqlite3';

/** How long taking the fence may wait for a writer's transaction to end, per attempt. */
const FENCE_WAIT_MS = 2000;
const FENCE_ATTEMPTS = 10;

/**
 * Read snapshots of several SQLite files (WAL mode) taken at one moment, while other processes keep
 * writing. Taking them: the write lock of every file in a fixed order (`BEGIN IMMEDIATE`: writers
 * wait; each of their transactions is short and touches one file, so nobody waits for long), a read
 * transaction begun on a second connection of each, then the locks released. Each read connection
 * keeps seeing its file as it was at that moment until `close`, whatever is written meanwhile, so
 * copying them one after the other gives files that agree with each other: the state a crash at
 * that moment would have left, and no later.
 */
export class PinnedSnapshots {
  readonly #readers: Map<string, Database.Database>;

  private constructor(readers: Map<string, Database.Database>) {
    this.#readers = readers;
  }

  /** Pins every existing file of `paths` (name → path); absent files are left out. */
  static pin(paths: Record<string, string>): PinnedSnapshots {
    const present = Object.entries(paths).filter(([, path]) => existsSync(path));
    for (let attempt = 1; ; attempt++) {
      const fences: Database.Database[] = [];
      try {
        for (const [, path] of present) {
          const fence = new Database(path, { timeout: FENCE_WAIT_MS });
          fences.push(fence);
          fence.exec('BEGIN IMMEDIATE');
        }
        const readers = new Map<string, Database.Database>();
        for (const [name, path] of present) {
          const reader = new Database(path, { readonly: true });
          reader.exec('BEGIN');
          reader.prepare('SELECT count(*) FROM sqlite_schema').get();
          readers.set(name, reader);
        }
        return new PinnedSnapshots(readers);
      } catch (err) {
        if (attempt >= FENCE_ATTEMPTS || (err as { code?: string }).code !== 'SQLITE_BUSY') throw err;
      } finally {
        for (const fence of fences) {
          if (fence.inTransaction) fence.exec('ROLLBACK');
          fence.close();
        }
      }
    }
  }

  names(): string[] {
    return [...this.#readers.keys()];
  }

  has(name: string): boolean {
    return this.#readers.has(name);
  }

  /** Rows of a query on the pinned state of `name` (what the copy will hold: counts, blob keys); none when it is absent. */
  rows<T>(name: string, sql: string): T[] {
    return (this.#readers.get(name)?.prepare(sql).all() ?? []) as T[];
  }

  /** Copies the pinned state of `name` to `dest` with SQLite's online backup; `progress` gets the share done. */
  async copy(name: string, dest: string, progress?: (done: number) => void): Promise<void> {
    const reader = this.#readers.get(name);
    if (!reader) throw new Error(`No pinned snapshot named ${name}.`);
    await reader.backup(dest, {
      progress: ({ totalPages, remainingPages }) => {
        progress?.(totalPages === 0 ? 1 : 1 - remainingPages / totalPages);
        return 1000;
      },
    });
  }

  close(): void {
    for (const reader of this.#readers.values()) {
      if (reader.inTransaction) reader.exec('COMMIT');
      reader.close();
    }
    this.#readers.clear();
  }
}

/** SQLite's own check of a database file: the problems it names, none when the file is sound. */
export function integrityProblems(path: string): string[] {
  const db = new Database(path, { readonly: true });
  try {
    const rows = db.pragma('integrity_check') as { integrity_check: string }[];
    return rows.map((r) => r.integrity_check).filter((line) => line !== 'ok');
  } finally {
    db.close();
  }
}
