import type { ResolvedCitation } from '../../api/types.js';
import type { MessageId } from '../../i18n/messages/en.js';

export type PrecisionLevel = ResolvedCitation['precision'];

export interface PrecisionInfo {
  label: MessageId;
  detail: MessageId;
  /** Unresolved citations are never drawn as a highlight (DESIGN.md §4.4). */
  drawHighlight: boolean;
}

const PRECISION: Record<PrecisionLevel, PrecisionInfo> = {
  exact: { label: 'precision.exact', detail: 'precision.exact.detail', drawHighlight: true },
  element: { label: 'precision.element', detail: 'precision.element.detail', drawHighlight: true },
  unresolved: { label: 'precision.unresolved', detail: 'precision.unresolved.detail', drawHighlight: false },
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

/** Why the reader shows nothing: a title, and what the person can do (a message, or the failure worded by its code). */
export interface ReaderProblem {
  title: MessageId;
  detail: { id: MessageId; values?: Record<string, string> } | { error: unknown };
}

/**
 * Checks that the server answered for the version the citation was made on. Anything else would
 * move the highlight to another version behind the reader's back, so it is a problem, not a view.
 */
export function checkResolvedVersion(resolved: Pick<ResolvedCitation, 'version'>, citedVersionId: string): ReaderProblem | null {
  if (resolved.version.version_id === citedVersionId) return null;
  return {
    title: 'problem.otherVersion',
    detail: { id: 'problem.otherVersion.detail', values: { cited: citedVersionId, returned: resolved.version.version_id } },
  };
}

/** Turns an API failure into what the reader shows; a hash mismatch is an error, never a guess. */
export function describeReaderError(error: { code?: string; message?: string; status?: number }): ReaderProblem {
  if (error.code === 'PP_ARTIFACT_HASH_MISMATCH' || error.status === 409) {
    return { title: 'problem.hashMismatch', detail: { id: 'problem.hashMismatch.detail' } };
  }
  if (error.status === 404) return { title: 'problem.gone', detail: { id: 'problem.gone.detail' } };
  return { title: 'problem.failed', detail: { error } };
}
