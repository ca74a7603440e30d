import { useCallback, useEffect, useState } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import { api } from '../../../api/client.js';
import type { DocumentSummary, Job, ReadableCollection, Version } from '../../../api/types.js';
import { formatRoute } from '../../../app/route.js';
import { useErrorText, useT } from '../../../i18n/useT.js';
import { DocumentIdentityLine } from '../DocumentIdentity/DocumentIdentity.js';
import { anyBusy, formatBytes, versionStatus } from '../documentStatus.js';
import { useJobEvents } from '../useJobEvents.js';
import styles from './DocumentsView.module.css';

/** Opens a version's original through a short-lived signed URL (an attachment: the page stays). */
async function download(versionId: string): Promise<void> {
  const { url } = await api.downloadUrl(versionId);
  const a = document.createElement('a');
  a.href = url;
  a.rel = 'noreferrer';
  document.body.append(a);
  a.click();
  a.remove();
}

function Status({ version, job }: { version: Version; job: Job | undefined }) {
  const s = versionStatus(version, job);
  const t = useT();
  const errorText = useErrorText();
  const failure = s.code ? errorText({ code: s.code }) : undefined;
  return (
    <span
      className={styles.status}
      data-tone={s.tone}
      data-testid="version-state"
      title={failure ? `${failure}\n${version.error_message ?? ''}` : undefined}
    >
      {t(s.label)}
      {s.code && <code className={styles.code}>{s.code}</code>}
    </span>
  );
}

function VersionRow({
  version,
  job,
  latest,
  onError,
}: {
  version: Version;
  job: Job | undefined;
  latest: boolean;
  onError: (e: unknown) => void;
}) {
  const t = useT();
  const intl = useIntl();
  const errorText = useErrorText();
  return (
    <li className={styles.version} data-testid="version-row">
      <span className={styles.vnum}>{t('docs.version', { number: version.number })}</span>
      <Status version={version} job={job} />
      <span className={styles.muted}>
        {version.format ?? '—'} · {formatBytes(version.size, intl.locale)} ·{' '}
        {intl.formatDate(version.created_at, { dateStyle: 'medium', timeStyle: 'short' })}
        {version.stats.pages !== undefined && ` · ${t('docs.pages', { count: version.stats.pages })}`}
        {version.stats.chunks !== undefined && ` · ${t('docs.chunks', { count: version.stats.chunks })}`}
        {latest && ` · ${t('docs.searched')}`}
      </span>
      <span className={styles.vactions}>
        {version.state === 'ready' && (
          <a href={formatRoute({ name: 'version', versionId: version.version_id })} className={styles.linkButton}>
            {t('docs.read')}
          </a>
        )}
        <button type="button" className={styles.linkButton} onClick={() => download(version.version_id).catch(onError)}>
          {t('docs.download')}
        </button>
      </span>
      {version.state === 'failed' && version.error_code && (
        <p className={styles.failure} title={version.error_message ?? undefined}>
          {errorText({ code: version.error_code })}
        </p>
      )}
    </li>
  );
}

function DocumentRow({
  summary,
  jobs,
  canEdit,
  picked,
  onPick,
  onChanged,
  onError,
}: {
  summary: DocumentSummary;
  jobs: Map<string, Job>;
  canEdit: boolean;
  picked: boolean;
  onPick: (picked: boolean) => void;
  onChanged: () => void;
  onError: (e: unknown) => void;
}) {
  const t = useT();
  const intl = useIntl();
  const [open, setOpen] = useState(false);
  const [busy, setBusy] = useState(false);
  const { document: doc, versions } = summary;
  const newest = versions[0];
  const run = (what: Promise<unknown>) => {
    setBusy(true);
    what
      .then(onChanged)
      .catch(onError)
      .finally(() => setBusy(false));
  };
  const remove = () => {
    if (!window.confirm(t('docs.confirmDelete', { name: doc.name, count: versions.length }))) return;
    run(api.deleteDocument(doc.document_id));
  };
  return (
    <li className={styles.document} data-testid="document-row">
      <div className={styles.docMain}>
        <input
          type="checkbox"
          checked={picked}
          disabled={!summary.latest_ready_version_id}
          onChange={(e) => onPick(e.target.checked)}
          aria-label={t('docs.pick', { name: doc.name })}
          data-testid="pick-document"
        />
        <button type="button" className={styles.expand} aria-expanded={open} onClick={() => setOpen((o) => !o)}>
          <span aria-hidden="true">{open ? '▾' : '▸'}</span>
          <span className={styles.name} title={doc.name} translate="no">
            {doc.name}
          </span>
        </button>
        {newest && <Status version={newest} job={jobs.get(newest.version_id)} />}
        <span className={styles.muted}>
          {t('docs.versionCount', { count: versions.length })}
          {newest && ` · ${formatBytes(newest.size, intl.locale)}`}
        </span>
        <span className={styles.actions}>
          {newest && (
            <button type="button" className={styles.linkButton} onClick={() => download(newest.version_id).catch(onError)}>
              {t('docs.download')}
            </button>
          )}
          {canEdit && newest && (
            <button type="button" disabled={busy} onClick={() => run(api.reprocess(newest.version_id))}>
              {t('docs.reprocess')}
            </button>
          )}
          {canEdit && (
            <button type="button" className={styles.danger} disabled={busy} onClick={remove}>
              {t('docs.delete')}
            </button>
          )}
        </span>
      </div>
      <DocumentIdentityLine summary={summary} canEdit={canEdit} onChanged={onChanged} onError={onError} />
      {open && (
        <ol className={styles.versions} aria-label={t('docs.versionsOf', { name: doc.name })}>
          {versions.map((v) => (
            <VersionRow
              key={v.version_id}
              version={v}
              job={jobs.get(v.version_id)}
              latest={v.version_id === summary.latest_ready_version_id}
              onError={onError}
            />
          ))}
        </ol>
      )}
    </li>
  );
}

/**
 * The documents of one collection: each with its versions and their state (the running job's
 * stage, a failure's code), download through a signed URL; editors also reprocess and delete.
 */
export function DocumentsView({ collection, authOff }: { collection: ReadableCollection | null; authOff: boolean }) {
  const [documents, setDocuments] = useState<DocumentSummary[] | null>(null);
  const [jobs, setJobs] = useState<Map<string, Job>>(new Map());
  const [error, setError] = useState<unknown>(null);
  const t = useT();
  const errorText = useErrorText();
  const [picked, setPicked] = useState<Set<string>>(new Set());
  const pick = (documentId: string, on: boolean) =>
    setPicked((s) => {
      const next = new Set(s);
      if (on) next.add(documentId);
      else next.delete(documentId);
      return next;
    });
  const id = collection?.collection_id;
  const load = useCallback(() => {
    if (!id) return;
    api
      .documents(id)
      .then((r) => setDocuments(r.documents.sort((a, b) => a.document.name.localeCompare(b.document.name))))
      .catch((e: unknown) => setError(e ?? new Error('documents')));
  }, [id]);
  useEffect(load, [load]);
  useJobEvents(id, (job) => {
    setJobs((m) => new Map(m).set(job.version_id, job));
    if (job.state !== 'running' && job.state !== 'queued') load();
  });
  const busy = documents ? anyBusy(documents.flatMap((d) => d.versions)) : false;
  useEffect(() => {
    if (!busy) return;
    const t = setInterval(load, 3000);
    return () => clearInterval(t);
  }, [busy, load]);
  if (!collection) return <p className={styles.muted}>{t('app.noCollection')}</p>;
  const canEdit = authOff || collection.role === 'editor' || collection.role === 'admin';
  return (
    <section aria-labelledby="documents-heading">
      <div className={styles.head}>
        <h1 id="documents-heading" className={styles.heading}>
          {t('docs.title', { collection: collection.name })}
        </h1>
        <span className={styles.muted}>
          {documents ? t('docs.count', { count: documents.length }) : t('app.loading')}
          {!canEdit && ` · ${t('docs.readOnly')}`}
        </span>
        {picked.size > 0 && (
          <a className={styles.linkButton} href={formatRoute({ name: 'home', scope: [...picked] })} data-testid="ask-picked">
            {t('docs.askPicked', { count: picked.size })}
          </a>
        )}
      </div>
      {error !== null && (
        <p className={styles.error} role="alert">
          {errorText(error)}
        </p>
      )}
      {documents && documents.length === 0 && (
        <p className={styles.muted}>
          <FormattedMessage id="docs.empty" values={{ link: (chunks) => <a href={formatRoute({ name: 'home' })}>{chunks}</a> }} />
        </p>
      )}
      {documents && documents.length > 0 && (
        <ul className={styles.list}>
          {documents.map((d) => (
            <DocumentRow
              key={d.document.document_id}
              summary={d}
              jobs={jobs}
              canEdit={canEdit}
              picked={picked.has(d.document.document_id)}
              onPick={(on) => pick(d.document.document_id, on)}
              onChanged={load}
              onError={setError}
            />
          ))}
        </ul>
      )}
    </section>
  );
}
