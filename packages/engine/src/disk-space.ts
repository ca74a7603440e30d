import { statfs } from 'node:fs/promises';
import { createError, type PinpointError, toPinpointError } from '@pinpoint/core';

const MB = 1024 * 1024;

/** Free and total bytes of the file system holding `dir` (what an unprivileged writer may use), or null when it cannot be read. */
export async function diskSpace(dir: string): Promise<{ free: number; total: number } | null> {
  try {
    const s = await statfs(dir);
    return { free: s.bavail * s.bsize, total: s.blocks * s.bsize };
  } catch {
    return null;
  }
}

export const megabytes = (bytes: number): string => `${(bytes / MB).toFixed(bytes < 10 * MB ? 1 : 0)} MB`;

/**
 * A full disk in our words: what was being done, where (the path the write named, else the data
 * folder) and how much space is left there now, and what to do.
 */
export async function diskFullError(err: unknown, doing: string, dataDir: string | undefined): Promise<PinpointError> {
  const e = toPinpointError(err);
  const path = err && typeof err === 'object' && 'path' in err && typeof err.path === 'string' ? err.path : undefined;
  const where = path ?? dataDir;
  const space = dataDir ? await diskSpace(dataDir) : null;
  const left = space ? `; ${megabytes(space.free)} of ${megabytes(space.total)} free there now` : '';
  return createError(
    'PP_DISK_FULL',
    `${doing} stopped: the disk is full${where ? ` (writing ${where})` : ''}${left}. Free space, then Retry.`,
    e.cause ?? err,
  );
}

/**
 * Refuses new uploads while the disk holding the data has less free than the reserve: what is left
 * goes to ingesting what was already accepted. Nothing to check without a data folder or a reserve.
 */
export async function refuseUploadsWhenLow(dataDir: string | undefined, minFreeBytes: number | undefined): Promise<void> {
  if (!dataDir || !minFreeBytes) return;
  const space = await diskSpace(dataDir);
  if (!space || space.free >= minFreeBytes) return;
  throw createError(
    'PP_DISK_FULL',
    `Uploads are refused: ${megabytes(space.free)} free on the disk of ${dataDir}, below the reserve of ${megabytes(minFreeBytes)} (PINPOINT_MIN_FREE_MB). Free space, then upload again.`,
  );
}
