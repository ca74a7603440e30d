import { copyFile, mkdir, readdir, stat } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { createError } from '@pinpoint/core';
import { releaseAllLeases } from '@pinpoint/storage';
import { latestSnapshot, readManifest } from './backup.js';
import { BLOBS_DIR, DATABASES, SIGNING_KEY, sha256OfFile } from './data-folder.js';

export interface RestoreSummary {
  snapshot: string;
  dataDir: string;
  seconds: number;
  databases: number;
  blobs: number;
  /** Jobs the backed-up runner held: queued again, since no runner of the restored folder holds them. */
  requeued: number;
  counts: Record<string, number>;
}

async function refuseNonEmpty(dir: string): Promise<void> {
  const entries = await readdir(dir).catch((err: NodeJS.ErrnoException) => {
    if (err.code === 'ENOENT') return [] as string[];
    throw err;
  });
  if (entries.length > 0) {
    throw createError('PP_CONFLICT', `${dir} is not empty: restore only into a new or empty folder (nothing was changed).`);
  }
}

/** Copies `from` to `to` and checks the copy against the manifest's sha256. */
async function copyChecked(from: string, to: string, sha256: string, what: string): Promise<void> {
  if (!(await stat(from).catch(() => null))) throw createError('PP_NOT_FOUND', `The backup lacks ${what} (${from}).`);
  await mkdir(dirname(to), { recursive: true });
  await copyFile(from, to);
  if ((await sha256OfFile(to)) !== sha256) {
    throw createError('PP_ARTIFACT_HASH_MISMATCH', `${what} in the backup does not match its sha256 in the manifest (${from}).`);
  }
}

/**
 * Restores a backup (its folder: the newest snapshot; or one snapshot folder) into a new data folder:
 * refuses a non-empty one, checks every file against the manifest as it copies, and puts the jobs
 * the backed-up server was running back in the queue. The server started on the folder then
 * finishes them (versions processing at backup time run again).
 */
export async function restoreDataFolder(src: string, dataDir: string, progress: (line: string) => void): Promise<RestoreSummary> {
  const started = performance.now();
  await refuseNonEmpty(dataDir);
  const snapshot = await latestSnapshot(src);
  const manifest = await readManifest(snapshot);
  const known = new Set(Object.keys(DATABASES));
  const unknown = manifest.databases.find((d) => !known.has(d.name));
  if (unknown) throw createError('PP_VALIDATION', `The manifest names a database this build does not know: ${unknown.name}.`);
  await mkdir(dataDir, { recursive: true });
  for (const db of manifest.databases) {
    progress(`${db.file}`);
    await copyChecked(join(snapshot, db.file), join(dataDir, DATABASES[db.name]), db.sha256, db.file);
  }
  if (manifest.signing_key) {
    await copyChecked(join(snapshot, SIGNING_KEY), join(dataDir, SIGNING_KEY), manifest.signing_key.sha256, SIGNING_KEY);
  }
  const blobRoot = join(snapshot, '..', '..', BLOBS_DIR);
  for (const [i, blob] of manifest.blobs.entries()) {
    progress(`blobs ${i + 1}/${manifest.blobs.length}`);
    await copyChecked(join(blobRoot, blob.key), join(dataDir, BLOBS_DIR, blob.key), blob.sha256, `blob ${blob.key}`);
  }
  const requeued = releaseAllLeases(join(dataDir, DATABASES.jobs));
  return {
    snapshot,
    dataDir,
    seconds: (performance.now() - started) / 1000,
    databases: manifest.databases.length,
    blobs: manifest.blobs.length,
    requeued,
    counts: manifest.counts,
  };
}
