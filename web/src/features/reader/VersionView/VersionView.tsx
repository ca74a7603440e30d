import { useEffect, useRef, useState } from 'react';
import { api } from '../../../api/client.js';
import type { Element, VersionDetail } from '../../../api/types.js';
import { type CiteRoute, formatRoute, type Route } from '../../../app/route.js';
import { ProblemNotice } from '../ProblemNotice/ProblemNotice.js';
import { findPossibleMatch, type PossibleMatch } from '../possibleMatch.js';
import type { ReaderProblem } from '../readerState.js';
import { describeReaderError } from '../readerState.js';
import styles from './VersionView.module.css';

type VersionRoute = Extract<Route, { name: 'version' }>;

interface Loaded {
  detail: VersionDetail;
  elements: Element[];
  match: PossibleMatch | null;
}

/** The citation's quote, to look for in this version; a citation that cannot be resolved just has none. */
async function citedQuote(from: CiteRoute | undefined): Promise<string> {
  if (!from) return '';
  try {
    const resolved = await api.resolve({
      version_id: from.versionId,
      ...(from.chunkId ? { chunk_id: from.chunkId } : {}),
      ...(from.elementId ? { element_id: from.elementId } : {}),
      ...(from.anchor ? { anchor: from.anchor } : {}),
    });
    return resolved.precision === 'unresolved' ? '' : resolved.quote;
  } catch {
    return '';
  }
}

function useVersion(route: VersionRoute) {
  const [state, setState] = useState<{ loaded?: Loaded; problem?: ReaderProblem }>({});
  const fromKey = route.from ? formatRoute(route.from) : '';
  useEffect(() => {
    let live = true;
    Promise.all([api.version(route.versionId), api.elements(route.versionId), citedQuote(route.from)])
      .then(([detail, { elements }, quote]) => {
        if (live) setState({ loaded: { detail, elements, match: findPossibleMatch(quote, elements) } });
      })
      .catch((e: unknown) => live && setState({ problem: describeReaderError(e as { code?: string; message?: string }) }));
    return () => {
      live = false;
    };
  }, [route.versionId, fromKey]);
  return state;
}

function MatchNote({ match }: { match: PossibleMatch }) {
  return (
    <figure className={styles.match} data-testid="possible-match">
      <figcaption className={styles.matchCaption}>
        Possible match in the newer version — not the cited place
        {match.count > 1 ? ` (the quoted text appears in ${match.count} places; this is the first)` : ''}
      </figcaption>
      <p className={styles.matchText}>{match.element.text}</p>
    </figure>
  );
}

function Contents({ elements }: { elements: Element[] }) {
  if (elements.length === 0) return <p className={styles.muted}>This version has no readable text.</p>;
  return (
    <ol className={styles.doc} data-testid="version-elements" aria-label="Document from its start">
      {elements.map((e) => (
        <li key={e.element_id} data-type={e.type}>
          {e.text}
        </li>
      ))}
    </ol>
  );
}

/** Reads a whole version from its start, with nothing highlighted: the newer version a citation offers. */
export function VersionView({ route }: { route: VersionRoute }) {
  const { loaded, problem } = useVersion(route);
  const title = useRef<HTMLHeadingElement>(null);
  useEffect(() => title.current?.focus({ preventScroll: true }), []);
  const version = loaded?.detail.version;
  const original = `/api/versions/${encodeURIComponent(route.versionId)}/artifacts/original`;
  return (
    <article className={styles.view} aria-labelledby="version-title" data-testid="version-view">
      <nav className={styles.topbar} aria-label="Reader">
        <a href={route.from ? formatRoute(route.from) : '#/'} className={styles.back} data-testid="back-to-citation">
          {route.from ? '← Back to the citation' : '← Ask a question'}
        </a>
        {version && (
          <a href={original} download={version.original_name}>
            Download this version
          </a>
        )}
      </nav>
      <h1 id="version-title" ref={title} tabIndex={-1} className={styles.title}>
        {version ? `${version.original_name} — version ${version.number}` : problem ? 'Version unavailable' : 'Opening version…'}
      </h1>
      {problem && <ProblemNotice problem={problem} />}
      {loaded && (
        <>
          <p className={styles.note} role="note" data-testid="no-highlight-note">
            You are reading this version from its start. Nothing is highlighted: the citation was made on an earlier version
            {route.from ? ' and stays highlighted there' : ''}.
          </p>
          {loaded.match && <MatchNote match={loaded.match} />}
          <Contents elements={loaded.elements} />
        </>
      )}
    </article>
  );
}
