import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import type { Job, JobFilter, JobProcessor, JobProgress, JobQueue, JobRunner, NewJob } from '@pinpoint/core';
import { createError, jobIdFor } from '@pinpoint/core';
import type { SqliteDatabase } from './database.js';
import { migrate, openDatabase } from './database.js';
import { SqliteJobRunner } from './job-runner.js';
import type { JobRow, QueueState } from './job-schema.js';
import { jobFromRow, jobMigrations } from './job-schema.js';

export interface SqliteJobQueueOptions {
  /** SQLite file (or ':memory:'). */
  path: string;
  /** Runs per job before a retryable error fails it for good. Default 3. */
  maxAttempts?: number;
  /** First retry delay; doubles per attempt. Default 1000 ms. */
  backoffMs?: number;
  /** A claimed job is owned for this long and renewed by a heartbeat; an expired lease is re-run. Default 30 s. */
  leaseMs?: number;
  /** How often an idle runner looks for work. Default 250 ms. */
  pollMs?: number;
}

const now = (): string => new Date().toISOString();

/**
 * The JobQueue port on a durable SQLite table. A job is claimed with a lease renewed by a heartbeat;
 * a job whose process died (dead pid on this host, or an expired lease) is queued again on the next
 * start, so interrupted work runs again. The processor must be idempotent.
 */
export class SqliteJobQueue implements JobQueue, QueueState {
  readonly db: SqliteDatabase;
  readonly owner = `${hostname()}/${process.pid}/${randomBytes(4).toString('hex')}`;
  readonly maxAttempts: number;
  readonly backoffMs: number;
  readonly leaseMs: number;
  readonly pollMs: number;
  readonly #listeners = new Set<(job: Job) => void>();
  readonly #runners = new Set<SqliteJobRunner>();
  /** Abort controllers of the jobs this process is running. */
  readonly running = new Map<string, AbortController>();

  constructor(options: SqliteJobQueueOptions) {
    this.db = openDatabase(options.path);
    migrate(this.db, 'jobs', jobMigrations);
    this.maxAttempts = options.maxAttempts ?? 3;
    this.backoffMs = options.backoffMs ?? 1000;
    this.leaseMs = options.leaseMs ?? 30_000;
    this.pollMs = options.pollMs ?? 250;
  }

  row(jobId: string): JobRow | undefined {
    return this.db.prepare('SELECT * FROM jobs WHERE job_id = ?').get(jobId) as JobRow | undefined;
  }

  #mustRow(jobId: string): JobRow {
    const row = this.row(jobId);
    if (!row) throw createError('PP_NOT_FOUND', `Job ${jobId} does not exist.`);
    return row;
  }

  /** Tells subscribers about the job's current row. */
  notify(jobId: string): void {
    const row = this.row(jobId);
    if (!row) return;
    const job = jobFromRow(row);
    for (const listener of this.#listeners) {
      try {
        listener(job);
      } catch {
        // A listener's failure must not break the queue.
      }
    }
  }

  async enqueue(input: NewJob): Promise<Job> {
    const jobId = jobIdFor(input.version_id, input.recipe_key);
    const inserted = this.db
      .prepare(
        `INSERT INTO jobs (job_id, version_id, document_id, collection_id, file, recipe_key, state, stage, created_at)
         VALUES (?, ?, ?, ?, ?, ?, 'queued', 'queued', ?) ON CONFLICT (job_id) DO NOTHING`,
      )
      .run(jobId, input.version_id, input.document_id, input.collection_id, input.file, input.recipe_key, now());
    if (inserted.changes > 0) {
      this.notify(jobId);
      for (const runner of this.#runners) runner.wake();
    }
    return jobFromRow(this.#mustRow(jobId));
  }

  async get(jobId: string): Promise<Job | null> {
    const row = this.row(jobId);
    return row ? jobFromRow(row) : null;
  }

  async list(filter: JobFilter = {}): Promise<Job[]> {
    // Only the filters given go into the SQL, so a version's jobs are found through jobs_by_version
    // (`(@v IS NULL OR version_id = @v)` would walk the whole table from the newest job).
    const where = [
      ...(filter.state !== undefined ? ['state = @s'] : []),
      ...(filter.collectionId !== undefined ? ['collection_id = @c'] : []),
      ...(filter.versionId !== undefined ? ['version_id = @v'] : []),
    ];
    const rows = this.db
      .prepare(`SELECT * FROM jobs${where.length > 0 ? ` WHERE ${where.join(' AND ')}` : ''} ORDER BY seq DESC LIMIT @limit`)
      .all({
        ...(filter.state !== undefined ? { s: filter.state } : {}),
        ...(filter.collectionId !== undefined ? { c: filter.collectionId } : {}),
        ...(filter.versionId !== undefined ? { v: filter.versionId } : {}),
        limit: filter.limit ?? 1000,
      });
    return (rows as JobRow[]).map(jobFromRow);
  }

  async cancel(jobId: string): Promise<Job> {
    const row = this.#mustRow(jobId);
    if (row.state === 'queued') {
      this.db
        .prepare(
          `UPDATE jobs SET state = 'cancelled', error_code = 'PP_JOB_CANCELLED', error_message = 'Cancelled before it started.',
           finished_at = ? WHERE job_id = ?`,
        )
        .run(now(), jobId);
    } else if (row.state === 'running') {
      this.db.prepare('UPDATE jobs SET cancel_requested = 1 WHERE job_id = ?').run(jobId);
      this.running.get(jobId)?.abort(createError('PP_JOB_CANCELLED', 'The job was cancelled.'));
    } else {
      throw createError('PP_CONFLICT', `Job ${jobId} is already ${row.state}; only queued or running jobs can be cancelled.`);
    }
    this.notify(jobId);
    return jobFromRow(this.#mustRow(jobId));
  }

  async retry(jobId: string): Promise<Job> {
    const row = this.#mustRow(jobId);
    if (row.state !== 'failed' && row.state !== 'cancelled') {
      throw createError('PP_CONFLICT', `Job ${jobId} is ${row.state}; only failed or cancelled jobs can be retried.`);
    }
    this.db
      .prepare(
        `UPDATE jobs SET state = 'queued', stage = 'queued', progress = 0, attempts = 0, error_code = NULL, error_message = NULL,
         started_at = NULL, finished_at = NULL, run_after = 0, cancel_requested = 0, lease_owner = NULL, lease_until = NULL
         WHERE job_id = ?`,
      )
      .run(jobId);
    this.notify(jobId);
    for (const runner of this.#runners) runner.wake();
    return jobFromRow(this.#mustRow(jobId));
  }

  /** Progress of a job this process runs; ignored once the job is no longer ours. */
  setProgress(jobId: string, p: JobProgress): void {
    const percent = Math.max(0, Math.min(100, p.percent));
    const r = this.db
      .prepare(`UPDATE jobs SET stage = ?, progress = ? WHERE job_id = ? AND state = 'running' AND lease_owner = ?`)
      .run(p.stage, percent, jobId, this.owner);
    if (r.changes > 0) this.notify(jobId);
  }

  start(processor: JobProcessor, options: { concurrency?: number } = {}): JobRunner {
    const runner = new SqliteJobRunner(this, processor, options.concurrency ?? 1, () => this.#runners.delete(runner));
    this.#runners.add(runner);
    runner.begin();
    return runner;
  }

  subscribe(listener: (job: Job) => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  async close(): Promise<void> {
    await Promise.all([...this.#runners].map((r) => r.stop()));
    this.#listeners.clear();
    if (this.db.open) this.db.close();
  }
}
