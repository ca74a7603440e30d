import { useEffect, useState } from 'react';
import { api } from '../../../api/client.js';
import type { Collection, Job, VersionDetail } from '../../../api/types.js';
import type { JobFilter } from '../jobs.js';
import { canCancel, canRetry, countByState, filterJobs, formatDuration, jobDuration } from '../jobs.js';
import type { JobAction } from '../useJobs.js';
import { useJobs } from '../useJobs.js';
import styles from './JobConsole.module.css';

const STATES: JobFilter['state'][] = ['all', 'active', 'queued', 'running', 'succeeded', 'failed', 'cancelled'];

function useNow(ms: number): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const t = setInterval(() => setNow(Date.now()), ms);
    return () => clearInterval(t);
  }, [ms]);
  return now;
}

function Diagnostics({ versionId }: { versionId: string }) {
  const [detail, setDetail] = useState<VersionDetail | null | 'error'>(null);
  useEffect(() => {
    api
      .version(versionId)
      .then(setDetail)
      .catch(() => setDetail('error'));
  }, [versionId]);
  if (detail === null) return <p className={styles.muted}>Loading diagnostics…</p>;
  if (detail === 'error') return <p className={styles.muted}>Diagnostics could not be loaded.</p>;
  const { version } = detail;
  return (
    <div className={styles.diag}>
      <p className={styles.muted}>
        {version.original_name} · version {version.number} · {version.format ?? 'unknown format'} · {version.size} bytes
        {version.stats.pages !== undefined && ` · ${version.stats.pages} pages`}
        {version.stats.chunks !== undefined && ` · ${version.stats.chunks} chunks`}
      </p>
      {version.diagnostics.length === 0 ? (
        <p className={styles.muted}>No diagnostics.</p>
      ) : (
        <ul>
          {version.diagnostics.map((d, i) => (
            <li key={i}>
              <code>{d.rule_id}</code> <span data-severity={d.severity}>{d.severity}</span> {d.reason}
              {d.page_index !== undefined && ` (page ${d.page_index + 1})`}
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}

function JobRow({ job, now, act }: { job: Job; now: number; act: (what: JobAction, job: Job) => void }) {
  const [open, setOpen] = useState(false);
  return (
    <li className={styles.job} data-state={job.state} data-testid="job-row">
      <div className={styles.jobMain}>
        <button type="button" className={styles.expand} aria-expanded={open} onClick={() => setOpen((o) => !o)}>
          <span className={styles.chevron} aria-hidden="true">
            {open ? '▾' : '▸'}
          </span>
          <span className={styles.file}>{job.file}</span>
        </button>
        <span className={styles.state}>{job.state}</span>
        <span className={styles.stage}>{job.stage}</span>
        <progress className={styles.bar} max={100} value={job.progress} aria-label={`${job.file} ${job.progress}%`} />
        <span className={styles.num}>{Math.round(job.progress)}%</span>
        <span className={styles.num} title="Attempts">
          ×{job.attempts}
        </span>
        <span className={styles.num}>{formatDuration(jobDuration(job, now))}</span>
        <span className={styles.actions}>
          <button type="button" disabled={!canCancel(job)} onClick={() => act('cancel', job)}>
            Cancel
          </button>
          <button type="button" disabled={!canRetry(job)} onClick={() => act('retry', job)}>
            Retry
          </button>
          <button type="button" onClick={() => act('reprocess', job)} disabled={canCancel(job)}>
            Re-process
          </button>
        </span>
      </div>
      {job.error_code && (
        <p className={styles.error}>
          <code>{job.error_code}</code> {job.error_message}
        </p>
      )}
      {open && <Diagnostics versionId={job.version_id} />}
    </li>
  );
}

function Filters({
  filter,
  setFilter,
  reload,
}: {
  filter: JobFilter;
  setFilter: (f: (prev: JobFilter) => JobFilter) => void;
  reload: () => void;
}) {
  return (
    <div className={styles.filters}>
      <label>
        State{' '}
        <select value={filter.state} onChange={(e) => setFilter((f) => ({ ...f, state: e.target.value as JobFilter['state'] }))}>
          {STATES.map((s) => (
            <option key={s} value={s}>
              {s}
            </option>
          ))}
        </select>
      </label>
      <label className={styles.search}>
        <span className="visually-hidden">Filter by file, id or error</span>
        <input
          type="search"
          placeholder="File, id or error code"
          value={filter.text}
          onChange={(e) => setFilter((f) => ({ ...f, text: e.target.value }))}
        />
      </label>
      <button type="button" onClick={reload}>
        Refresh
      </button>
    </div>
  );
}

export function JobConsole({ collection }: { collection: Collection | null }) {
  const { jobs, message, reload, act } = useJobs(collection?.collection_id);
  const [filter, setFilter] = useState<JobFilter>({ state: 'all', text: '' });
  const now = useNow(1000);

  const counts = countByState(jobs);
  const shown = filterJobs(jobs, filter);
  return (
    <section aria-labelledby="jobs-heading" className={styles.console}>
      <div className={styles.head}>
        <h1 id="jobs-heading" className={styles.title}>
          Jobs
        </h1>
        <p className={styles.counts}>
          {counts.running} running · {counts.queued} queued · {counts.failed} failed · {counts.succeeded} done
          {counts.cancelled > 0 && ` · ${counts.cancelled} cancelled`}
        </p>
      </div>
      <Filters filter={filter} setFilter={setFilter} reload={reload} />
      {message && (
        <p className={styles.error} role="alert">
          {message}
        </p>
      )}
      {shown.length === 0 ? (
        <p className={styles.muted}>No jobs match.</p>
      ) : (
        <ul className={styles.list} aria-label="Jobs">
          <li className={styles.columns} aria-hidden="true">
            <span>File</span>
            <span>State</span>
            <span>Stage</span>
            <span>Progress</span>
            <span />
            <span>Tries</span>
            <span>Time</span>
            <span />
          </li>
          {shown.map((j) => (
            <JobRow key={j.job_id} job={j} now={now} act={act} />
          ))}
        </ul>
      )}
    </section>
  );
}
