import type { BlobStore, MetadataStore, Version } from '@pinpoint/core';
import { sha256Hex } from '@pinpoint/core';

/** One thing wrong, in a sentence that names what (a version, a segment, a job, a file). */
export interface Problem {
  kind: 'sqlite' | 'blob' | 'lexical' | 'vectors' | 'job' | 'version';
  message: string;
  version_id?: string;
}

/** The chunks an index should hold and the versions whose chunks may come and go (a run under way). */
export interface Expected {
  chunks: Map<string, string>;
  inFlight: Set<string>;
  versions: Map<string, Version>;
}

export async function expectedChunks(metadata: MetadataStore): Promise<Expected> {
  const versions = new Map((await metadata.listVersions()).map((v) => [v.version_id, v]));
  const chunks = new Map<string, string>();
  for (const versionId of await metadata.latestReadyVersionIds()) {
    for (const c of await metadata.listChunks(versionId)) chunks.set(c.chunk_id, versionId);
  }
  const inFlight = new Set(
    [...versions.values()].filter((v) => v.state === 'queued' || v.state === 'processing').map((v) => v.version_id),
  );
  return { chunks, inFlight, versions };
}

const describe = (v: Version | undefined, id: string): string =>
  v ? `version ${id} (${v.original_name} v${v.number})` : `version ${id}`;

/**
 * Chunks the ready versions should have in an index but do not (by version), and chunks it holds
 * that no ready version should (orphans: versions failed, cancelled, retired or gone).
 */
export function compareIndex(kind: 'lexical' | 'vectors', held: Map<string, string>, expected: Expected): Problem[] {
  const missing = new Map<string, number>();
  for (const [chunk, version] of expected.chunks) if (!held.has(chunk)) missing.set(version, (missing.get(version) ?? 0) + 1);
  const orphans = new Map<string, number>();
  for (const [chunk, version] of held) {
    if (expected.chunks.has(chunk) || expected.inFlight.has(version)) continue;
    orphans.set(version, (orphans.get(version) ?? 0) + 1);
  }
  const name = kind === 'lexical' ? 'lexical index' : 'vector store';
  return [
    ...[...missing].map(([id, n]) => ({
      kind,
      version_id: id,
      message: `${describe(expected.versions.get(id), id)} is ready but ${n} of its chunks are missing from the ${name}`,
    })),
    ...[...orphans].map(([id, n]) => ({
      kind,
      version_id: id,
      message: `the ${name} holds ${n} orphan chunks of ${describe(expected.versions.get(id), id)}, which is not a searchable version`,
    })),
  ];
}

/** Every artifact's bytes against its sha256 (each blob read once); an original that fails is named as such. */
export async function checkBlobs(metadata: MetadataStore, blobs: BlobStore, versions: Iterable<Version>): Promise<Problem[]> {
  const verdict = new Map<string, 'ok' | 'missing' | 'altered'>();
  const problems: Problem[] = [];
  for (const v of versions) {
    for (const a of await metadata.listArtifacts(v.version_id)) {
      let state = verdict.get(a.blob_key);
      if (!state) {
        state = await blobs.get(a.blob_key).then(
          (bytes) => (sha256Hex(bytes) === a.sha256 ? 'ok' : 'altered'),
          () => 'missing' as const,
        );
        verdict.set(a.blob_key, state);
      }
      if (state === 'ok') continue;
      const what = a.kind === 'original' ? 'original' : `${a.kind} artifact`;
      problems.push({
        kind: 'blob',
        version_id: v.version_id,
        message: `the ${what} of ${describe(v, v.version_id)} is ${state === 'missing' ? 'missing' : 'altered: its bytes no longer match its sha256'} (blob ${a.blob_key})`,
      });
    }
  }
  return problems;
}
