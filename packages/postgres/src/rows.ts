import type {
  Artifact,
  Collection,
  DocumentIdentity,
  Format,
  IdentityCorrection,
  PinDocument,
  Version,
  VersionPatch,
  VersionState,
} from '@pinpoint/core';

const iso = (value: Date | string): string => (value instanceof Date ? value : new Date(value)).toISOString();

export interface CollectionRow {
  collection_id: string;
  name: string;
  created_at: Date;
}

export const toCollection = (r: CollectionRow): Collection => ({
  collection_id: r.collection_id,
  name: r.name,
  created_at: iso(r.created_at),
});

export interface DocumentRow extends CollectionRow {
  document_id: string;
  identity_correction: IdentityCorrection | null;
}

export const toDocument = (r: DocumentRow): PinDocument => ({
  document_id: r.document_id,
  collection_id: r.collection_id,
  name: r.name,
  created_at: iso(r.created_at),
  ...(r.identity_correction ? { identity_correction: r.identity_correction } : {}),
});

export interface VersionRow {
  version_id: string;
  document_id: string;
  collection_id: string;
  number: number;
  source_sha256: string;
  original_name: string;
  declared_mime: string | null;
  sniffed_mime: string | null;
  format: string | null;
  size: string;
  recipe: Version['recipe'];
  state: string;
  error_code: string | null;
  error_message: string | null;
  diagnostics: Version['diagnostics'];
  stats: Version['stats'];
  identity: DocumentIdentity | null;
  created_at: Date;
  updated_at: Date;
}

export const toVersion = (r: VersionRow): Version => ({
  version_id: r.version_id,
  document_id: r.document_id,
  collection_id: r.collection_id,
  number: r.number,
  source_sha256: r.source_sha256,
  original_name: r.original_name,
  declared_mime: r.declared_mime,
  sniffed_mime: r.sniffed_mime,
  format: r.format as Format | null,
  size: Number(r.size),
  recipe: r.recipe,
  state: r.state as VersionState,
  error_code: r.error_code,
  error_message: r.error_message,
  diagnostics: r.diagnostics,
  stats: r.stats,
  ...(r.identity ? { identity: r.identity } : {}),
  created_at: iso(r.created_at),
  updated_at: iso(r.updated_at),
});

export interface ArtifactRow extends Omit<Artifact, 'size'> {
  size: string;
}

export const toArtifact = (r: ArtifactRow): Artifact => ({
  version_id: r.version_id,
  kind: r.kind,
  name: r.name,
  sha256: r.sha256,
  size: Number(r.size),
  mime: r.mime,
  blob_key: r.blob_key,
});

const PATCH_COLUMNS = [
  'state',
  'error_code',
  'error_message',
  'diagnostics',
  'stats',
  'format',
  'sniffed_mime',
  'recipe',
  'identity',
] as const;
const JSON_COLUMNS = new Set<string>(['diagnostics', 'stats', 'recipe', 'identity']);

/** `SET a = $2, b = $3…` for the fields present in the patch (parameter $1 is the version id). */
export function patchAssignments(patch: VersionPatch): { sql: string; values: unknown[] } {
  const sets: string[] = [];
  const values: unknown[] = [];
  for (const column of PATCH_COLUMNS) {
    const value = patch[column];
    if (value === undefined) continue;
    values.push(JSON_COLUMNS.has(column) ? JSON.stringify(value) : value);
    sets.push(`${column} = $${values.length + 1}${JSON_COLUMNS.has(column) ? '::jsonb' : ''}`);
  }
  values.push(new Date());
  sets.push(`updated_at = $${values.length + 1}`);
  return { sql: sets.join(', '), values };
}
