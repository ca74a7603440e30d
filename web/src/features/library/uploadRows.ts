import type { DocumentSummary, Job, UploadResult } from '../../api/types.js';

/** One line of the file list: the latest version of a file and how far its ingestion is. */
export interface FileRow {
  versionId: string;
  file: string;
  /** queued | running | ready | failed | cancelled (a succeeded job shows as ready). */
  state: string;
  stage: string;
  progress: number;
  /** A failure's stable code and the server's own message (shown as detail; the SPA words the code). */
  error: { code: string; message: string | null } | null;
}

type JobLike = Pick<Job, 'version_id' | 'file' | 'state' | 'stage' | 'progress' | 'error_code' | 'error_message'>;

const FINAL = new Set(['ready', 'failed', 'cancelled']);

export const isSettled = (row: FileRow) => FINAL.has(row.state);

const errorOf = (code: string | null, message: string | null) => (code ? { code, message } : null);

export function rowFromSummary(d: DocumentSummary): FileRow | null {
  const v = d.versions[0];
  if (!v) return null;
  return {
    versionId: v.version_id,
    file: d.document.name,
    state: v.state,
    stage: v.state,
    progress: FINAL.has(v.state) ? 100 : 0,
    error: errorOf(v.error_code, v.error_message),
  };
}

/** Applies a job update: the row of that version (or of the same file name: a newer version) is replaced. */
export function applyJob(rows: readonly FileRow[], job: JobLike): FileRow[] {
  const row: FileRow = {
    versionId: job.version_id,
    file: job.file,
    state: job.state === 'succeeded' ? 'ready' : job.state,
    stage: job.stage,
    progress: job.progress,
    error: errorOf(job.error_code, job.error_message),
  };
  const i = rows.findIndex((r) => r.versionId === job.version_id || r.file === job.file);
  if (i < 0) return [row, ...rows];
  const next = rows.slice();
  next[i] = row;
  return next;
}

/** An upload result: its job when one was made, else the existing version's state (same bytes again). */
export function applyUpload(rows: readonly FileRow[], r: UploadResult): FileRow[] {
  if (r.job) return applyJob(rows, r.job);
  const v = r.version;
  const state = v.state === 'ready' ? 'succeeded' : v.state === 'processing' ? 'running' : v.state;
  return applyJob(rows, {
    version_id: v.version_id,
    file: r.file,
    state,
    stage: v.state === 'ready' ? 'done' : 'queued',
    progress: FINAL.has(v.state) ? 100 : 0,
    error_code: v.error_code,
    error_message: v.error_message,
  });
}

/** Rows whose version has reached a final state on the server take that state (a missed event is healed). */
export function settleRows(rows: readonly FileRow[], documents: readonly DocumentSummary[]): FileRow[] {
  const settled = new Map<string, FileRow>();
  for (const d of documents) {
    const r = rowFromSummary(d);
    if (r && isSettled(r)) settled.set(r.versionId, r);
  }
  return rows.map((r) => settled.get(r.versionId) ?? r);
}

/**
 * The collection's file list as first loaded, merged under the rows the page already has: an
 * upload or a job event that arrived while the list was in flight is newer and stays.
 */
export function mergeLoaded(rows: readonly FileRow[], documents: readonly DocumentSummary[]): FileRow[] {
  const known = new Set(rows.flatMap((r) => [r.versionId, r.file]));
  const loaded = documents
    .map(rowFromSummary)
    .filter((r): r is FileRow => r !== null && !known.has(r.versionId) && !known.has(r.file));
  return [...rows, ...loaded];
}
