import type { Artifact, Collection, PinDocument, Version } from '@pinpoint/core';
import { createError, identityCorrectionSchema, versionSchema } from '@pinpoint/core';

/** Row shapes of the SQLite metadata tables and their mapping to domain objects. */
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
  size: number;
  recipe: string;
  state: string;
  error_code: string | null;
  error_message: string | null;
  diagnostics: string;
  stats: string;
  /** JSON of the identity read at ingest (migration 4), null before. */
  identity: string | null;
  created_at: string;
  updated_at: string;
}

export function versionFromRow(row: VersionRow): Version {
  const { identity, ...rest } = row;
  return versionSchema.parse({
    ...rest,
    recipe: JSON.parse(row.recipe),
    diagnostics: JSON.parse(row.diagnostics),
    stats: JSON.parse(row.stats),
    ...(identity ? { identity: JSON.parse(identity) } : {}),
  });
}

export function versionToRow(v: Version): VersionRow {
  return {
    ...v,
    format: v.format,
    recipe: JSON.stringify(v.recipe),
    diagnostics: JSON.stringify(v.diagnostics),
    stats: JSON.stringify(v.stats),
    identity: v.identity ? JSON.stringify(v.identity) : null,
  };
}

export function collectionFromRow(row: unknown): Collection {
  return row as Collection;
}

export function documentFromRow(row: unknown): PinDocument {
  const { identity_correction: correction, ...doc } = row as PinDocument & { identity_correction?: string | null };
  return correction ? { ...doc, identity_correction: identityCorrectionSchema.parse(JSON.parse(correction)) } : doc;
}

export function artifactFromRow(row: unknown): Artifact {
  return row as Artifact;
}

export function notFound(what: string, id: string): never {
  throw createError('PP_NOT_FOUND', `${what} ${id} does not exist.`);
}
