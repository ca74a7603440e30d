import type { Job } from '@pinpoint/core';
import { describe, expect, it } from 'vitest';
import { canCancel, canRetry, countByState, filterJobs, formatDuration, jobDuration, mergeJob } from './jobs.js';

const job = (id: string, patch: Partial<Job> = {}): Job => ({
  job_id: id,
  version_id: `ver_${id}`,
  document_id: 'doc',
  collection_id: 'col',
  file: `${id}.pdf`,
  state: 'queued',
  stage: 'queued',
  progress: 0,
  attempts: 0,
  error_code: null,
  error_message: null,
  created_at: '2026-01-01T00:00:00.000Z',
  started_at: null,
  finished_at: null,
  ...patch,
});

describe('job list', () => {
  it('replaces a job by id and puts new jobs first', () => {
    const list = [job('a'), job('b')];
    const updated = mergeJob(list, job('b', { state: 'running', progress: 40 }));
    expect(updated.map((j) => [j.job_id, j.progress])).toEqual([
      ['a', 0],
      ['b', 40],
    ]);
    expect(mergeJob(list, job('c')).map((j) => j.job_id)).toEqual(['c', 'a', 'b']);
    expect(list[1]?.progress).toBe(0);
  });

  it('filters by state and text', () => {
    const list = [
      job('a', { state: 'failed', error_code: 'PP_PARSE_ENCRYPTED_PDF' }),
      job('b', { state: 'running' }),
      job('c', { state: 'succeeded' }),
    ];
    expect(filterJobs(list, { state: 'active', text: '' }).map((j) => j.job_id)).toEqual(['b']);
    expect(filterJobs(list, { state: 'failed', text: '' }).map((j) => j.job_id)).toEqual(['a']);
    expect(filterJobs(list, { state: 'all', text: 'encrypted' }).map((j) => j.job_id)).toEqual(['a']);
    expect(countByState(list)).toEqual({ queued: 0, running: 1, succeeded: 1, failed: 1, cancelled: 0 });
  });

  it('measures durations of finished and running jobs', () => {
    const started = '2026-01-01T00:00:00.000Z';
    expect(jobDuration(job('a'), 0)).toBeNull();
    expect(jobDuration(job('a', { started_at: started, finished_at: '2026-01-01T00:00:02.500Z' }), 0)).toBe(2500);
    expect(jobDuration(job('a', { started_at: started }), Date.parse(started) + 90_000)).toBe(90_000);
    expect(formatDuration(2500)).toBe('2.5 sec');
    expect(formatDuration(90_000)).toBe('1 min 30 sec');
    expect(formatDuration(2500, 'ja')).toBe('2.5 秒');
    expect(formatDuration(12)).toBe('12 ms');
  });

  it('offers cancel for live jobs and retry for failed or cancelled ones', () => {
    expect(canCancel(job('a', { state: 'running' }))).toBe(true);
    expect(canCancel(job('a', { state: 'failed' }))).toBe(false);
    expect(canRetry(job('a', { state: 'cancelled' }))).toBe(true);
    expect(canRetry(job('a', { state: 'succeeded' }))).toBe(false);
  });
});
