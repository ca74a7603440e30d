import type { Anchor, Citation } from '@pinpoint/core';
import { formatCiteHash } from '@pinpoint/core/reader-link';

/** One citation opened in the reader. */
export interface CiteRoute {
  name: 'cite';
  versionId: string;
  chunkId?: string;
  elementId?: string;
  n?: number;
  anchor?: Anchor;
  /** The question whose answer the citation belongs to: "back to the answer". */
  question?: string;
  /** The answer inside the cited text (a date, number, name or place), shown marked. */
  mark?: string;
  /** Opened from a reopened history entry: "back to the answer" returns to it. */
  historyId?: string;
}

/** Where the app is: every state worth sharing lives in the URL hash. */
export type Route =
  /** `scope`: 'all' asks the whole collection (the scope chip removed); document ids ask those documents only. */
  | { name: 'home'; question?: string; scope?: 'all' | string[] }
  | { name: 'admin' }
  | { name: 'members' }
  | { name: 'tokens' }
  | { name: 'documents' }
  /** The user's earlier questions; with `historyId`, one of them reopened. */
  | { name: 'history'; historyId?: string }
  | CiteRoute
  /** A whole version read from its start, with no highlight; `from` is the citation to go back to. */
  | { name: 'version'; versionId: string; from?: CiteRoute };

const ANCHOR_KINDS = new Set(['page', 'text', 'record']);

function parseAnchor(raw: string | null): Anchor | undefined {
  if (!raw) return undefined;
  try {
    const value = JSON.parse(raw) as unknown;
    if (value && typeof value === 'object' && ANCHOR_KINDS.has((value as { kind?: string }).kind ?? '')) return value as Anchor;
  } catch {
    // a damaged link still opens the cited element, without the narrowing anchor
  }
  return undefined;
}

export function parseRoute(hash: string): Route {
  const body = hash.replace(/^#/, '');
  const [path = '', search = ''] = body.split('?', 2) as [string, string?];
  const params = new URLSearchParams(search);
  const question = params.get('q') ?? undefined;
  if (path === '/admin') return { name: 'admin' };
  if (path === '/members') return { name: 'members' };
  if (path === '/tokens') return { name: 'tokens' };
  if (path === '/documents') return { name: 'documents' };
  if (path === '/history') {
    const h = params.get('h');
    return h ? { name: 'history', historyId: h } : { name: 'history' };
  }
  const v = params.get('v');
  if (path === '/version' && v) {
    const from = parseRoute(params.get('from') ?? '');
    return from.name === 'cite' ? { name: 'version', versionId: v, from } : { name: 'version', versionId: v };
  }
  if (path === '/cite' && v) {
    const n = Number(params.get('n'));
    const anchor = parseAnchor(params.get('a'));
    return {
      name: 'cite',
      versionId: v,
      ...(params.get('c') ? { chunkId: params.get('c') as string } : {}),
      ...(params.get('e') ? { elementId: params.get('e') as string } : {}),
      ...(Number.isInteger(n) && n > 0 ? { n } : {}),
      ...(anchor ? { anchor } : {}),
      ...(question ? { question } : {}),
      ...(params.get('m') ? { mark: params.get('m') as string } : {}),
      ...(params.get('h') ? { historyId: params.get('h') as string } : {}),
    };
  }
  const all = params.get('all') === '1';
  const docs =
    params
      .get('docs')
      ?.split(',')
      .filter((d) => d.length > 0) ?? [];
  const scope = all ? { scope: 'all' as const } : docs.length > 0 ? { scope: docs } : {};
  return question ? { name: 'home', question, ...scope } : { name: 'home', ...scope };
}

/** The home route's query: the question, and the scope the user set (whole collection, or documents picked). */
function homeParams(route: { question?: string; scope?: 'all' | string[] }): URLSearchParams {
  const p = new URLSearchParams();
  if (route.question) p.set('q', route.question);
  if (route.scope === 'all') p.set('all', '1');
  else if (route.scope?.length) p.set('docs', route.scope.join(','));
  return p;
}

export function formatRoute(route: Route): string {
  if (route.name === 'admin' || route.name === 'members' || route.name === 'tokens' || route.name === 'documents')
    return `#/${route.name}`;
  if (route.name === 'history') return route.historyId ? `#/history?${new URLSearchParams({ h: route.historyId })}` : '#/history';
  if (route.name === 'home') {
    const p = homeParams(route);
    return p.size > 0 ? `#/?${p}` : '#/';
  }
  if (route.name === 'version') {
    const p = new URLSearchParams({ v: route.versionId });
    if (route.from) p.set('from', formatRoute(route.from));
    return `#/version?${p}`;
  }
  return formatCiteHash(route);
}

/** The shareable link of one citation of an answer. */
export function citationHref(citation: Citation, question?: string, historyId?: string): string {
  return formatRoute({
    name: 'cite',
    versionId: citation.version_id,
    chunkId: citation.chunk_id,
    elementId: citation.element_id,
    n: citation.n,
    anchor: citation.anchor,
    ...(question ? { question } : {}),
    ...(citation.mark ? { mark: citation.mark.text } : {}),
    ...(historyId ? { historyId } : {}),
  });
}
