import { type FormEvent, useState } from 'react';
import { api } from '../../../api/client.js';
import type { FeedbackVerdict, HistoryEntry } from '../../../api/types.js';
import { VERDICTS, verdictLabel } from '../verdicts.js';
import styles from './FeedbackBar.module.css';

/** Feedback on one answer: a verdict and an optional note, kept with the user's history entry. */
export function FeedbackBar({ historyId, feedback }: { historyId: string; feedback: HistoryEntry['feedback'] }) {
  const [saved, setSaved] = useState(feedback);
  const [verdict, setVerdict] = useState<FeedbackVerdict | null>(feedback?.verdict ?? null);
  const [note, setNote] = useState(feedback?.note ?? '');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (!verdict) return;
    setBusy(true);
    setError(null);
    api
      .setFeedback(historyId, verdict, note.trim())
      .then((entry) => setSaved(entry.feedback))
      .catch((err: unknown) => setError(err instanceof Error ? err.message : String(err)))
      .finally(() => setBusy(false));
  };
  const dirty = verdict !== (saved?.verdict ?? null) || note.trim() !== (saved?.note ?? '');
  return (
    <form className={styles.bar} onSubmit={submit} aria-label="Feedback on this answer" data-testid="feedback">
      <span className={styles.prompt}>Was this answer right?</span>
      <fieldset className={styles.choices}>
        <legend className="visually-hidden">Verdict</legend>
        {VERDICTS.map((v) => (
          <button
            key={v.verdict}
            type="button"
            aria-pressed={verdict === v.verdict}
            className={styles.choice}
            onClick={() => setVerdict(v.verdict)}
          >
            {v.label}
          </button>
        ))}
      </fieldset>
      {verdict && (
        <div className={styles.noteRow}>
          <label className="visually-hidden" htmlFor={`note-${historyId}`}>
            Note
          </label>
          <input
            id={`note-${historyId}`}
            className={styles.note}
            value={note}
            maxLength={2000}
            placeholder="Add a note (optional): where the answer really is, what was wrong…"
            onChange={(e) => setNote(e.target.value)}
          />
          <button type="submit" className={styles.send} disabled={busy || !dirty}>
            {saved ? 'Update' : 'Send'}
          </button>
        </div>
      )}
      {saved && !dirty && (
        <p className={styles.saved} role="status">
          Saved: {verdictLabel(saved.verdict)}
          {saved.note ? ` — “${saved.note}”` : ''}. Thank you.
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
