import { useEffect, useState } from 'react';
import { useIntl } from 'react-intl';
import { api } from '../../../api/client.js';
import type { HistoryEntry, ReadableCollection } from '../../../api/types.js';
import { formatRoute } from '../../../app/route.js';
import { type Translate, useErrorText, useT } from '../../../i18n/useT.js';
import { Answer } from '../../ask/AskView/AskView.js';
import { FeedbackBar } from '../FeedbackBar/FeedbackBar.js';
import styles from './HistoryView.module.css';

function useLoad<T>(load: () => Promise<T>, deps: unknown[]): { value?: T; error?: unknown } {
  const [state, setState] = useState<{ value?: T; error?: unknown }>({});
  useEffect(() => {
    let live = true;
    setState({});
    load()
      .then((value) => live && setState({ value }))
      .catch((e: unknown) => live && setState({ error: e ?? new Error('history') }));
    return () => {
      live = false;
    };
  }, deps);
  return state;
}

function collectionName(t: Translate, collections: ReadableCollection[], id: string | null): string {
  if (id === null) return t('history.allCollections');
  return collections.find((c) => c.collection_id === id)?.name ?? t('history.lostCollection');
}

/** One earlier question reopened: the answer as it was given, its citations opening the shared reader. */
function HistoryEntryView({ historyId, collections }: { historyId: string; collections: ReadableCollection[] }) {
  const { value: entry, error } = useLoad(() => api.historyEntry(historyId), [historyId]);
  const t = useT();
  const intl = useIntl();
  const errorText = useErrorText();
  if (error !== undefined)
    return (
      <p className={styles.error} role="alert">
        {errorText(error)}
      </p>
    );
  if (!entry) return <p className={styles.muted}>{t('app.loading')}</p>;
  return (
    <section aria-labelledby="history-entry-heading" data-testid="history-entry">
      <p className={styles.back}>
        <a href={formatRoute({ name: 'history' })}>{t('history.back')}</a>
      </p>
      <h1 id="history-entry-heading" className={styles.question} translate="no">
        {entry.question}
      </h1>
      <p className={styles.meta}>
        {t('history.asked', {
          when: intl.formatDate(entry.asked_at, { dateStyle: 'medium', timeStyle: 'short' }),
          collection: collectionName(t, collections, entry.collection_id),
        })}{' '}
        · <a href={formatRoute({ name: 'home', question: entry.question })}>{t('history.askAgain')}</a>
      </p>
      {entry.withheld ? (
        <p className={styles.withheld} data-testid="withheld">
          {t('history.withheld')}
        </p>
      ) : (
        <Answer answer={entry.answer} historyId={entry.history_id} />
      )}
      <FeedbackBar historyId={entry.history_id} feedback={entry.feedback} />
    </section>
  );
}

/** The signed-in user's earlier questions, newest first. */
export function HistoryView({ historyId, collections }: { historyId?: string | undefined; collections: ReadableCollection[] }) {
  const { value, error } = useLoad(() => api.history(200), [historyId]);
  const t = useT();
  const intl = useIntl();
  const errorText = useErrorText();
  if (historyId) return <HistoryEntryView historyId={historyId} collections={collections} />;
  const entries: HistoryEntry[] = value?.entries ?? [];
  return (
    <section aria-labelledby="history-heading">
      <h1 id="history-heading" className={styles.heading}>
        {t('history.title')}
      </h1>
      {error !== undefined && (
        <p className={styles.error} role="alert">
          {errorText(error)}
        </p>
      )}
      {value && entries.length === 0 && <p className={styles.muted}>{t('history.empty')}</p>}
      <ol className={styles.list}>
        {entries.map((e) => (
          <li key={e.history_id} className={styles.item} data-testid="history-row">
            <a className={styles.link} href={formatRoute({ name: 'history', historyId: e.history_id })} translate="no">
              {e.question}
            </a>
            <span className={styles.meta}>
              {intl.formatDate(e.asked_at, { dateStyle: 'medium', timeStyle: 'short' })} ·{' '}
              {collectionName(t, collections, e.collection_id)} ·{' '}
              {e.withheld
                ? t('history.status.withheld')
                : e.answer.refused
                  ? t('history.status.refused')
                  : t('history.status.citations', { count: e.answer.citations.length })}
              {e.feedback && <span className={styles.verdict}> · {t(`verdict.${e.feedback.verdict}`)}</span>}
            </span>
          </li>
        ))}
      </ol>
    </section>
  );
}
