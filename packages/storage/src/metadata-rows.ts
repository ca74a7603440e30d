import type { Artifact, Collection, PinDocument, Version } from '@pinpoint/core';
import { createError, versionSchema } from '@pinpoint/core';

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
  created_at: string;
  updated_at: string;
}

export function versionFromRow(row: VersionRow): Version {
  return versionSchema.parse({
    ...row,
    recipe: JSON.parse(row.recipe),
    diagnostics: JSON.parse(row.diagnostics),
    stats: JSON.parse(row.stats),
  });
}

export function versionToRow(v: Version): VersionRow {
  return {
    ...v,
    format: v.format,
    recipe: JSON.stringify(v.recipe),
    diagnostics: JSON.stringify(v.diagnostics),
    stats: JSON.stringify(v.stats),
  };
}

export function collectionFromRow(row: unknown): Collection {
  return row as Collection;
}

export function documentFromRow(row: unknown): PinDocument {
  return row as PinDocument;
}

export function artifactFromRow(row: unknown): Artifact {
  return row as Artifact;
}

export function notFound(what: string, id: string): never {
  throw createError('PP_NOT_FOUND', `${what} ${id} does not exist.`);
}
