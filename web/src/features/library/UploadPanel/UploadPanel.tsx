import { useCallback, useEffect, useRef, useState } from 'react';
import { api, uploadFiles } from '../../../api/client.js';
import type { Collection, DocumentSummary, Job } from '../../../api/types.js';
import { useJobEvents } from '../useJobEvents.js';
import styles from './UploadPanel.module.css';

interface Row {
  versionId: string;
  file: string;
  state: string;
  stage: string;
  progress: number;
  error: string | null;
}

function rowFromSummary(d: DocumentSummary): Row | null {
  const v = d.versions[0];
  if (!v) return null;
  const done = v.state === 'ready' || v.state === 'failed' || v.state === 'cancelled';
  return {
    versionId: v.version_id,
    file: d.document.name,
    state: v.state,
    stage: v.state,
    progress: done ? 100 : 0,
    error: v.error_code ? `${v.error_code}: ${v.error_message ?? ''}` : null,
  };
}

type JobLike = Pick<Job, 'version_id' | 'file' | 'state' | 'stage' | 'progress' | 'error_code' | 'error_message'>;

function applyJob(rows: Row[], job: JobLike): Row[] {
  const state = job.state === 'succeeded' ? 'ready' : job.state;
  const row: Row = {
    versionId: job.version_id,
    file: job.file,
    state,
    stage: job.stage,
    progress: job.progress,
    error: job.error_code ? `${job.error_code}: ${job.error_message ?? ''}` : null,
  };
  const i = rows.findIndex((r) => r.versionId === job.version_id || r.file === job.file);
  if (i < 0) return [row, ...rows];
  const next = rows.slice();
  next[i] = row;
  return next;
}

/** Rows whose version has reached a final state on the server take that state. */
function settleRows(rows: Row[], documents: DocumentSummary[]): Row[] {
  const latest = new Map<string, Row>();
  for (const d of documents) {
    const r = rowFromSummary(d);
    if (r && r.progress === 100) latest.set(r.versionId, r);
  }
  return rows.map((r) => latest.get(r.versionId) ?? r);
}

export function UploadPanel({ collection }: { collection: Collection | null }) {
  const [rows, setRows] = useState<Row[]>([]);
  const [uploading, setUploading] = useState<number | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [dragging, setDragging] = useState(false);
  const input = useRef<HTMLInputElement>(null);
  const collectionId = collection?.collection_id;

  useEffect(() => {
    if (!collectionId) return;
    api
      .documents(collectionId)
      .then(({ documents }) => setRows(documents.map(rowFromSummary).filter((r): r is Row => r !== null)))
      .catch(() => undefined);
  }, [collectionId]);

  useJobEvents(collectionId, (job) => setRows((r) => applyJob(r, job)));

  // The stream is the fast path; a slow poll settles rows if an event was missed.
  const pending = rows.some((r) => r.state !== 'ready' && r.state !== 'failed' && r.state !== 'cancelled');
  useEffect(() => {
    if (!collectionId || !pending) return;
    const t = setInterval(() => {
      api
        .documents(collectionId)
        .then(({ documents }) => setRows((current) => settleRows(current, documents)))
        .catch(() => undefined);
    }, 3000);
    return () => clearInterval(t);
  }, [collectionId, pending]);

  const send = useCallback(
    async (files: File[]) => {
      if (!collectionId || files.length === 0) return;
      setError(null);
      setUploading(0);
      try {
        const results = await uploadFiles(collectionId, files, setUploading);
        setRows((current) =>
          results.reduce(
            (acc, r) =>
              r.job
                ? applyJob(acc, r.job)
                : applyJob(acc, {
                    version_id: r.version.version_id,
                    file: r.file,
                    state: r.version.state === 'ready' ? 'succeeded' : r.version.state === 'failed' ? 'failed' : 'queued',
                    stage: r.version.state === 'ready' ? 'done' : 'queued',
                    progress: r.version.state === 'ready' ? 100 : 0,
                    error_code: r.version.error_code,
                    error_message: r.version.error_message,
                  }),
            current,
          ),
        );
      } catch (e) {
        setError(e instanceof Error ? e.message : String(e));
      } finally {
        setUploading(null);
      }
    },
    [collectionId],
  );

  return (
    <section className={styles.panel} aria-labelledby="files-heading">
      <h2 id="files-heading" className={styles.heading}>
        Files
      </h2>
      <label
        className={`${styles.drop} ${dragging ? styles.dragging : ''}`}
        onDragOver={(e) => {
          e.preventDefault();
          setDragging(true);
        }}
        onDragLeave={() => setDragging(false)}
        onDrop={(e) => {
          e.preventDefault();
          setDragging(false);
          void send([...e.dataTransfer.files]);
        }}
      >
        <input
          ref={input}
          type="file"
          multiple
          className="visually-hidden"
          data-testid="file-input"
          disabled={!collectionId}
          onChange={(e) => {
            void send([...(e.target.files ?? [])]);
            e.target.value = '';
          }}
        />
        <span className={styles.dropText}>
          Drop files here or <span className={styles.link}>choose files</span>
        </span>
        <span className={styles.hint}>PDF, Word, Excel, PowerPoint, CSV, Markdown, HTML, JSON, text, images</span>
      </label>
      {uploading !== null && (
        <p className={styles.status} role="status">
          Uploading… {Math.round(uploading * 100)}%
        </p>
      )}
      {error && (
        <p className={styles.error} role="alert">
          {error}
        </p>
      )}
      {rows.length > 0 && (
        <ul className={styles.list} aria-label="Uploaded files">
          {rows.map((r) => (
            <li key={r.versionId} className={styles.row} data-state={r.state} data-testid="file-row">
              <span className={styles.name} title={r.file}>
                {r.file}
              </span>
              <span className={styles.state}>{r.state === 'ready' || r.state === 'failed' ? r.state : `${r.stage}`}</span>
              <progress className={styles.bar} max={100} value={r.progress} aria-label={`${r.file} progress`} />
              {r.error && <span className={styles.rowError}>{r.error}</span>}
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
