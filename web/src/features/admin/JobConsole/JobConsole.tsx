import { useEffect, useState } from 'react';
import { useIntl } from 'react-intl';
import { api } from '../../../api/client.js';
import type { Collection, Job, VersionDetail } from '../../../api/types.js';
import { useErrorText, useT } from '../../../i18n/useT.js';
import { formatBytes } from '../../library/documentStatus.js';
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
  const t = useT();
  const intl = useIntl();
  useEffect(() => {
    api
      .version(versionId)
      .then(setDetail)
      .catch(() => setDetail('error'));
  }, [versionId]);
  if (detail === null) return <p className={styles.muted}>{t('jobs.diagLoading')}</p>;
  if (detail === 'error') return <p className={styles.muted}>{t('jobs.diagError')}</p>;
  const { version } = detail;
  return (
    <div className={styles.diag}>
      <p className={styles.muted}>
        <span translate="no">{version.original_name}</span> · {t('jobs.diagVersion', { number: version.number })} ·{' '}
        {version.format ?? t('jobs.unknownFormat')} · {formatBytes(version.size, intl.locale)}
        {version.stats.pages !== undefined && ` · ${t('docs.pages', { count: version.stats.pages })}`}
        {version.stats.chunks !== undefined && ` · ${t('docs.chunks', { count: version.stats.chunks })}`}
      </p>
      {version.diagnostics.length === 0 ? (
        <p className={styles.muted}>{t('jobs.diagNone')}</p>
      ) : (
        <ul>
          {version.diagnostics.map((d, i) => (
            <li key={i}>
              <code>{d.rule_id}</code> <span data-severity={d.severity}>{t(`jobs.severity.${d.severity}`)}</span>{' '}
              <span translate="no">{d.reason}</span>
              {d.page_index !== undefined && ` ${t('jobs.diagPage', { page: d.page_index + 1 })}`}
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}

function JobRow({ job, now, act }: { job: Job; now: number; act: (what: JobAction, job: Job) => void }) {
  const [open, setOpen] = useState(false);
  const t = useT();
  const intl = useIntl();
  const errorText = useErrorText();
  return (
    <li className={styles.job} data-state={job.state} data-testid="job-row">
      <div className={styles.jobMain}>
        <button type="button" className={styles.expand} aria-expanded={open} onClick={() => setOpen((o) => !o)}>
          <span className={styles.chevron} aria-hidden="true">
            {open ? '▾' : '▸'}
          </span>
          <span className={styles.file} translate="no">
            {job.file}
          </span>
        </button>
        <span className={styles.state}>{t(`state.${job.state}`)}</span>
        <span className={styles.stage}>{t(`stage.${job.stage}`)}</span>
        <progress className={styles.bar} max={100} value={job.progress} aria-label={t('upload.progress', { file: job.file })} />
        <span className={styles.num}>{intl.formatNumber(job.progress / 100, { style: 'percent' })}</span>
        <span className={styles.num} title={t('jobs.attempts')}>
          ×{job.attempts}
        </span>
        <span className={styles.num}>{formatDuration(jobDuration(job, now), intl.locale)}</span>
        <span className={styles.actions}>
          <button type="button" disabled={!canCancel(job)} onClick={() => act('cancel', job)}>
            {t('jobs.cancel')}
          </button>
          <button type="button" disabled={!canRetry(job)} onClick={() => act('retry', job)}>
            {t('jobs.retry')}
          </button>
          <button type="button" onClick={() => act('reprocess', job)} disabled={canCancel(job)}>
            {t('jobs.reprocess')}
          </button>
        </span>
      </div>
      {job.error_code && (
        <p className={styles.error} title={job.error_message ?? undefined}>
          <code>{job.error_code}</code> {errorText({ code: job.error_code })}
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
  const t = useT();
  return (
    <div className={styles.filters}>
      <label>
        {t('jobs.filterState')}{' '}
        <select value={filter.state} onChange={(e) => setFilter((f) => ({ ...f, state: e.target.value as JobFilter['state'] }))}>
          {STATES.map((s) => (
            <option key={s} value={s}>
              {s === 'all' || s === 'active' ? t(`jobs.filter.${s}`) : t(`state.${s}`)}
            </option>
          ))}
        </select>
      </label>
      <label className={styles.search}>
        <span className="visually-hidden">{t('jobs.filterLabel')}</span>
        <input
          type="search"
          placeholder={t('jobs.filterPlaceholder')}
          value={filter.text}
          onChange={(e) => setFilter((f) => ({ ...f, text: e.target.value }))}
        />
      </label>
      <button type="button" onClick={reload}>
        {t('jobs.refresh')}
      </button>
    </div>
  );
}

export function JobConsole({ collection }: { collection: Collection | null }) {
  const { jobs, message, reload, act } = useJobs(collection?.collection_id);
  const [filter, setFilter] = useState<JobFilter>({ state: 'all', text: '' });
  const now = useNow(1000);
  const t = useT();
  const errorText = useErrorText();

  const counts = countByState(jobs);
  const shown = filterJobs(jobs, filter);
  return (
    <section aria-labelledby="jobs-heading" className={styles.console}>
      <div className={styles.head}>
        <h1 id="jobs-heading" className={styles.title}>
          {t('jobs.title')}
        </h1>
        <p className={styles.counts}>
          {t('jobs.counts', counts)}
          {counts.cancelled > 0 && ` · ${t('jobs.cancelledCount', { count: counts.cancelled })}`}
        </p>
      </div>
      <Filters filter={filter} setFilter={setFilter} reload={reload} />
      {message !== null && (
        <p className={styles.error} role="alert">
          {errorText(message)}
        </p>
      )}
      {shown.length === 0 ? (
        <p className={styles.muted}>{t('jobs.none')}</p>
      ) : (
        <ul className={styles.list} aria-label={t('jobs.list')}>
          <li className={styles.columns} aria-hidden="true">
            <span>{t('jobs.col.file')}</span>
            <span>{t('jobs.col.state')}</span>
            <span>{t('jobs.col.stage')}</span>
            <span>{t('jobs.col.progress')}</span>
            <span />
            <span>{t('jobs.col.tries')}</span>
            <span>{t('jobs.col.time')}</span>
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
