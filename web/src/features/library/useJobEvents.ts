import { useEffect, useRef } from 'react';
import { api } from '../../api/client.js';
import type { Job } from '../../api/types.js';

/** Live job updates over the SSE stream (reconnects by itself, as EventSource does). */
export function useJobEvents(collectionId: string | undefined, onJob: (job: Job) => void): void {
  const handler = useRef(onJob);
  handler.current = onJob;
  useEffect(() => {
    if (typeof EventSource === 'undefined') return;
    const source = new EventSource(api.jobEventsUrl(collectionId));
    const listener = (e: MessageEvent<string>) => {
      try {
        handler.current(JSON.parse(e.data) as Job);
      } catch {
        // a malformed event is skipped; the next one carries the full job again
      }
    };
    source.addEventListener('job', listener);
    return () => {
      source.removeEventListener('job', listener);
      source.close();
    };
  }, [collectionId]);
}
