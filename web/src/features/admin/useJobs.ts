import { useCallback, useEffect, useState } from 'react';
import { api } from '../../api/client.js';
import type { Job } from '../../api/types.js';
import { useJobEvents } from '../library/useJobEvents.js';
import { mergeJob } from './jobs.js';

export type JobAction = 'cancel' | 'retry' | 'reprocess';

/** Every job of a collection, live over the event stream, with the console's actions. */
export function useJobs(collectionId: string | undefined) {
  const [jobs, setJobs] = useState<Job[]>([]);
  /** The last action's failure (the console words it in the page's language). */
  const [message, setMessage] = useState<unknown>(null);

  const reload = useCallback(() => {
    api
      .jobs({ limit: 500, ...(collectionId ? { collection_id: collectionId } : {}) })
      .then((r) => setJobs(r.jobs))
      .catch((e: unknown) => setMessage(e ?? new Error('jobs')));
  }, [collectionId]);
  useEffect(reload, [reload]);
  useJobEvents(collectionId, (job) => setJobs((list) => mergeJob(list, job)));

  const act = useCallback((what: JobAction, job: Job) => {
    setMessage(null);
    const call =
      what === 'cancel'
        ? api.cancelJob(job.job_id)
        : what === 'retry'
          ? api.retryJob(job.job_id)
          : api.reprocess(job.version_id).then((r) => r.job);
    call.then((j) => setJobs((list) => mergeJob(list, j))).catch((e: unknown) => setMessage(e ?? new Error('jobs')));
  }, []);

  return { jobs, message, reload, act };
}
