import { createHash, randomUUID } from 'node:crypto';

export function sha256Hex(data: Uint8Array | string): string {
  return createHash('sha256').update(data).digest('hex');
}

/** Random, sortable-enough id with a readable prefix: "col_…", "doc_…", "ver_…". */
export function newId(prefix: 'col' | 'doc' | 'ver' | 'usr' | 'tok' | 'aud' | 'his' | 'inv'): string {
  return `${prefix}_${randomUUID().replaceAll('-', '').slice(0, 20)}`;
}

/** Deterministic job id: the same version + recipe always maps to the same job. */
export function jobIdFor(versionId: string, recipeKey: string): string {
  return `job_${sha256Hex(`${versionId}\u0000${recipeKey}`).slice(0, 24)}`;
}

/** Stable element id within a version, by document order. */
export function elementId(ordinal: number): string {
  return `e${String(ordinal).padStart(6, '0')}`;
}

/** Stable chunk id within a version. */
export function chunkId(versionId: string, ordinal: number): string {
  return `${versionId}:c${String(ordinal).padStart(6, '0')}`;
}
