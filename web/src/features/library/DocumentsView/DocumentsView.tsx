import { useCallback, useEffect, useState } from 'react';
import { api } from '../../../api/client.js';
import type { DocumentSummary, Job, ReadableCollection, Version } from '../../../api/types.js';
import { formatRoute } from '../../../app/route.js';
import { DocumentIdentityLine } from '../DocumentIdentity/DocumentIdentity.js';
import { anyBusy, formatBytes, versionStatus } from '../documentStatus.js';
import { useJobEvents } from '../useJobEvents.js';
import styles from './DocumentsView.module.css';

const messageOf = (e: unknown) => (e instanceof Error ? e.message : String(e));
const when = (iso: string) => new Date(iso).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });

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
  return (
    <span className={styles.status} data-tone={s.tone} data-testid="version-state" title={version.error_message ?? undefined}>
      {s.label}
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
  onError: (m: string) => void;
}) {
  return (
    <li className={styles.version} data-testid="version-row">
      <span className={styles.vnum}>v{version.number}</span>
      <Status version={version} job={job} />
      <span className={styles.muted}>
        {version.format ?? '—'} · {formatBytes(version.size)} · {when(version.created_at)}
        {version.stats.pages !== undefined && ` · ${version.stats.pages} pages`}
        {version.stats.chunks !== undefined && ` · ${version.stats.chunks} chunks`}
        {latest && ' · searched'}
      </span>
      <span className={styles.vactions}>
        {version.state === 'ready' && (
          <a href={formatRoute({ name: 'version', versionId: version.version_id })} className={styles.linkButton}>
            Read
          </a>
        )}
        <button
          type="button"
          className={styles.linkButton}
          onClick={() => download(version.version_id).catch((e) => onError(messageOf(e)))}
        >
          Download
        </button>
      </span>
      {version.state === 'failed' && version.error_message && <p className={styles.failure}>{version.error_message}</p>}
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
  onError: (m: string) => void;
}) {
  const [open, setOpen] = useState(false);
  const [busy, setBusy] = useState(false);
  const { document: doc, versions } = summary;
  const newest = versions[0];
  const run = (what: Promise<unknown>) => {
    setBusy(true);
    what
      .then(onChanged)
      .catch((e: unknown) => onError(messageOf(e)))
      .finally(() => setBusy(false));
  };
  const remove = () => {
    if (!window.confirm(`Delete ${doc.name} and all ${versions.length} of its versions? Answers citing it will no longer open.`))
      return;
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
          aria-label={`Ask about ${doc.name}`}
          data-testid="pick-document"
        />
        <button type="button" className={styles.expand} aria-expanded={open} onClick={() => setOpen((o) => !o)}>
          <span aria-hidden="true">{open ? '▾' : '▸'}</span>
          <span className={styles.name} title={doc.name}>
            {doc.name}
          </span>
        </button>
        {newest && <Status version={newest} job={jobs.get(newest.version_id)} />}
        <span className={styles.muted}>
          {versions.length === 1 ? '1 version' : `${versions.length} versions`}
          {newest && ` · ${formatBytes(newest.size)}`}
        </span>
        <span className={styles.actions}>
          {newest && (
            <button
              type="button"
              className={styles.linkButton}
              onClick={() => download(newest.version_id).catch((e) => onError(messageOf(e)))}
            >
              Download
            </button>
          )}
          {canEdit && newest && (
            <button type="button" disabled={busy} onClick={() => run(api.reprocess(newest.version_id))}>
              Reprocess
            </button>
          )}
          {canEdit && (
            <button type="button" className={styles.danger} disabled={busy} onClick={remove}>
              Delete
            </button>
          )}
        </span>
      </div>
      <DocumentIdentityLine summary={summary} canEdit={canEdit} onChanged={onChanged} onError={onError} />
      {open && (
        <ol className={styles.versions} aria-label={`Versions of ${doc.name}`}>
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
  const [error, setError] = useState<string | null>(null);
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
      .catch((e: unknown) => setError(messageOf(e)));
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
  if (!collection) return <p className={styles.muted}>No collection selected.</p>;
  const canEdit = authOff || collection.role === 'editor' || collection.role === 'admin';
  return (
    <section aria-labelledby="documents-heading">
      <div className={styles.head}>
        <h1 id="documents-heading" className={styles.heading}>
          Documents in {collection.name}
        </h1>
        <span className={styles.muted}>
          {documents ? (documents.length === 1 ? '1 document' : `${documents.length} documents`) : 'Loading…'}
          {!canEdit && ' · you can read and download; editors upload, reprocess and delete'}
        </span>
        {picked.size > 0 && (
          <a className={styles.linkButton} href={formatRoute({ name: 'home', scope: [...picked] })} data-testid="ask-picked">
            Ask about {picked.size === 1 ? 'this document' : `these ${picked.size} documents`}
          </a>
        )}
      </div>
      {error && (
        <p className={styles.error} role="alert">
          {error}
        </p>
      )}
      {documents && documents.length === 0 && (
        <p className={styles.muted}>
          No documents yet. <a href={formatRoute({ name: 'home' })}>Upload files</a> on the Ask page.
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
