import { hostname } from 'node:os';
import type { JobProcessor, JobRunner } from '@pinpoint/core';
import { createError, type PinpointError, toPinpointError } from '@pinpoint/core';
import type { JobRow, QueueState } from './job-schema.js';
import { jobFromRow } from './job-schema.js';

const now = (): string => new Date().toISOString();

function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Whether a running job's owner is gone: its lease expired, or its process on this host died. */
export function ownerGone(row: Pick<JobRow, 'lease_until' | 'lease_owner'>, at: number): boolean {
  if (row.lease_until !== null && row.lease_until < at) return true;
  const [host, pid] = (row.lease_owner ?? '').split('/');
  return host === hostname() && Number(pid) !== process.pid && !processAlive(Number(pid));
}

/** The consuming loop of SqliteJobQueue: claims jobs with a lease, runs them, records the outcome. */
export class SqliteJobRunner implements JobRunner {
  readonly #q: QueueState;
  readonly #processor: JobProcessor;
  readonly #concurrency: number;
  readonly #onStop: () => void;
  readonly #active = new Map<string, Promise<void>>();
  #stopped = false;
  #wake: (() => void) | null = null;
  #loop: Promise<void> = Promise.resolve();
  #lastRecovery = 0;
  /** Outcomes of finished jobs that could not be written yet (a full disk), written again each turn. */
  readonly #unsettled = new Map<string, unknown>();
  #stalledBy: PinpointError | null = null;

  constructor(q: QueueState, processor: JobProcessor, concurrency: number, onStop: () => void) {
    this.#q = q;
    this.#processor = processor;
    this.#concurrency = Math.max(1, concurrency);
    this.#onStop = onStop;
  }

  begin(): void {
    this.#loop = this.#run();
  }

  wake(): void {
    this.#wake?.();
  }

  stalledBy(): PinpointError | null {
    return this.#stalledBy;
  }

  /**
   * One turn's writes: outcomes not yet recorded, recovery, a claim. A write refused (a full disk)
   * stalls the runner, not the process: it is reported by `stalledBy` and tried again next turn.
   */
  #turn(): JobRow | undefined {
    try {
      for (const [jobId, error] of this.#unsettled) {
        this.#finish(jobId, error);
        this.#unsettled.delete(jobId);
      }
      if (Date.now() - this.#lastRecovery > this.#q.leaseMs / 2) this.#recover();
      const row = this.#active.size < this.#concurrency ? this.#claim() : undefined;
      this.#stalledBy = null;
      return row;
    } catch (err) {
      this.#stalledBy = toPinpointError(err);
      return undefined;
    }
  }

  async #run(): Promise<void> {
    while (!this.#stopped) {
      const row = this.#turn();
      if (row) {
        const p = this.#execute(row).finally(() => {
          this.#active.delete(row.job_id);
          this.wake();
        });
        this.#active.set(row.job_id, p);
        continue;
      }
      await new Promise<void>((resolve) => {
        const t = setTimeout(resolve, this.#q.pollMs);
        this.#wake = () => {
          clearTimeout(t);
          resolve();
        };
      });
      this.#wake = null;
    }
  }

  /** Interrupted jobs (owner died or lease expired) go back to the queue, or fail once out of attempts. */
  #recover(): void {
    this.#lastRecovery = Date.now();
    const at = Date.now();
    const rows = this.#q.db.prepare(`SELECT * FROM jobs WHERE state = 'running'`).all() as JobRow[];
    for (const row of rows.filter((r) => ownerGone(r, at))) {
      const exhausted = row.attempts >= this.#q.maxAttempts;
      this.#q.db
        .prepare(
          `UPDATE jobs SET state = ?, stage = CASE WHEN ? THEN stage ELSE 'queued' END, lease_owner = NULL, lease_until = NULL,
           error_code = ?, error_message = ?, finished_at = ? WHERE job_id = ? AND state = 'running' AND lease_owner IS ?`,
        )
        .run(
          exhausted ? 'failed' : 'queued',
          exhausted ? 1 : 0,
          exhausted ? 'PP_INTERNAL' : row.error_code,
          exhausted ? `The job was interrupted ${row.attempts} times (the process running it stopped).` : row.error_message,
          exhausted ? now() : null,
          row.job_id,
          row.lease_owner,
        );
      this.#q.notify(row.job_id);
    }
  }

  #claim(): JobRow | undefined {
    const q = this.#q;
    return q.db
      .transaction(() => {
        const row = q.db
          .prepare(`SELECT * FROM jobs WHERE state = 'queued' AND run_after <= ? ORDER BY seq LIMIT 1`)
          .get(Date.now()) as JobRow | undefined;
        if (!row) return undefined;
        q.db
          .prepare(
            `UPDATE jobs SET state = 'running', attempts = attempts + 1, lease_owner = ?, lease_until = ?,
             started_at = COALESCE(started_at, ?), cancel_requested = 0 WHERE job_id = ?`,
          )
          .run(q.owner, Date.now() + q.leaseMs, now(), row.job_id);
        return q.row(row.job_id);
      })
      .immediate();
  }

  async #execute(row: JobRow): Promise<void> {
    const q = this.#q;
    const controller = new AbortController();
    q.running.set(row.job_id, controller);
    q.notify(row.job_id);
    const heartbeat = setInterval(() => this.#heartbeat(row.job_id, controller), Math.max(50, q.leaseMs / 3));
    let error: unknown = null;
    try {
      await this.#processor(jobFromRow(row), {
        signal: controller.signal,
        attempt: row.attempts,
        progress: async (p) => q.setProgress(row.job_id, p),
      });
    } catch (err) {
      error = err;
    } finally {
      clearInterval(heartbeat);
      q.running.delete(row.job_id);
    }
    if (!q.db.open) return;
    try {
      this.#finish(row.job_id, error);
    } catch (err) {
      this.#stalledBy = toPinpointError(err);
      this.#unsettled.set(row.job_id, error);
    }
  }

  #heartbeat(jobId: string, controller: AbortController): void {
    try {
      this.#renew(jobId, controller);
    } catch {
      // a lease not renewed (a full disk) is renewed next beat; the job runs on meanwhile
    }
  }

  #renew(jobId: string, controller: AbortController): void {
    const q = this.#q;
    if (!q.db.open) return;
    q.db
      .prepare('UPDATE jobs SET lease_until = ? WHERE job_id = ? AND lease_owner = ?')
      .run(Date.now() + q.leaseMs, jobId, q.owner);
    const row = q.row(jobId);
    if (row?.cancel_requested && !controller.signal.aborted) {
      controller.abort(createError('PP_JOB_CANCELLED', 'The job was cancelled.'));
    }
  }

  #finish(jobId: string, error: unknown): void {
    const q = this.#q;
    const row = q.row(jobId);
    if (!row || row.lease_owner !== q.owner || row.state !== 'running') return;
    const set = (sql: string, ...args: unknown[]): void => {
      q.db.prepare(`UPDATE jobs SET ${sql}, lease_owner = NULL, lease_until = NULL WHERE job_id = ?`).run(...args, jobId);
    };
    const e = error === null ? null : toPinpointError(error);
    if (row.cancel_requested || e?.code === 'PP_JOB_CANCELLED') {
      set(
        `state = 'cancelled', error_code = 'PP_JOB_CANCELLED', error_message = 'The job was cancelled.', finished_at = ?`,
        now(),
      );
    } else if (!e) {
      set(`state = 'succeeded', stage = 'done', progress = 100, error_code = NULL, error_message = NULL, finished_at = ?`, now());
    } else if (e.retryable && row.attempts < q.maxAttempts) {
      const delay = q.backoffMs * 2 ** (row.attempts - 1);
      set(
        `state = 'queued', stage = 'queued', error_code = ?, error_message = ?, run_after = ?`,
        e.code,
        e.message,
        Date.now() + delay,
      );
    } else {
      set(`state = 'failed', error_code = ?, error_message = ?, finished_at = ?`, e.code, e.message, now());
    }
    q.notify(jobId);
  }

  async stop(): Promise<void> {
    this.#stopped = true;
    this.wake();
    await this.#loop;
    await Promise.all(this.#active.values());
    this.#onStop();
  }
}
