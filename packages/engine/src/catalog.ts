import type { DocumentSummary, IdentityCorrection, PinDocument, Version, VersionDetail } from '@pinpoint/core';
import { correctedIdentity, createError } from '@pinpoint/core';
import type { EnginePorts } from './config.js';
import { identityCatalog } from './identity-catalog.js';

function summarize(document: PinDocument, all: Version[]): DocumentSummary {
  const versions = all.filter((v) => v.document_id === document.document_id).sort((a, b) => b.number - a.number);
  const ready = versions.find((v) => v.state === 'ready');
  const identity = ready ? correctedIdentity(ready.identity, document.identity_correction) : null;
  return { document, versions, latest_ready_version_id: ready?.version_id ?? null, identity };
}

/** An editor's correction of what the document is about (null removes it); every version, later ones too, inherits it. */
export async function correctIdentity(
  ports: EnginePorts,
  documentId: string,
  correction: IdentityCorrection | null,
): Promise<DocumentSummary> {
  const document = await ports.metadata.setIdentityCorrection(documentId, correction);
  identityCatalog(ports.metadata).forget(documentId);
  return summarize(document, await ports.metadata.listVersions({ documentId }));
}

export async function listDocuments(ports: EnginePorts, collectionId?: string): Promise<DocumentSummary[]> {
  const [documents, versions] = await Promise.all([
    ports.metadata.listDocuments(collectionId),
    ports.metadata.listVersions(collectionId ? { collectionId } : {}),
  ]);
  return documents.map((d) => summarize(d, versions));
}

export async function getDocument(ports: EnginePorts, documentId: string): Promise<DocumentSummary> {
  const document = await ports.metadata.getDocument(documentId);
  if (!document) throw createError('PP_NOT_FOUND', `Document ${documentId} does not exist.`);
  return summarize(document, await ports.metadata.listVersions({ documentId }));
}

export async function getVersionDetail(ports: EnginePorts, versionId: string): Promise<VersionDetail> {
  const version = await ports.metadata.getVersion(versionId);
  if (!version) throw createError('PP_NOT_FOUND', `Version ${versionId} does not exist.`);
  const { versions, latest_ready_version_id } = summarize(
    {
      document_id: version.document_id,
      collection_id: version.collection_id,
      name: version.original_name,
      created_at: version.created_at,
    },
    await ports.metadata.listVersions({ documentId: version.document_id }),
  );
  const newer = versions.find((v) => v.number > version.number && v.state === 'ready');
  return {
    version,
    artifacts: await ports.metadata.listArtifacts(versionId),
    newer_version_id: newer?.version_id ?? null,
    latest_ready_version_id,
  };
}

const SETTLED = new Set<Version['state']>(['ready', 'failed', 'cancelled']);

/** Resolves when every named version is ready, failed or cancelled. */
export async function waitForVersions(
  ports: EnginePorts,
  versionIds: string[],
  options: { timeoutMs?: number; pollMs?: number } = {},
): Promise<Version[]> {
  const deadline = Date.now() + (options.timeoutMs ?? 600_000);
  // A settled version stays settled: each round reads only the ones still running.
  const settled = new Map<string, Version>();
  for (;;) {
    for (const id of versionIds) {
      if (settled.has(id)) continue;
      const v = await ports.metadata.getVersion(id);
      if (v && SETTLED.has(v.state)) settled.set(id, v);
    }
    if (settled.size === new Set(versionIds).size) return versionIds.map((id) => settled.get(id) as Version);
    if (Date.now() > deadline)
      throw createError('PP_INTERNAL', `Ingestion did not settle within ${options.timeoutMs ?? 600_000} ms.`);
    await new Promise((r) => setTimeout(r, options.pollMs ?? 100));
  }
}
