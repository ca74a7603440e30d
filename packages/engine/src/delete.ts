import { createError } from '@pinpoint/core';
import type { EnginePorts } from './config.js';

const LIVE = new Set(['queued', 'running']);

/**
 * Deletes a document for good: its live jobs are cancelled, every version leaves the lexical and
 * vector indexes, then the catalog drops the document with its versions, artifacts and content in
 * one transaction, and the blobs no other version shares are deleted. Citations to it stop
 * resolving (PP_NOT_FOUND), like any other missing version.
 */
export async function deleteDocument(
  ports: EnginePorts,
  documentId: string,
): Promise<{ document_id: string; versions_deleted: number }> {
  const document = await ports.metadata.getDocument(documentId);
  if (!document) throw createError('PP_NOT_FOUND', `Document ${documentId} does not exist.`);
  const versions = await ports.metadata.listVersions({ documentId });
  for (const v of versions) {
    for (const job of await ports.queue.list({ versionId: v.version_id })) {
      if (!LIVE.has(job.state)) continue;
      // A job that finished in the meantime cannot be cancelled; the version goes all the same.
      await ports.queue.cancel(job.job_id).catch(() => undefined);
    }
  }
  const unindex = async (ids: string[]) => {
    for (const id of ids) {
      await ports.lexical.deleteVersion(id);
      await ports.vectors?.deleteVersion(id);
    }
  };
  await unindex(versions.map((v) => v.version_id));
  const removed = await ports.metadata.deleteDocument(documentId);
  if (!removed) throw createError('PP_NOT_FOUND', `Document ${documentId} does not exist.`);
  // Again after the catalog: a run that was indexing while its job was cancelled may have written since.
  await unindex(removed.version_ids);
  for (const key of removed.orphan_blob_keys) await ports.blobs.delete(key);
  return { document_id: documentId, versions_deleted: removed.version_ids.length };
}
