import { type FormEvent, useState } from 'react';
import { api } from '../../../api/client.js';
import type { FeedbackVerdict, HistoryEntry } from '../../../api/types.js';
import { useErrorText, useT } from '../../../i18n/useT.js';
import { VERDICTS } from '../verdicts.js';
import styles from './FeedbackBar.module.css';

/** Feedback on one answer: a verdict and an optional note, kept with the user's history entry. */
export function FeedbackBar({ historyId, feedback }: { historyId: string; feedback: HistoryEntry['feedback'] }) {
  const [saved, setSaved] = useState(feedback);
  const [verdict, setVerdict] = useState<FeedbackVerdict | null>(feedback?.verdict ?? null);
  const [note, setNote] = useState(feedback?.note ?? '');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const t = useT();
  const errorText = useErrorText();
  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (!verdict) return;
    setBusy(true);
    setError(null);
    api
      .setFeedback(historyId, verdict, note.trim())
      .then((entry) => setSaved(entry.feedback))
      .catch((err: unknown) => setError(errorText(err)))
      .finally(() => setBusy(false));
  };
  const dirty = verdict !== (saved?.verdict ?? null) || note.trim() !== (saved?.note ?? '');
  return (
    <form className={styles.bar} onSubmit={submit} aria-label={t('feedback.label')} data-testid="feedback">
      <span className={styles.prompt}>{t('feedback.prompt')}</span>
      <fieldset className={styles.choices}>
        <legend className="visually-hidden">{t('feedback.verdict')}</legend>
        {VERDICTS.map((v) => (
          <button key={v} type="button" aria-pressed={verdict === v} className={styles.choice} onClick={() => setVerdict(v)}>
            {t(`verdict.${v}`)}
          </button>
        ))}
      </fieldset>
      {verdict && (
        <div className={styles.noteRow}>
          <label className="visually-hidden" htmlFor={`note-${historyId}`}>
            {t('feedback.note')}
          </label>
          <input
            id={`note-${historyId}`}
            className={styles.note}
            value={note}
            maxLength={2000}
            placeholder={t('feedback.notePlaceholder')}
            onChange={(e) => setNote(e.target.value)}
          />
          <button type="submit" className={styles.send} disabled={busy || !dirty}>
            {saved ? t('feedback.update') : t('feedback.send')}
          </button>
        </div>
      )}
      {saved && !dirty && (
        <p className={styles.saved} role="status">
          {saved.note
            ? t('feedback.savedNote', { verdict: t(`verdict.${saved.verdict}`), note: saved.note })
            : t('feedback.saved', { verdict: t(`verdict.${saved.verdict}`) })}
        </p>
      )}
      {error && (
        <p className={styles.error} role="alert">
          {error}
        </p>
      )}
    </form>
  );
}
