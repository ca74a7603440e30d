import type { Job } from '@pinpoint/core';
import { formatUnit } from '../../i18n/units.js';

/** Applies one job event to the list: replace by id, or add new jobs first (newest first). */
export function mergeJob(jobs: readonly Job[], job: Job): Job[] {
  const i = jobs.findIndex((j) => j.job_id === job.job_id);
  if (i < 0) return [job, ...jobs];
  const next = jobs.slice();
  next[i] = job;
  return next;
}

export interface JobFilter {
  state: Job['state'] | 'all' | 'active';
  text: string;
}

export function filterJobs(jobs: readonly Job[], filter: JobFilter): Job[] {
  const needle = filter.text.trim().toLowerCase();
  return jobs.filter((j) => {
    if (filter.state === 'active' && j.state !== 'queued' && j.state !== 'running') return false;
    if (filter.state !== 'all' && filter.state !== 'active' && j.state !== filter.state) return false;
    if (!needle) return true;
    return [j.file, j.job_id, j.version_id, j.error_code ?? '', j.error_message ?? ''].some((s) =>
      s.toLowerCase().includes(needle),
    );
  });
}

/** Milliseconds the job ran (or has been running); null before it started. */
export function jobDuration(job: Pick<Job, 'started_at' | 'finished_at'>, now: number): number | null {
  if (!job.started_at) return null;
  const start = Date.parse(job.started_at);
  const end = job.finished_at ? Date.parse(job.finished_at) : now;
  if (!Number.isFinite(start) || !Number.isFinite(end)) return null;
  return Math.max(0, end - start);
}

/** A job's duration in the page's language, through Intl's units ("2.5 sec", "2.5 秒", "1 min 30 sec"). */
export function formatDuration(ms: number | null, locale = 'en'): string {
  if (ms === null) return '—';
  const unit = (u: string, value: number, digits = 0) => formatUnit(locale, u, value, digits);
  if (ms < 1000) return unit('millisecond', Math.round(ms));
  const s = ms / 1000;
  if (s < 60) return unit('second', s, 1);
  const m = Math.floor(s / 60);
  return `${unit('minute', m)} ${unit('second', Math.round(s - m * 60))}`;
}

export const canCancel = (job: Pick<Job, 'state'>) => job.state === 'queued' || job.state === 'running';
export const canRetry = (job: Pick<Job, 'state'>) => job.state === 'failed' || job.state === 'cancelled';

export function countByState(jobs: readonly Job[]): Record<Job['state'], number> {
  const counts = { queued: 0, running: 0, succeeded: 0, failed: 0, cancelled: 0 };
  for (const j of jobs) counts[j.state]++;
  return counts;
}
