import { useEffect, useState } from 'react';
import { api } from '../../../api/client.js';
import type { HistoryEntry, ReadableCollection } from '../../../api/types.js';
import { formatRoute } from '../../../app/route.js';
import { Answer } from '../../ask/AskView/AskView.js';
import { FeedbackBar } from '../FeedbackBar/FeedbackBar.js';
import { verdictLabel } from '../verdicts.js';
import styles from './HistoryView.module.css';

const when = (iso: string) => new Date(iso).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });

function useLoad<T>(load: () => Promise<T>, deps: unknown[]): { value?: T; error?: string } {
  const [state, setState] = useState<{ value?: T; error?: string }>({});
  useEffect(() => {
    let live = true;
    setState({});
    load()
      .then((value) => live && setState({ value }))
      .catch((e: unknown) => live && setState({ error: e instanceof Error ? e.message : String(e) }));
    return () => {
      live = false;
    };
  }, deps);
  return state;
}

function collectionName(collections: ReadableCollection[], id: string | null): string {
  if (id === null) return 'all collections';
  return collections.find((c) => c.collection_id === id)?.name ?? 'a collection you can no longer read';
}

/** One earlier question reopened: the answer as it was given, its citations opening the shared reader. */
function HistoryEntryView({ historyId, collections }: { historyId: string; collections: ReadableCollection[] }) {
  const { value: entry, error } = useLoad(() => api.historyEntry(historyId), [historyId]);
  if (error)
    return (
      <p className={styles.error} role="alert">
        {error}
      </p>
    );
  if (!entry) return <p className={styles.muted}>Loading…</p>;
  return (
    <section aria-labelledby="history-entry-heading" data-testid="history-entry">
      <p className={styles.back}>
        <a href={formatRoute({ name: 'history' })}>← All questions</a>
      </p>
      <h1 id="history-entry-heading" className={styles.question}>
        {entry.question}
      </h1>
      <p className={styles.meta}>
        Asked {when(entry.asked_at)} in {collectionName(collections, entry.collection_id)} ·{' '}
        <a href={formatRoute({ name: 'home', question: entry.question })}>ask again</a>
      </p>
      {entry.withheld ? (
        <p className={styles.withheld} data-testid="withheld">
          This answer cited documents you can no longer read, or that were deleted; it is not shown.
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
  if (historyId) return <HistoryEntryView historyId={historyId} collections={collections} />;
  const entries: HistoryEntry[] = value?.entries ?? [];
  return (
    <section aria-labelledby="history-heading">
      <h1 id="history-heading" className={styles.heading}>
        Your questions
      </h1>
      {error && (
        <p className={styles.error} role="alert">
          {error}
        </p>
      )}
      {value && entries.length === 0 && (
        <p className={styles.muted}>No questions yet: what you ask is kept here, for you only.</p>
      )}
      <ol className={styles.list}>
        {entries.map((e) => (
          <li key={e.history_id} className={styles.item} data-testid="history-row">
            <a className={styles.link} href={formatRoute({ name: 'history', historyId: e.history_id })}>
              {e.question}
            </a>
            <span className={styles.meta}>
              {when(e.asked_at)} · {collectionName(collections, e.collection_id)} ·{' '}
              {e.withheld ? 'withheld' : e.answer.refused ? 'refused' : `${e.answer.citations.length} citations`}
              {e.feedback && <span className={styles.verdict}> · {verdictLabel(e.feedback.verdict)}</span>}
            </span>
          </li>
        ))}
      </ol>
    </section>
  );
}
