import { useCallback, useEffect, useRef, useState } from 'react';
import { api, uploadFiles } from '../../api/client.js';
import type { FileRow } from './uploadRows.js';
import { applyJob, applyUpload, isSettled, mergeLoaded, settleRows } from './uploadRows.js';
import { useJobEvents } from './useJobEvents.js';

const POLL_MS = 3000;

/** The file list of a collection: loaded once, kept live by the job stream, healed by a slow poll. */
export function useUploadRows(collectionId: string | undefined) {
  const [rows, setRows] = useState<FileRow[]>([]);
  const [uploading, setUploading] = useState<number | null>(null);
  const [error, setError] = useState<unknown>(null);

  useEffect(() => {
    if (!collectionId) return;
    api
      .documents(collectionId)
      .then(({ documents }) => setRows((current) => mergeLoaded(current, documents)))
      .catch(() => undefined);
  }, [collectionId]);

  useJobEvents(collectionId, (job) => setRows((r) => applyJob(r, job)));

  const pending = rows.some((r) => !isSettled(r));
  useEffect(() => {
    if (!collectionId || !pending) return;
    const t = setInterval(() => {
      api
        .documents(collectionId)
        .then(({ documents }) => setRows((current) => settleRows(current, documents)))
        .catch(() => undefined);
    }, POLL_MS);
    return () => clearInterval(t);
  }, [collectionId, pending]);

  // Files dropped before the collection is known wait for it instead of being lost.
  const waiting = useRef<File[]>([]);
  const send = useCallback(
    async (files: File[]) => {
      if (files.length === 0) return;
      if (!collectionId) {
        waiting.current.push(...files);
        return;
      }
      setError(null);
      setUploading(0);
      try {
        const results = await uploadFiles(collectionId, files, setUploading);
        setRows((current) => results.reduce(applyUpload, current));
      } catch (e) {
        setError(e ?? new Error('upload'));
      } finally {
        setUploading(null);
      }
    },
    [collectionId],
  );

  useEffect(() => {
    if (!collectionId || waiting.current.length === 0) return;
    const files = waiting.current;
    waiting.current = [];
    void send(files);
  }, [collectionId, send]);

  return { rows, uploading, error, send };
}
