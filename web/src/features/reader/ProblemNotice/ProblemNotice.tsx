import styles from './ProblemNotice.module.css';

/** Why the reader cannot show what was asked: a title and what the person can do about it. */
export function ProblemNotice({ problem }: { problem: { title: string; detail: string } }) {
  return (
    <div className={styles.problem} role="alert" data-testid="reader-error">
      <strong>{problem.title}</strong>
      <p>{problem.detail}</p>
    </div>
  );
}
