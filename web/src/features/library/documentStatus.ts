import type { Job, Version } from '../../api/types.js';
import type { MessageId } from '../../i18n/messages/en.js';
import { formatUnit } from '../../i18n/units.js';
import type { FileRow } from './uploadRows.js';

export type StatusTone = 'ok' | 'busy' | 'bad' | 'muted';

/**
 * What the documents page says about a version: its state, and while it is being processed the
 * stage its job is in (parsing, chunking, indexing…); a failure names its stable error code.
 */
export function versionStatus(version: Version, job?: Job): { label: MessageId; tone: StatusTone; code?: string } {
  switch (version.state) {
    case 'ready':
      return { label: 'state.ready', tone: 'ok' };
    case 'failed':
      return { label: 'state.failed', tone: 'bad', ...(version.error_code ? { code: version.error_code } : {}) };
    case 'cancelled':
      return { label: 'state.cancelled', tone: 'muted' };
    case 'queued':
      return { label: 'state.queued', tone: 'busy' };
    default:
      return {
        label: job?.state === 'running' && job.stage !== 'queued' ? `stage.${job.stage}` : 'state.processing',
        tone: 'busy',
      };
  }
}

/** The upload list's word for a row: the running job's stage, else its state. */
export function rowStateMessage(row: Pick<FileRow, 'state' | 'stage'>): MessageId {
  const id = row.state === 'running' ? `stage.${row.stage}` : `state.${row.state}`;
  return (STATE_WORDS as readonly string[]).includes(id) ? (id as MessageId) : 'state.processing';
}

const STATE_WORDS = [
  'state.queued',
  'state.running',
  'state.ready',
  'state.failed',
  'state.cancelled',
  'stage.queued',
  'stage.parsing',
  'stage.chunking',
  'stage.indexing',
  'stage.embedding',
  'stage.done',
] as const satisfies readonly MessageId[];

/** Whether any version is still on its way (the page then follows the job events and reloads). */
export const anyBusy = (versions: readonly Version[]): boolean =>
  versions.some((v) => v.state === 'queued' || v.state === 'processing');

/** A file size in the page's language (Intl units: "2.0 kB", "2.0 KB", "2.0 kB"). */
export function formatBytes(n: number, locale = 'en'): string {
  const unit = (u: string, value: number, digits: number) => formatUnit(locale, u, value, digits);
  if (n < 1024) return unit('byte', n, 0);
  if (n < 1024 * 1024) return unit('kilobyte', n / 1024, 1);
  return unit('megabyte', n / (1024 * 1024), 1);
}
