import { useCallback, useEffect, useState } from 'react';
import type { Route } from './route.js';
import { formatRoute, parseRoute } from './route.js';

/** The current hash route, and a navigate function that pushes a history entry. */
export function useRoute(): [Route, (route: Route) => void] {
  const [route, setRoute] = useState<Route>(() => parseRoute(window.location.hash));
  useEffect(() => {
    const onChange = () => setRoute(parseRoute(window.location.hash));
    window.addEventListener('hashchange', onChange);
    return () => window.removeEventListener('hashchange', onChange);
  }, []);
  const navigate = useCallback((next: Route) => {
    window.location.hash = formatRoute(next);
  }, []);
  return [route, navigate];
}
