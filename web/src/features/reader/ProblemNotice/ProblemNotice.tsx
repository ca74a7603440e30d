import { useErrorText, useT } from '../../../i18n/useT.js';
import type { ReaderProblem } from '../readerState.js';
import styles from './ProblemNotice.module.css';

/** Why the reader cannot show what was asked: a title and what the person can do about it. */
export function ProblemNotice({ problem }: { problem: ReaderProblem }) {
  const t = useT();
  const errorText = useErrorText();
  const { detail } = problem;
  return (
    <div className={styles.problem} role="alert" data-testid="reader-error">
      <strong>{t(problem.title)}</strong>
      <p>{'id' in detail ? t(detail.id, detail.values) : errorText(detail.error)}</p>
    </div>
  );
}
