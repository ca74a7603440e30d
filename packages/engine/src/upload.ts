import type { Job, UploadResult, Version } from '@pinpoint/core';
import { createError, jobIdFor, sha256Hex } from '@pinpoint/core';
import type { SpooledFile } from './artifacts.js';
import { storeArtifact } from './artifacts.js';
import type { EngineConfig, EnginePorts } from './config.js';
import { refuseUploadsWhenLow } from './disk-space.js';
import { recipeFor, recipeKey } from './recipe.js';

/** One uploaded file: its bytes, or (HTTP uploads) the file it was streamed to with its hash and size. */
export type UploadFile = { name: string; declaredMime?: string | null } & ({ bytes: Uint8Array } | { spooled: SpooledFile });

/** The file name a document is known by: the last path segment, trimmed. */
function documentName(name: string): string {
  const base = name.split(/[\\/]/).pop()?.trim() ?? '';
  if (!base) throw createError('PP_VALIDATION', 'Every uploaded file needs a file name.');
  return base;
}

/** Stores the original, creates (or finds) the version and queues its ingestion job. */
async function uploadOne(
  ports: EnginePorts,
  config: EngineConfig,
  collectionId: string,
  file: UploadFile,
): Promise<UploadResult> {
  const name = documentName(file.name);
  const size = 'bytes' in file ? file.bytes.byteLength : file.spooled.size;
  if (size > config.maxUploadBytes) {
    throw createError('PP_FILE_TOO_LARGE', `${name} is ${size} bytes; the limit is ${config.maxUploadBytes}.`);
  }
  const sha = 'bytes' in file ? sha256Hex(file.bytes) : file.spooled.sha256;
  const document = await ports.metadata.findOrCreateDocument(collectionId, name);
  const recipe = recipeFor(name, config, undefined, ports.embedder?.id);
  const { version, created } = await ports.metadata.createVersion({
    document_id: document.document_id,
    collection_id: collectionId,
    source_sha256: sha,
    original_name: name,
    declared_mime: file.declaredMime ?? null,
    size,
    recipe,
  });
  if (!created) {
    const job = await jobOf(ports, version);
    if (job && version.state === 'failed' && version.error_code === 'PP_DISK_FULL')
      return retryAfterDiskFull(ports, name, document, version, job);
    // no job while queued: an upload killed between creating the version and queueing its job; this one finishes it
    if (job || version.state !== 'queued') return { file: name, document, version, created, job };
  }
  await storeArtifact(ports, {
    versionId: version.version_id,
    kind: 'original',
    name,
    mime: file.declaredMime || 'application/octet-stream',
    ...('bytes' in file ? { bytes: file.bytes } : { spooled: file.spooled }),
  });
  const job = await enqueueIngest(ports, version);
  return { file: name, document, version, created, job };
}

async function jobOf(ports: EnginePorts, version: Version): Promise<Job | null> {
  return (
    (await ports.queue.get(jobIdFor(version.version_id, recipeKey(version.recipe)))) ??
    (await ports.queue.list({ versionId: version.version_id, limit: 1 }))[0] ??
    null
  );
}

/**
 * The same file sent again after its run failed for want of space: the run is retried (with space
 * freed, it finishes), as the job console's Retry would.
 */
async function retryAfterDiskFull(
  ports: EnginePorts,
  file: string,
  document: UploadResult['document'],
  version: Version,
  job: Job,
): Promise<UploadResult> {
  const retried = await ports.queue.retry(job.job_id);
  const queued = await ports.metadata.updateVersion(version.version_id, {
    state: 'queued',
    error_code: null,
    error_message: null,
  });
  return { file, document, version: queued, created: false, job: retried };
}

/** Queues a version's ingestion; the job id comes from version + recipe, so queueing twice is a no-op. */
export async function enqueueIngest(ports: EnginePorts, version: Version): Promise<Job> {
  return ports.queue.enqueue({
    version_id: version.version_id,
    document_id: version.document_id,
    collection_id: version.collection_id,
    file: version.original_name,
    recipe_key: recipeKey(version.recipe),
  });
}

export async function upload(
  ports: EnginePorts,
  config: EngineConfig,
  collectionId: string,
  files: UploadFile[],
): Promise<UploadResult[]> {
  if (!(await ports.metadata.getCollection(collectionId)))
    throw createError('PP_NOT_FOUND', `Collection ${collectionId} does not exist.`);
  if (files.length === 0) throw createError('PP_VALIDATION', 'The upload has no files.');
  await refuseUploadsWhenLow(ports.dataDir, config.minFreeBytes);
  const results: UploadResult[] = [];
  for (const file of files) results.push(await uploadOne(ports, config, collectionId, file));
  return results;
}

/** Re-runs a version's original through the current recipe as a new version; the old one stays. */
export async function reprocess(
  ports: EnginePorts,
  config: EngineConfig,
  versionId: string,
): Promise<{ version: Version; job: Job }> {
  const old = await ports.metadata.getVersion(versionId);
  if (!old) throw createError('PP_NOT_FOUND', `Version ${versionId} does not exist.`);
  const original = await ports.metadata.getArtifact(versionId, 'original');
  if (!original) throw createError('PP_NOT_FOUND', `Version ${versionId} has no stored original to re-process.`);
  const { version } = await ports.metadata.createVersion({
    document_id: old.document_id,
    collection_id: old.collection_id,
    source_sha256: old.source_sha256,
    original_name: old.original_name,
    declared_mime: old.declared_mime,
    size: old.size,
    recipe: recipeFor(old.original_name, config, undefined, ports.embedder?.id),
    reprocess_of: old.version_id,
  });
  await ports.metadata.putArtifact({ ...original, version_id: version.version_id });
  return { version, job: await enqueueIngest(ports, version) };
}
