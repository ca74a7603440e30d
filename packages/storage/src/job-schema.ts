import type { Job, JobProgress } from '@pinpoint/core';
import type { Migration, SqliteDatabase } from './database.js';

export const jobMigrations: readonly Migration[] = [
  {
    id: 1,
    name: 'jobs',
    sql: `
CREATE TABLE jobs (
  seq INTEGER PRIMARY KEY AUTOINCREMENT,
  job_id TEXT NOT NULL UNIQUE,
  version_id TEXT NOT NULL, document_id TEXT NOT NULL, collection_id TEXT NOT NULL,
  file TEXT NOT NULL, recipe_key TEXT NOT NULL,
  state TEXT NOT NULL, stage TEXT NOT NULL, progress REAL NOT NULL DEFAULT 0,
  attempts INTEGER NOT NULL DEFAULT 0,
  error_code TEXT, error_message TEXT,
  created_at TEXT NOT NULL, started_at TEXT, finished_at TEXT,
  run_after INTEGER NOT NULL DEFAULT 0,
  lease_owner TEXT, lease_until INTEGER,
  cancel_requested INTEGER NOT NULL DEFAULT 0);
CREATE INDEX jobs_claim ON jobs (state, run_after, seq);
CREATE INDEX jobs_by_version ON jobs (version_id);
`,
  },
];

export interface JobRow {
  seq: number;
  job_id: string;
  version_id: string;
  document_id: string;
  collection_id: string;
  file: string;
  recipe_key: string;
  state: Job['state'];
  stage: Job['stage'];
  progress: number;
  attempts: number;
  error_code: string | null;
  error_message: string | null;
  created_at: string;
  started_at: string | null;
  finished_at: string | null;
  run_after: number;
  lease_owner: string | null;
  lease_until: number | null;
  cancel_requested: number;
}

export function jobFromRow(row: JobRow): Job {
  return {
    job_id: row.job_id,
    version_id: row.version_id,
    document_id: row.document_id,
    collection_id: row.collection_id,
    file: row.file,
    state: row.state,
    stage: row.stage,
    progress: row.progress,
    attempts: row.attempts,
    error_code: row.error_code,
    error_message: row.error_message,
    created_at: row.created_at,
    started_at: row.started_at,
    finished_at: row.finished_at,
  };
}

/** What the runner needs of its queue (kept apart so the two modules do not import each other). */
export interface QueueState {
  readonly db: SqliteDatabase;
  readonly owner: string;
  readonly maxAttempts: number;
  readonly backoffMs: number;
  readonly leaseMs: number;
  readonly pollMs: number;
  readonly running: Map<string, AbortController>;
  row(jobId: string): JobRow | undefined;
  notify(jobId: string): void;
  setProgress(jobId: string, p: JobProgress): void;
}
