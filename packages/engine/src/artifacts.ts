import { readFile } from 'node:fs/promises';
import type { Artifact, ArtifactKind, BlobStore, MetadataStore } from '@pinpoint/core';
import { createError, sha256Hex } from '@pinpoint/core';

/** Content address of a blob: the same bytes are stored once. */
export function blobKeyFor(sha256: string): string {
  return `sha256/${sha256.slice(0, 2)}/${sha256}`;
}

/** A file already written to disk (an upload streamed there), with its hash and size. */
export interface SpooledFile {
  path: string;
  sha256: string;
  size: number;
}

/** Stores bytes (or a spooled file, streamed by the blob store when it can) as an artifact of the version. */
export async function storeArtifact(
  ports: { metadata: MetadataStore; blobs: BlobStore },
  input: { versionId: string; kind: ArtifactKind; name: string; mime: string } & (
    | { bytes: Uint8Array }
    | { spooled: SpooledFile }
  ),
): Promise<Artifact> {
  const sha256 = 'bytes' in input ? sha256Hex(input.bytes) : input.spooled.sha256;
  const blob_key = blobKeyFor(sha256);
  if (!(await ports.blobs.has(blob_key))) {
    if ('bytes' in input) await ports.blobs.put(blob_key, input.bytes);
    else if (ports.blobs.putFile) await ports.blobs.putFile(blob_key, input.spooled.path);
    else await ports.blobs.put(blob_key, new Uint8Array(await readFile(input.spooled.path)));
  }
  const artifact: Artifact = {
    version_id: input.versionId,
    kind: input.kind,
    name: input.name,
    sha256,
    size: 'bytes' in input ? input.bytes.byteLength : input.spooled.size,
    mime: input.mime,
    blob_key,
  };
  await ports.metadata.putArtifact(artifact);
  return artifact;
}

/** Reads an artifact and checks its bytes against the recorded sha256 (DESIGN.md §4.5). */
export async function readArtifact(
  ports: { metadata: MetadataStore; blobs: BlobStore },
  versionId: string,
  kind: ArtifactKind,
  name?: string,
): Promise<{ artifact: Artifact; bytes: Uint8Array }> {
  const artifact = await ports.metadata.getArtifact(versionId, kind, name);
  if (!artifact)
    throw createError('PP_NOT_FOUND', `Version ${versionId} has no ${kind} artifact${name ? ` named ${name}` : ''}.`);
  let bytes: Uint8Array;
  try {
    bytes = await ports.blobs.get(artifact.blob_key);
  } catch (err) {
    throw createError(
      'PP_ARTIFACT_HASH_MISMATCH',
      `The stored ${kind} artifact of version ${versionId} is missing; re-process the document.`,
      err,
    );
  }
  if (sha256Hex(bytes) !== artifact.sha256) {
    throw createError(
      'PP_ARTIFACT_HASH_MISMATCH',
      `The stored ${kind} artifact of version ${versionId} no longer matches its sha256; re-process the document.`,
    );
  }
  return { artifact, bytes };
}
