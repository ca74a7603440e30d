import { useEffect, useRef, useState } from 'react';
import { api } from '../../../api/client.js';
import type { Element, VersionDetail } from '../../../api/types.js';
import { type CiteRoute, formatRoute, type Route } from '../../../app/route.js';
import { useT } from '../../../i18n/useT.js';
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
  const t = useT();
  return (
    <figure className={styles.match} data-testid="possible-match">
      <figcaption className={styles.matchCaption}>
        {t('version.match')}
        {match.count > 1 ? ` ${t('version.matchMany', { count: match.count })}` : ''}
      </figcaption>
      <p className={styles.matchText} translate="no">
        {match.element.text}
      </p>
    </figure>
  );
}

function Contents({ elements }: { elements: Element[] }) {
  const t = useT();
  if (elements.length === 0) return <p className={styles.muted}>{t('version.empty')}</p>;
  return (
    <ol className={styles.doc} data-testid="version-elements" aria-label={t('version.elements')} translate="no">
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
  const t = useT();
  useEffect(() => title.current?.focus({ preventScroll: true }), []);
  const version = loaded?.detail.version;
  const original = `/api/versions/${encodeURIComponent(route.versionId)}/artifacts/original`;
  return (
    <article className={styles.view} aria-labelledby="version-title" data-testid="version-view">
      <nav className={styles.topbar} aria-label={t('reader.nav')}>
        <a href={route.from ? formatRoute(route.from) : '#/'} className={styles.back} data-testid="back-to-citation">
          {route.from ? t('version.back') : t('reader.askQuestion')}
        </a>
        {version && (
          <a href={original} download={version.original_name}>
            {t('version.download')}
          </a>
        )}
      </nav>
      <h1 id="version-title" ref={title} tabIndex={-1} className={styles.title}>
        {version
          ? t('version.title', { name: version.original_name, number: version.number })
          : problem
            ? t('version.unavailable')
            : t('version.opening')}
      </h1>
      {problem && <ProblemNotice problem={problem} />}
      {loaded && (
        <>
          <p className={styles.note} role="note" data-testid="no-highlight-note">
            {route.from ? t('version.noteFrom') : t('version.note')}
          </p>
          {loaded.match && <MatchNote match={loaded.match} />}
          <Contents elements={loaded.elements} />
        </>
      )}
    </article>
  );
}
