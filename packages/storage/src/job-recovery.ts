import { openDatabase } from './database.js';
import { ownerGone } from './job-runner.js';
import type { JobRow } from './job-schema.js';

export interface StuckJob {
  job_id: string;
  version_id: string;
  file: string;
  lease_owner: string | null;
}

const REQUEUE = `UPDATE jobs SET state = 'queued', stage = 'queued', lease_owner = NULL, lease_until = NULL
  WHERE job_id = ? AND state = 'running'`;

/** Jobs of a jobs.db that say they are running while no runner holds them (owner dead or lease expired). */
export function stuckJobs(path: string): StuckJob[] {
  const db = openDatabase(path);
  try {
    const rows = db.prepare(`SELECT * FROM jobs WHERE state = 'running'`).all() as JobRow[];
    return rows
      .filter((r) => ownerGone(r, Date.now()))
      .map((r) => ({ job_id: r.job_id, version_id: r.version_id, file: r.file, lease_owner: r.lease_owner }));
  } finally {
    db.close();
  }
}

/** Puts the stuck jobs back in the queue (attempts kept); returns how many. */
export function requeueStuckJobs(path: string): number {
  const stuck = stuckJobs(path);
  const db = openDatabase(path);
  try {
    db.transaction(() => {
      for (const job of stuck) db.prepare(REQUEUE).run(job.job_id);
    })();
    return stuck.length;
  } finally {
    db.close();
  }
}

/**
 * Puts every running job back in the queue: for a jobs.db restored from a backup, whose runners
 * belong to the server the backup was taken from, not to this folder.
 */
export function releaseAllLeases(path: string): number {
  const db = openDatabase(path);
  try {
    return db
      .prepare(
        `UPDATE jobs SET state = 'queued', stage = 'queued', lease_owner = NULL, lease_until = NULL WHERE state = 'running'`,
      )
      .run().changes;
  } finally {
    db.close();
  }
}
