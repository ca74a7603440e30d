import { existsSync } from 'node:fs';
import { rename, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { createModelPorts, openEmbeddedPorts } from '@pinpoint/compose';
import type { JobQueue, MetadataStore, Version } from '@pinpoint/core';
import type { EnginePorts } from '@pinpoint/engine';
import { reindexVersion, requeueJoblessVersions } from '@pinpoint/engine';
import { inspectLexicalFile, openLexicalIndex } from '@pinpoint/retrieval';
import {
  FsBlobStore,
  integrityProblems,
  requeueStuckJobs,
  SqliteJobQueue,
  SqliteMetadataStore,
  stuckJobs,
} from '@pinpoint/storage';
import { vectorFileChunks } from '@pinpoint/vectors';
import type { CliConfig } from './config.js';
import { BLOBS_DIR, databasePaths } from './data-folder.js';
import { checkBlobs, compareIndex, type Expected, expectedChunks, type Problem } from './verify-checks.js';
import { verifyDistributed } from './verify-distributed.js';

export interface VerifyReport {
  mode: 'embedded' | 'distributed';
  problems: Problem[];
  /** What --repair did. */
  repaired: string[];
  checked: { versions: number; ready_chunks: number; lexical_chunks: number; vectors: number | null };
}

/** Versions waiting to run whose job is gone (an upload killed before queueing it). */
async function joblessVersions(queue: JobQueue, versions: Iterable<Version>): Promise<Problem[]> {
  const problems: Problem[] = [];
  for (const v of versions) {
    if (v.state !== 'queued' && v.state !== 'processing') continue;
    if ((await queue.list({ versionId: v.version_id, limit: 1 })).length > 0) continue;
    problems.push({
      kind: 'version',
      version_id: v.version_id,
      message: `version ${v.version_id} (${v.original_name}) is ${v.state} with no job to run it`,
    });
  }
  return problems;
}

async function inspectEmbedded(dataDir: string, progress: (l: string) => void): Promise<VerifyReport> {
  const paths = databasePaths(dataDir);
  const problems: Problem[] = [];
  for (const [name, path] of Object.entries(paths)) {
    if (!existsSync(path)) continue;
    progress(`integrity of ${name}.db`);
    for (const p of integrityProblems(path)) problems.push({ kind: 'sqlite', message: `${name}.db: ${p}` });
  }
  const metadata = new SqliteMetadataStore(paths.metadata);
  const queue = new SqliteJobQueue({ path: paths.jobs });
  try {
    progress('index contents');
    const expected = await expectedChunks(metadata);
    const lexical = inspectLexicalFile(paths.lexical);
    problems.push(...lexical.problems.map((message) => ({ kind: 'lexical' as const, message })));
    problems.push(...compareIndex('lexical', lexical.chunks, expected));
    const vectors = vectorFileChunks(paths.vectors);
    if (vectors) problems.push(...compareIndex('vectors', vectors, expected));
    progress('blobs');
    problems.push(...(await checkBlobs(metadata, new FsBlobStore(join(dataDir, BLOBS_DIR)), expected.versions.values())));
    for (const job of stuckJobs(paths.jobs)) {
      problems.push({
        kind: 'job',
        version_id: job.version_id,
        message: `job ${job.job_id} (${job.file}) claims to run under ${job.lease_owner}, which is gone`,
      });
    }
    problems.push(...(await joblessVersions(queue, expected.versions.values())));
    return {
      mode: 'embedded',
      problems,
      repaired: [],
      checked: {
        versions: expected.versions.size,
        ready_chunks: expected.chunks.size,
        lexical_chunks: lexical.chunks.size,
        vectors: vectors?.size ?? null,
      },
    };
  } finally {
    await queue.close();
    await metadata.close();
  }
}

/** A new lexical index file built from the ready versions' stored chunks, swapped in for the damaged one. */
async function rebuildLexical(path: string, metadata: MetadataStore, expected: Expected): Promise<void> {
  const fresh = `${path}.rebuild`;
  for (const suffix of ['', '-wal', '-shm']) await rm(`${fresh}${suffix}`, { force: true });
  const lexical = openLexicalIndex(fresh);
  const ports = { metadata, lexical } as unknown as EnginePorts;
  for (const versionId of new Set(expected.chunks.values())) await reindexVersion(ports, versionId);
  await lexical.close();
  for (const suffix of ['-wal', '-shm']) await rm(`${path}${suffix}`, { force: true });
  await rename(fresh, path);
}

/** Rebuilds the lexical index when it is damaged or wrong, re-indexes versions the vector store lacks, re-queues stuck work. */
async function repairEmbedded(cfg: CliConfig, found: VerifyReport): Promise<string[]> {
  const paths = databasePaths(cfg.dataDir);
  const done: string[] = [];
  if (found.problems.some((p) => p.kind === 'lexical' || p.message.startsWith('lexical.db'))) {
    const metadata = new SqliteMetadataStore(paths.metadata);
    try {
      await rebuildLexical(paths.lexical, metadata, await expectedChunks(metadata));
    } finally {
      await metadata.close();
    }
    done.push('rebuilt the lexical index from the stored chunks of the ready versions');
  }
  const stuck = requeueStuckJobs(paths.jobs);
  if (stuck > 0) done.push(`queued ${stuck} stuck jobs again`);
  const vectorVersions = new Set(
    found.problems.filter((p) => p.kind === 'vectors' && p.version_id).map((p) => p.version_id as string),
  );
  const ports = openEmbeddedPorts(cfg.dataDir, vectorVersions.size > 0 ? await createModelPorts(cfg.models, cfg.dataDir) : {});
  try {
    const ready = new Set(await ports.metadata.latestReadyVersionIds());
    for (const id of vectorVersions) {
      if (ready.has(id)) await reindexVersion(ports, id);
      else await ports.vectors?.deleteVersion(id);
    }
    if (vectorVersions.size > 0) done.push(`re-indexed or withdrew ${vectorVersions.size} versions in the vector store`);
    const requeued = await requeueJoblessVersions(ports, 0);
    if (requeued.length > 0) done.push(`queued or failed ${requeued.length} versions that had no job`);
  } finally {
    await Promise.all([ports.metadata.close(), ports.queue.close(), ports.lexical.close(), ports.vectors?.close()]);
  }
  return done;
}

/**
 * `pinpoint verify`: checks the data folder (or, in distributed mode, PostgreSQL, the blob store and
 * the index) and, with `repair`, fixes what can be rebuilt from what is stored — never touching an
 * original — then checks again, so the report says what is still wrong.
 */
export async function verifyDataFolder(
  cfg: CliConfig,
  options: { repair: boolean; progress: (line: string) => void },
): Promise<VerifyReport> {
  if (cfg.accounts.kind === 'distributed') return verifyDistributed(cfg, options);
  const found = await inspectEmbedded(cfg.dataDir, options.progress);
  if (!options.repair || found.problems.length === 0) return found;
  const repaired = await repairEmbedded(cfg, found);
  return { ...(await inspectEmbedded(cfg.dataDir, options.progress)), repaired };
}

export function humanVerify(r: VerifyReport): string {
  const lines = [
    `checked ${r.checked.versions} versions, ${r.checked.ready_chunks} searchable chunks, ${r.checked.lexical_chunks} lexical` +
      (r.checked.vectors === null ? '' : `, ${r.checked.vectors} vectors`),
    ...r.repaired.map((l) => `  ↻ ${l}`),
    ...r.problems.map((p) => `  ✗ ${p.kind}: ${p.message}`),
    r.problems.length === 0 ? 'ok: nothing wrong' : `${r.problems.length} problems`,
  ];
  return lines.join('\n');
}
