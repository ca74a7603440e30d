import type { Job, Version } from '../../api/types.js';

export type StatusTone = 'ok' | 'busy' | 'bad' | 'muted';

/**
 * What the documents page says about a version: its state, and while it is being processed the
 * stage its job is in (parsing, chunking, indexing…); a failure names its stable error code.
 */
export function versionStatus(version: Version, job?: Job): { label: string; tone: StatusTone; code?: string } {
  switch (version.state) {
    case 'ready':
      return { label: 'ready', tone: 'ok' };
    case 'failed':
      return { label: 'failed', tone: 'bad', ...(version.error_code ? { code: version.error_code } : {}) };
    case 'cancelled':
      return { label: 'cancelled', tone: 'muted' };
    case 'queued':
      return { label: 'queued', tone: 'busy' };
    default:
      return { label: job?.state === 'running' && job.stage !== 'queued' ? job.stage : 'processing', tone: 'busy' };
  }
}

/** Whether any version is still on its way (the page then follows the job events and reloads). */
export const anyBusy = (versions: readonly Version[]): boolean =>
  versions.some((v) => v.state === 'queued' || v.state === 'processing');

export function formatBytes(n: number): string {
  if (n < 1024) return `${n} B`;
  if (n < 1024 * 1024) return `${(n / 1024).toFixed(1)} KB`;
  return `${(n / (1024 * 1024)).toFixed(1)} MB`;
}
