import type { ResolvedCitation } from '../../api/types.js';

export type PrecisionLevel = ResolvedCitation['precision'];

export interface PrecisionInfo {
  label: string;
  detail: string;
  /** Unresolved citations are never drawn as a highlight (DESIGN.md §4.4). */
  drawHighlight: boolean;
}

const PRECISION: Record<PrecisionLevel, PrecisionInfo> = {
  exact: { label: 'Exact', detail: 'The highlighted range is exactly what the answer cites.', drawHighlight: true },
  element: {
    label: 'Element',
    detail: 'The cited passage is inside the highlighted element; its exact span could not be narrowed further.',
    drawHighlight: true,
  },
  unresolved: {
    label: 'Unresolved',
    detail: 'This citation could not be located in the stored source map, so nothing is highlighted.',
    drawHighlight: false,
  },
};

export function precisionInfo(precision: PrecisionLevel): PrecisionInfo {
  return PRECISION[precision];
}

export type VersionNotice =
  | { kind: 'current' }
  /** A newer version exists: say so and offer it; the highlight stays on the cited version. */
  | { kind: 'newer'; newerVersionId: string; citedNumber: number };

export function versionNotice(resolved: Pick<ResolvedCitation, 'version' | 'newer_version_id'>): VersionNotice {
  const newer = resolved.newer_version_id;
  if (!newer || newer === resolved.version.version_id) return { kind: 'current' };
  return { kind: 'newer', newerVersionId: newer, citedNumber: resolved.version.number };
}

export interface ReaderProblem {
  title: string;
  detail: string;
}

/**
 * Checks that the server answered for the version the citation was made on. Anything else would
 * move the highlight to another version behind the reader's back, so it is a problem, not a view.
 */
export function checkResolvedVersion(resolved: Pick<ResolvedCitation, 'version'>, citedVersionId: string): ReaderProblem | null {
  if (resolved.version.version_id === citedVersionId) return null;
  return {
    title: 'This citation points at another version',
    detail: `The link cites version ${citedVersionId}, but the server returned ${resolved.version.version_id}. Nothing is highlighted.`,
  };
}

/** Turns an API failure into what the reader shows; a hash mismatch is an error, never a guess. */
export function describeReaderError(error: { code?: string; message?: string; status?: number }): ReaderProblem {
  if (error.code === 'PP_ARTIFACT_HASH_MISMATCH' || error.status === 409) {
    return {
      title: 'The stored file no longer matches this citation',
      detail: `${error.message ?? 'The artifact hash differs from the one recorded.'} The reader will not guess where the passage is now.`,
    };
  }
  if (error.status === 404) {
    return { title: 'This citation no longer exists', detail: error.message ?? 'The version or element was not found.' };
  }
  return { title: 'The citation could not be opened', detail: error.message ?? 'Unknown error.' };
}
