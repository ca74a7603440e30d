import type { Job, JobQueue, Version } from '@pinpoint/core';
import { toPinpointError } from '@pinpoint/core';
import type { EnginePorts } from './config.js';
import { withdrawVersion } from './ingest.js';
import { enqueueIngest } from './upload.js';

/** Where the engine reports what it cannot hand back to a caller: work it does in the background. */
export type EngineLog = (event: string, fields: Record<string, unknown>) => void;

/** One JSON line on stderr: the default, so nothing the engine does in the background goes unsaid. */
export const stderrLog: EngineLog = (event, fields) => {
  process.stderr.write(`${JSON.stringify({ time: new Date().toISOString(), event, ...fields })}\n`);
};

/** Keeps a version's state in step with its job when the queue (not the processor) decides the outcome. Idempotent. */
async function syncVersionWithJob(ports: EnginePorts, job: Job): Promise<void> {
  const v = await ports.metadata.getVersion(job.version_id);
  if (!v) return;
  if (job.state === 'failed' && v.state !== 'failed' && v.state !== 'ready') {
    await ports.metadata.updateVersion(v.version_id, {
      state: 'failed',
      error_code: job.error_code,
      error_message: job.error_message,
    });
  } else if (job.state === 'cancelled' && (v.state === 'queued' || v.state === 'processing')) {
    // Unindexed before the state changes: a sync that dies between the two leaves the version
    // unsearchable, and reconcileVersions finishes it.
    await ports.lexical.deleteVersion(v.version_id);
    await ports.vectors?.deleteVersion(v.version_id);
    await ports.metadata.updateVersion(v.version_id, {
      state: 'cancelled',
      error_code: 'PP_JOB_CANCELLED',
      error_message: job.error_message,
    });
  } else if (job.state === 'cancelled' && v.state === 'ready') {
    // The cancel landed after the run marked the version ready: the job says cancelled, so the version follows.
    await withdrawVersion(ports, v, job.error_message);
  } else if (job.state === 'queued' && (v.state === 'failed' || v.state === 'cancelled')) {
    await ports.metadata.updateVersion(v.version_id, { state: 'queued', error_code: null, error_message: null });
  }
}

/** Whether syncVersionWithJob would change the version: the job's outcome and the version's state disagree. */
function disagree(job: Job, version: Version): boolean {
  if (job.state === 'failed') return version.state === 'queued' || version.state === 'processing';
  if (job.state === 'cancelled') return version.state !== 'cancelled' && version.state !== 'failed';
  if (job.state === 'queued') return version.state === 'failed' || version.state === 'cancelled';
  return false;
}

const order = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/** The store's order of versions: created, then document, then number. */
const byCreation = (a: Version, b: Version) =>
  order(a.created_at, b.created_at) || order(a.document_id, b.document_id) || a.number - b.number;

/** An upload still under way in another process has its job within this long of creating its version. */
const UPLOAD_GRACE_MS = 60_000;

/**
 * Versions waiting to run with no job at all: an upload killed between creating the version and
 * queueing its job. With its original stored the job is queued now; without, the upload never
 * finished and the version fails with PP_UPLOAD_INTERRUPTED (the file must be sent again).
 */
export async function requeueJoblessVersions(ports: EnginePorts, graceMs = UPLOAD_GRACE_MS): Promise<string[]> {
  // Only the versions waiting to run are read: at a million chunks the store holds tens of thousands
  // of ready versions, and reading each at every start was most of a cold start's CPU.
  const waiting = (await Promise.all((['queued', 'processing'] as const).map((state) => ports.metadata.listVersions({ state }))))
    .flat()
    .filter((v) => Date.parse(v.created_at) < Date.now() - graceMs)
    .sort(byCreation);
  const changed: string[] = [];
  for (const version of waiting) {
    if ((await ports.queue.list({ versionId: version.version_id, limit: 1 })).length > 0) continue;
    if (await ports.metadata.getArtifact(version.version_id, 'original')) await enqueueIngest(ports, version);
    else {
      await ports.metadata.updateVersion(version.version_id, {
        state: 'failed',
        error_code: 'PP_UPLOAD_INTERRUPTED',
        error_message: `The upload of ${version.original_name} was interrupted before the file was stored; upload it again.`,
      });
    }
    changed.push(version.version_id);
  }
  return changed;
}

/**
 * Brings every version in line with its job: what a crash, a killed process or a sync that gave up
 * left behind. Returns the versions it changed.
 */
export async function reconcileVersions(ports: EnginePorts): Promise<string[]> {
  const all = { limit: Number.MAX_SAFE_INTEGER };
  const jobs = await Promise.all(
    (['failed', 'cancelled', 'queued'] as const).map((state) => ports.queue.list({ ...all, state })),
  );
  // The versions of these jobs alone, each as it is now (not every version of the store, read up front).
  const changed: string[] = [];
  for (const job of jobs.flat()) {
    const version = await ports.metadata.getVersion(job.version_id);
    if (!version || !disagree(job, version)) continue;
    await syncVersionWithJob(ports, job);
    changed.push(version.version_id);
  }
  return [...changed, ...(await requeueJoblessVersions(ports))];
}

/**
 * Applies every job change to its version in the background. A failure is logged with the job and
 * version, and retried with the job as it then is; after the last retry the version is left to
 * reconcileVersions (run at every start), and the log says so.
 */
export function followJobs(ports: EnginePorts, log: EngineLog, retryDelaysMs: readonly number[] = [100, 1000, 5000]) {
  const pending = new Set<Promise<void>>();
  const closing = new AbortController();
  const syncWithRetry = async (first: Job): Promise<void> => {
    let job: Job | null = first;
    for (let attempt = 1; job; attempt++) {
      try {
        await syncVersionWithJob(ports, job);
        if (attempt > 1) log('version-sync-recovered', { job_id: job.job_id, version_id: job.version_id, attempt });
        return;
      } catch (err) {
        const e = toPinpointError(err);
        const delay = retryDelaysMs[attempt - 1];
        const fields = { job_id: job.job_id, version_id: job.version_id, job_state: job.state, attempt, code: e.code };
        if (delay === undefined || closing.signal.aborted) {
          log('version-sync-gave-up', { ...fields, message: `${e.message} (reconciled at the next start)` });
          return;
        }
        log('version-sync-failed', { ...fields, message: e.message, retry_in_ms: delay });
        await sleep(delay, closing.signal);
        job = await currentJob(ports.queue, job);
      }
    }
  };
  const unsubscribe = ports.queue.subscribe((job) => {
    const run = syncWithRetry(job).finally(() => pending.delete(run));
    pending.add(run);
  });
  return {
    /** Stops following and waits for the syncs under way (no more retries). */
    stop: async (): Promise<void> => {
      closing.abort();
      unsubscribe();
      await Promise.all(pending);
    },
  };
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, ms);
    signal.addEventListener('abort', () => {
      clearTimeout(timer);
      resolve();
    });
  });
}

/** The job as it is now (a retry must not apply an outdated state); the last one seen when the queue cannot say. */
async function currentJob(queue: JobQueue, job: Job): Promise<Job | null> {
  try {
    return await queue.get(job.job_id);
  } catch {
    return job;
  }
}
