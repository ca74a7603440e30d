import { randomBytes } from 'node:crypto';
import { copyFile, mkdir, readdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { createError } from '@pinpoint/core';
import { PinnedSnapshots } from '@pinpoint/storage';
import { BLOBS_DIR, type DatabaseName, databasePaths, SIGNING_KEY, sha256OfFile } from './data-folder.js';

const BACKUP_FORMAT = 'pinpoint-backup@1';
const SNAPSHOTS_DIR = 'snapshots';

interface ManifestFile {
  file: string;
  sha256: string;
  size: number;
}

export interface BackupManifest {
  format: typeof BACKUP_FORMAT;
  id: string;
  created_at: string;
  source: string;
  /** Each database's copy, with its schema (migrations applied per scope, the index's meta). */
  databases: (ManifestFile & { name: DatabaseName; schema: Record<string, string | number> })[];
  signing_key: ManifestFile | null;
  /** Every blob the metadata refers to, under DEST/blobs (shared by all snapshots of DEST). */
  blobs: (ManifestFile & { key: string })[];
  counts: Record<string, number>;
}

export interface BackupSummary {
  dest: string;
  snapshot: string;
  seconds: number;
  bytes: number;
  blobs: { total: number; copied: number; reused: number };
  /** Blobs whose bytes no longer match their address (not copied; `verify` names their versions). */
  corrupt: string[];
  counts: Record<string, number>;
}

/** Migrations applied per scope, and the lexical index's settings (analyzer, layout). */
function schemaOf(name: DatabaseName, pinned: PinnedSnapshots): Record<string, string | number> {
  const tables = new Set(
    pinned.rows<{ name: string }>(name, "SELECT name FROM sqlite_schema WHERE type = 'table'").map((t) => t.name),
  );
  const schema: Record<string, string | number> = {};
  if (tables.has('migrations')) {
    for (const row of pinned.rows<{ scope: string; id: number }>(
      name,
      'SELECT scope, max(id) AS id FROM migrations GROUP BY scope',
    ))
      schema[row.scope] = row.id;
  }
  if (name === 'lexical' && tables.has('meta')) {
    for (const row of pinned.rows<{ key: string; value: string }>(name, "SELECT key, value FROM meta WHERE key <> 'generation'"))
      schema[row.key] = row.value;
  }
  return schema;
}

function countsOf(pinned: PinnedSnapshots): Record<string, number> {
  const count = (name: DatabaseName, sql: string): number =>
    pinned.rows<{ n: number }>(name, `SELECT count(*) AS n FROM ${sql}`)[0]?.n ?? 0;
  return {
    collections: count('metadata', 'collections'),
    documents: count('metadata', 'documents'),
    versions: count('metadata', 'versions'),
    ready_versions: count('metadata', "versions WHERE state = 'ready'"),
    chunks: count('metadata', 'version_chunks'),
    jobs: count('jobs', 'jobs'),
    lexical_chunks: count('lexical', 'lex_chunks'),
    vectors: count('vectors', 'pp_vectors'),
  };
}

/** Copies one blob into DEST/blobs unless it is there already (content addressed: same key, same bytes). */
async function backupBlob(
  dataDir: string,
  dest: string,
  blob: { key: string; sha256: string },
): Promise<'copied' | 'reused' | 'corrupt'> {
  const target = join(dest, BLOBS_DIR, blob.key);
  if (
    await stat(target).then(
      (s) => s.isFile(),
      () => false,
    )
  )
    return 'reused';
  const source = join(dataDir, BLOBS_DIR, blob.key);
  await mkdir(dirname(target), { recursive: true });
  const tmp = `${target}.tmp-${randomBytes(6).toString('hex')}`;
  await copyFile(source, tmp);
  if ((await sha256OfFile(tmp)) !== blob.sha256) {
    await rm(tmp, { force: true });
    return 'corrupt';
  }
  await rename(tmp, target);
  return 'copied';
}

async function manifestFile(dir: string, file: string): Promise<ManifestFile> {
  const path = join(dir, file);
  return { file, sha256: await sha256OfFile(path), size: (await stat(path)).size };
}

const snapshotId = (): string => new Date().toISOString().replace(/[:.]/g, '-');

/**
 * An online backup of an embedded data folder into DEST/snapshots/<id> (databases, signing key,
 * manifest.json) and DEST/blobs (content addressed, shared: a second backup copies only new blobs).
 * The databases are copied from snapshots pinned at one moment (PinnedSnapshots); the blobs copied are
 * those the metadata snapshot refers to. The snapshot folder gets its name only once complete, so a
 * backup killed half-way leaves a `.partial-` folder that restore ignores.
 */
export async function backupDataFolder(dataDir: string, dest: string, progress: (line: string) => void): Promise<BackupSummary> {
  const started = performance.now();
  if (!(await stat(join(dataDir, 'metadata.db')).catch(() => null))) {
    throw createError('PP_NOT_FOUND', `${dataDir} is not a Pinpoint data folder (no metadata.db).`);
  }
  const id = snapshotId();
  const partial = join(dest, SNAPSHOTS_DIR, `.partial-${id}`);
  await mkdir(partial, { recursive: true });
  const pinned = PinnedSnapshots.pin(databasePaths(dataDir));
  try {
    const counts = countsOf(pinned);
    const blobs = pinned.rows<{ key: string; sha256: string }>(
      'metadata',
      'SELECT DISTINCT blob_key AS key, sha256 FROM artifacts ORDER BY blob_key',
    );
    const databases: BackupManifest['databases'] = [];
    for (const name of pinned.names() as DatabaseName[]) {
      const file = `${name}.db`;
      await pinned.copy(name, join(partial, file), (done) => progress(`${file} ${Math.round(done * 100)}%`));
      databases.push({ name, ...(await manifestFile(partial, file)), schema: schemaOf(name, pinned) });
    }
    pinned.close();
    const outcome = { copied: 0, reused: 0, corrupt: [] as string[] };
    const listed: BackupManifest['blobs'] = [];
    for (const [i, blob] of blobs.entries()) {
      progress(`blobs ${i + 1}/${blobs.length}`);
      const result = await backupBlob(dataDir, dest, blob);
      if (result === 'corrupt') outcome.corrupt.push(blob.key);
      else {
        outcome[result]++;
        listed.push({
          key: blob.key,
          file: `${BLOBS_DIR}/${blob.key}`,
          sha256: blob.sha256,
          size: (await stat(join(dest, BLOBS_DIR, blob.key))).size,
        });
      }
    }
    const signing = await copyFile(join(dataDir, SIGNING_KEY), join(partial, SIGNING_KEY)).then(
      () => manifestFile(partial, SIGNING_KEY),
      () => null,
    );
    const manifest: BackupManifest = {
      format: BACKUP_FORMAT,
      id,
      created_at: new Date().toISOString(),
      source: dataDir,
      databases,
      signing_key: signing,
      blobs: listed,
      counts,
    };
    await writeFile(join(partial, 'manifest.json'), `${JSON.stringify(manifest, null, 1)}\n`, { flush: true });
    const final = join(dest, SNAPSHOTS_DIR, id);
    await rename(partial, final);
    const bytes = databases.reduce((s, d) => s + d.size, 0) + listed.reduce((s, b) => s + b.size, 0);
    return {
      dest,
      snapshot: final,
      seconds: (performance.now() - started) / 1000,
      bytes,
      blobs: { total: blobs.length, copied: outcome.copied, reused: outcome.reused },
      corrupt: outcome.corrupt,
      counts,
    };
  } finally {
    pinned.close();
  }
}

/** The newest complete snapshot under a backup folder, or the folder itself when it is one. */
export async function latestSnapshot(src: string): Promise<string> {
  if (await stat(join(src, 'manifest.json')).catch(() => null)) return src;
  const ids = (await readdir(join(src, SNAPSHOTS_DIR)).catch(() => [] as string[])).filter((n) => !n.startsWith('.')).sort();
  const last = ids.at(-1);
  if (!last) throw createError('PP_NOT_FOUND', `${src} holds no complete backup (no snapshots/<id>/manifest.json).`);
  return join(src, SNAPSHOTS_DIR, last);
}

export async function readManifest(snapshot: string): Promise<BackupManifest> {
  const manifest = JSON.parse(await readFile(join(snapshot, 'manifest.json'), 'utf8')) as BackupManifest;
  if (manifest.format !== BACKUP_FORMAT) {
    throw createError('PP_VALIDATION', `${snapshot}/manifest.json is not a ${BACKUP_FORMAT} manifest.`);
  }
  return manifest;
}
