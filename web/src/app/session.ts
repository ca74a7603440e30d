import { useCallback, useEffect, useState } from 'react';
import { api, setCsrfToken } from '../api/client.js';
import type { ReadableCollection, SessionInfo } from '../api/types.js';
import { chooseCollection } from '../features/library/collectionChoice.js';

/** The signed-in user (or auth off); keeps the client's CSRF token in step with the session. */
export function useSession(): [SessionInfo | null, (s: SessionInfo | null) => void, unknown] {
  const [session, setSession] = useState<SessionInfo | null>(null);
  const [error, setError] = useState<unknown>(null);
  const update = useCallback((s: SessionInfo | null) => {
    setCsrfToken(s?.csrf_token ?? null);
    setSession(s);
  }, []);
  useEffect(() => {
    api
      .session()
      .then(update)
      .catch((e: unknown) => setError(e ?? new Error('session')));
  }, [update]);
  return [session, update, error];
}

const PICKED = 'pinpoint.collection';

/** Makes the collection the one the page works on next time it loads (e.g. the one just joined). */
export function rememberCollection(collectionId: string): void {
  localStorage.setItem(PICKED, collectionId);
}

/**
 * The collections the user can read and the one the page works on (remembered in this browser).
 * `switches` counts the user's own switches: views start afresh on one, not when the first
 * collection arrives (files dropped before it is known wait for it).
 */
export function useCollections(signedIn: boolean): {
  collections: ReadableCollection[];
  collection: ReadableCollection | null;
  select: (next: ReadableCollection) => void;
  switches: number;
} {
  const [collections, setCollections] = useState<ReadableCollection[]>([]);
  const [picked, setPicked] = useState<string | null>(() => localStorage.getItem(PICKED));
  const [switches, setSwitches] = useState(0);
  useEffect(() => {
    if (!signedIn) return;
    api
      .collections()
      .then(({ collections }) => setCollections(collections))
      .catch(() => setCollections([]));
  }, [signedIn]);
  const collection = chooseCollection(collections, picked);
  const select = useCallback((next: ReadableCollection) => {
    localStorage.setItem(PICKED, next.collection_id);
    setPicked(next.collection_id);
    setSwitches((n) => n + 1);
  }, []);
  return { collections, collection, select, switches };
}
