import { useCallback, useEffect, useState } from 'react';
import { api, setCsrfToken } from '../api/client.js';
import type { ReadableCollection, SessionInfo } from '../api/types.js';

/** The signed-in user (or auth off); keeps the client's CSRF token in step with the session. */
export function useSession(): [SessionInfo | null, (s: SessionInfo | null) => void, string | null] {
  const [session, setSession] = useState<SessionInfo | null>(null);
  const [error, setError] = useState<string | null>(null);
  const update = useCallback((s: SessionInfo | null) => {
    setCsrfToken(s?.csrf_token ?? null);
    setSession(s);
  }, []);
  useEffect(() => {
    api
      .session()
      .then(update)
      .catch((e: unknown) => setError(e instanceof Error ? e.message : String(e)));
  }, [update]);
  return [session, update, error];
}

const PICKED = 'pinpoint.collection';

/** The collections the user can read and the one picked (remembered per browser; `default` first). */
export function useCollections(signedIn: boolean): {
  collections: ReadableCollection[];
  collection: ReadableCollection | null;
  pick: (id: string) => void;
} {
  const [collections, setCollections] = useState<ReadableCollection[]>([]);
  const [picked, setPicked] = useState<string | null>(() => localStorage.getItem(PICKED));
  useEffect(() => {
    if (!signedIn) return;
    api
      .collections()
      .then(({ collections }) => setCollections(collections))
      .catch(() => setCollections([]));
  }, [signedIn]);
  const collection =
    collections.find((c) => c.collection_id === picked) ??
    collections.find((c) => c.name === 'default') ??
    collections[0] ??
    null;
  const pick = useCallback((id: string) => {
    localStorage.setItem(PICKED, id);
    setPicked(id);
  }, []);
  return { collections, collection, pick };
}
