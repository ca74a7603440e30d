import { useCallback, useEffect, useRef, useState } from 'react';
import { api } from '../../../api/client.js';
import type { ResolvedCitation } from '../../../api/types.js';
import { type CiteRoute, formatRoute, type Route } from '../../../app/route.js';
import { useT } from '../../../i18n/useT.js';
import { CitedTable } from '../CitedTable/CitedTable.js';
import { markedParts } from '../mark.js';
import { PageView } from '../PageView/PageView.js';
import { ProblemNotice } from '../ProblemNotice/ProblemNotice.js';
import { RecordView } from '../RecordView/RecordView.js';
import type { ReaderProblem } from '../readerState.js';
import { checkResolvedVersion, describeReaderError, precisionInfo, versionNotice } from '../readerState.js';
import { TextView } from '../TextView/TextView.js';
import { ContextPanel } from './ContextPanel.js';
import styles from './Reader.module.css';

function useResolved(route: CiteRoute) {
  const [state, setState] = useState<{ resolved?: ResolvedCitation; problem?: ReaderProblem }>({});
  useEffect(() => {
    let live = true;
    api
      .resolve({
        version_id: route.versionId,
        ...(route.chunkId ? { chunk_id: route.chunkId } : {}),
        ...(route.elementId ? { element_id: route.elementId } : {}),
        ...(route.anchor ? { anchor: route.anchor } : {}),
      })
      .then((resolved) => {
        if (!live) return;
        const problem = checkResolvedVersion(resolved, route.versionId);
        setState(problem ? { problem } : { resolved });
      })
      .catch(
        (e: unknown) =>
          live && setState({ problem: describeReaderError(e as { code?: string; status?: number; message?: string }) }),
      );
    return () => {
      live = false;
    };
  }, [route.versionId, route.chunkId, route.elementId, route.anchor]);
  return state;
}

function VersionBanner({ resolved, route }: { resolved: ResolvedCitation; route: CiteRoute }) {
  const question = route.question;
  const notice = versionNotice(resolved);
  const [href, setHref] = useState<string | null>(null);
  const t = useT();
  useEffect(() => {
    if (notice.kind !== 'newer') return;
    api
      .downloadUrl(notice.newerVersionId)
      .then((d) => setHref(d.url))
      .catch(() => setHref(null));
  }, [notice.kind, notice.kind === 'newer' ? notice.newerVersionId : '']);
  if (notice.kind !== 'newer') return null;
  return (
    <div className={styles.banner} role="note" data-testid="newer-version">
      <strong>{t('reader.newer.title')}</strong> {t('reader.newer.body', { number: notice.citedNumber })}{' '}
      <a href={formatRoute({ name: 'version', versionId: notice.newerVersionId, from: route })} data-testid="open-newer-version">
        {t('reader.newer.open')}
      </a>
      {question && (
        <>
          {' · '}
          <a href={`#/?${new URLSearchParams({ q: question })}`}>{t('reader.newer.askAgain')}</a>
        </>
      )}
      {href && (
        <>
          {' · '}
          <a href={href}>{t('reader.newer.download')}</a>
        </>
      )}
    </div>
  );
}

/** The row of a cited HTML table cell (the element's range), when the citation is narrower than its row. */
function citedRow(resolved: ResolvedCitation): { start: number; end: number } | undefined {
  const { element, view } = resolved;
  const a = element.anchor;
  if (view.kind !== 'text' || !element.table || element.table.header || a.kind !== 'text') return undefined;
  const inside = a.start <= view.start && view.end <= a.end && a.end - a.start > view.end - view.start;
  return inside ? { start: a.start, end: a.end } : undefined;
}

function Body({ resolved, onError }: { resolved: ResolvedCitation; onError: (e: unknown) => void }) {
  const { view, version } = resolved;
  const highlight = precisionInfo(resolved.precision).drawHighlight;
  if (view.kind === 'page') {
    const isImage = view.artifact === 'original' && ['png', 'jpeg', 'tiff'].includes(version.format ?? '');
    return <PageView view={view} isImage={isImage} highlight={highlight} onError={onError} />;
  }
  if (view.kind === 'text') {
    const showRaw = version.format === 'html' || version.format === 'json';
    // `raw` ranges index the decoded source the parser stored beside the text, whatever the original's encoding
    const sourceUrl = `/api/versions/${encodeURIComponent(version.version_id)}/artifacts/text?name=source.${version.format === 'json' ? 'json' : 'html'}`;
    return (
      <>
        {resolved.element.table && (
          <CitedTable
            versionId={version.version_id}
            element={resolved.element}
            cited={highlight ? { start: view.start, end: view.end } : null}
          />
        )}
        <TextView
          view={view}
          highlight={highlight}
          showRaw={showRaw}
          markdown={version.format === 'md'}
          sourceUrl={sourceUrl}
          row={citedRow(resolved)}
          onError={onError}
        />
      </>
    );
  }
  return <RecordView view={view} highlight={highlight} />;
}

function ReaderHeader({
  n,
  resolved,
  failed,
}: {
  n: number | undefined;
  resolved: ResolvedCitation | undefined;
  failed: boolean;
}) {
  const precision = resolved ? precisionInfo(resolved.precision) : null;
  const title = useRef<HTMLHeadingElement>(null);
  const t = useT();
  // a citation opened from the answer moves keyboard and screen-reader focus to the reader
  useEffect(() => title.current?.focus({ preventScroll: true }), []);
  return (
    <header className={styles.header}>
      <h1 id="reader-title" ref={title} tabIndex={-1} className={styles.title}>
        {n !== undefined && <span className={styles.n}>[{n}]</span>}
        {resolved ? (
          <span translate="no">{resolved.version.original_name}</span>
        ) : failed ? (
          t('reader.unavailable')
        ) : (
          t('reader.opening')
        )}
      </h1>
      {resolved && precision && (
        <p className={styles.meta}>
          <span className={styles.badge} data-precision={resolved.precision} data-testid="precision" title={t(precision.detail)}>
            {t(precision.label)}
          </span>
          <span>{t('reader.version', { number: resolved.version.number })}</span>
          {resolved.element.section_path.length > 0 && (
            <span className={styles.trail} title={t('reader.section')} translate="no">
              {resolved.element.section_path.join(' › ')}
            </span>
          )}
        </p>
      )}
    </header>
  );
}

/** What the answer rests on, or — for an unresolved citation — why nothing is highlighted. */
function CitedPassage({ resolved, mark }: { resolved: ResolvedCitation; mark?: string | undefined }) {
  const precision = precisionInfo(resolved.precision);
  const t = useT();
  if (!precision.drawHighlight) {
    return (
      <p className={styles.unresolved} data-testid="unresolved">
        {t(precision.detail)}
      </p>
    );
  }
  if (!resolved.quote) return null;
  return (
    <figure className={styles.quoteBox}>
      <figcaption className={styles.quoteCaption}>
        {resolved.view.kind === 'text' || resolved.quote !== resolved.element.text
          ? t('reader.citedText')
          : t('reader.citedElement')}
      </figcaption>
      <blockquote className={styles.quote} data-testid="quote" translate="no">
        {markedParts(resolved.quote, mark).map((p, i) =>
          p.marked ? (
            <mark key={`m${i}`} className={styles.answerMark} data-testid="answer-mark" title={t('reader.theAnswer')}>
              {p.text}
            </mark>
          ) : (
            <span key={`t${i}`}>{p.text}</span>
          ),
        )}
      </blockquote>
    </figure>
  );
}

export function Reader({ route }: { route: CiteRoute; navigate: (route: Route) => void }) {
  const { resolved, problem: resolveProblem } = useResolved(route);
  const [viewProblem, setViewProblem] = useState<ReaderProblem | null>(null);
  const onError = useCallback((e: unknown) => setViewProblem(describeReaderError(e as { code?: string; message?: string })), []);
  const problem = resolveProblem ?? viewProblem;
  const t = useT();
  const back = route.historyId
    ? formatRoute({ name: 'history', historyId: route.historyId })
    : route.question
      ? `#/?${new URLSearchParams({ q: route.question })}`
      : '#/';
  return (
    <article className={styles.reader} aria-labelledby="reader-title">
      <nav className={styles.topbar} aria-label={t('reader.nav')}>
        <a href={back} className={styles.back} data-testid="back-to-answer">
          {route.question ? t('reader.backToAnswer') : t('reader.askQuestion')}
        </a>
        {resolved && (
          <a className={styles.download} href={resolved.download_url} download={resolved.version.original_name}>
            {t('reader.downloadOriginal')}
          </a>
        )}
      </nav>
      <ReaderHeader n={route.n} resolved={resolved} failed={problem !== null} />
      {problem && <ProblemNotice problem={problem} />}
      {resolved && !resolveProblem && (
        <>
          <VersionBanner resolved={resolved} route={route} />
          <CitedPassage resolved={resolved} mark={route.mark} />
          {!viewProblem && <Body resolved={resolved} onError={onError} />}
          <ContextPanel versionId={resolved.version.version_id} element={resolved.element} />
        </>
      )}
    </article>
  );
}
