import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { join } from 'node:path';

/** The SQLite files of an embedded data folder, by name (vectors.db only with an embedder). */
export const DATABASES = {
  metadata: 'metadata.db',
  jobs: 'jobs.db',
  lexical: 'lexical.db',
  vectors: 'vectors.db',
} as const;

export type DatabaseName = keyof typeof DATABASES;

export const BLOBS_DIR = 'blobs';
export const SIGNING_KEY = 'signing.key';

/** name → absolute path of every database of the folder. */
export function databasePaths(dataDir: string): Record<DatabaseName, string> {
  return Object.fromEntries(Object.entries(DATABASES).map(([name, file]) => [name, join(dataDir, file)])) as Record<
    DatabaseName,
    string
  >;
}

/** The sha256 of a file, streamed (blobs can be large). */
export async function sha256OfFile(path: string): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of createReadStream(path)) hash.update(chunk as Buffer);
  return hash.digest('hex');
}

/** A line of progress on a terminal (overwritten in place); nothing when stderr is not a TTY. */
export function terminalProgress(enabled: boolean): (line: string) => void {
  if (!enabled || !process.stderr.isTTY) return () => {};
  return (line) => process.stderr.write(`\r\x1b[2K${line}`);
}
