import { type RefObject, useEffect, useRef, useState } from 'react';
import { api } from '../../../api/client.js';
import type { TextView as TextViewData } from '../../../api/types.js';
import { useT } from '../../../i18n/useT.js';
import { MarkdownText } from '../MarkdownText/MarkdownText.js';
import { scrollIntoContainer } from '../scrollTo.js';
import type { HighlightParts } from '../textRange.js';
import { lineOfOffset, splitAtCodepoints } from '../textRange.js';
import styles from './TextView.module.css';

interface Props {
  view: TextViewData;
  highlight: boolean;
  /** html/json: show where the passage sits in the raw source, as text. */
  showRaw: boolean;
  /** md: the text is Markdown source, rendered with the cited range marked. */
  markdown: boolean;
  /** The decoded source (html/json) the `raw` range indexes into, as UTF-8 text. */
  sourceUrl: string;
  /** A cited table cell's row (codepoints): drawn lighter around the cell, as the sheet view draws it. */
  row?: { start: number; end: number } | undefined;
  onError: (e: unknown) => void;
}

const RAW_CONTEXT = 600;

/** The raw source around the cited range, decoded as text and never parsed as markup. */
function RawSource({
  url,
  range,
  onError,
}: {
  url: string;
  range: { start: number; end: number };
  onError: (e: unknown) => void;
}) {
  const [raw, setRaw] = useState<string | null>(null);
  const pre = useRef<HTMLPreElement>(null);
  const rawMark = useRef<HTMLElement>(null);
  const t = useT();
  useEffect(() => scrollIntoContainer(pre.current, rawMark.current), [raw]);
  useEffect(() => {
    let live = true;
    api
      .artifactBytes(url)
      .then((bytes) => live && setRaw(new TextDecoder('utf-8').decode(bytes)))
      .catch((e: unknown) => live && onError(e));
    return () => {
      live = false;
    };
  }, [url, onError]);
  if (raw === null) return <p className={styles.muted}>{t('text.loadingSource')}</p>;
  let parts: ReturnType<typeof splitAtCodepoints>;
  try {
    parts = splitAtCodepoints(raw, range.start, range.end);
  } catch {
    return <p className={styles.muted}>{t('text.rawMismatch')}</p>;
  }
  // start and end at line breaks near the range, but never show more than a few screens of one long line
  const lineStart = Math.max(0, parts.before.lastIndexOf('\n', parts.before.length - RAW_CONTEXT) + 1);
  const from = parts.before.length - lineStart > 4 * RAW_CONTEXT ? parts.before.length - RAW_CONTEXT : lineStart;
  const lineEnd = parts.after.indexOf('\n', RAW_CONTEXT);
  const toEnd = lineEnd < 0 || lineEnd > 4 * RAW_CONTEXT ? Math.min(parts.after.length, RAW_CONTEXT) : lineEnd;
  const after = parts.after.slice(0, toEnd);
  return (
    <figure className={styles.raw}>
      <figcaption className={styles.rawCaption}>
        {t('text.rawCaption', { line: lineOfOffset(raw, parts.range.start) })}
      </figcaption>
      <pre ref={pre} className={styles.rawText} data-testid="raw-source" translate="no">
        {from > 0 && '…\n'}
        {parts.before.slice(from)}
        <mark ref={rawMark} className={styles.rawMark} data-testid="raw-mark">
          {parts.marked}
        </mark>
        {after}
        {toEnd < parts.after.length && '\n…'}
      </pre>
    </figure>
  );
}

/** The plain text with the cited range as one <mark>, inside its table row when a cell is cited. */
function PlainText({
  text,
  parts,
  row,
  mark,
}: {
  text: string;
  parts: HighlightParts | null;
  row: HighlightParts | null;
  mark: RefObject<HTMLElement | null>;
}) {
  if (!parts) return text;
  const cell = (
    <mark ref={mark} className={styles.mark} data-testid="text-mark">
      {parts.marked}
    </mark>
  );
  if (!row || parts.range.start < row.range.start || parts.range.end > row.range.end) {
    return (
      <>
        {parts.before}
        {cell}
        {parts.after}
      </>
    );
  }
  return (
    <>
      {row.before}
      <span className={styles.row} data-testid="text-row">
        {text.slice(row.range.start, parts.range.start)}
        {cell}
        {text.slice(parts.range.end, row.range.end)}
      </span>
      {row.after}
    </>
  );
}

export function TextView({ view, highlight, showRaw, markdown, sourceUrl, row, onError }: Props) {
  const mark = useRef<HTMLElement>(null);
  const box = useRef<HTMLElement>(null);
  const t = useT();
  let parts: HighlightParts | null = null;
  let problem: string | null = null;
  try {
    parts = splitAtCodepoints(view.text, view.start, view.end);
  } catch (e) {
    problem = e instanceof Error ? e.message : String(e);
  }
  const range = parts && highlight ? { start: view.start, end: view.end } : null;
  let rowParts: HighlightParts | null = null;
  try {
    rowParts = row ? splitAtCodepoints(view.text, row.start, row.end) : null;
  } catch {
    // a row that does not fit the text is not drawn; the cited range still is
  }
  useEffect(() => {
    scrollIntoContainer(box.current, mark.current);
  }, []);

  return (
    <div className={styles.wrap}>
      {problem && (
        <p className={styles.problem} role="alert" title={problem}>
          {t('text.rangeMismatch')}
        </p>
      )}
      <section ref={box} className={styles.text} data-testid="text-view" aria-label={t('text.label')} translate="no">
        {markdown ? (
          <MarkdownText source={view.text} range={range} firstMark={mark} markClass={styles.mark ?? ''} />
        ) : (
          <PlainText text={view.text} parts={highlight ? parts : null} row={rowParts} mark={mark} />
        )}
      </section>
      {showRaw && view.raw && highlight && <RawSource url={sourceUrl} range={view.raw} onError={onError} />}
    </div>
  );
}
