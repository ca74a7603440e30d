import type { Retrieved, StageName } from '../../../api/types.js';
import { formatScore } from '../answerText.js';
import styles from './SourcesList.module.css';

const STAGES: StageName[] = ['lexical', 'dense', 'fused', 'rerank'];

export function SourcesList({ retrieved, timings }: { retrieved: Retrieved[]; timings: Record<string, number> }) {
  const stages = STAGES.filter((s) => retrieved.some((r) => r.ranks[s] !== undefined || r.scores[s] !== undefined));
  const total = timings.total_ms;
  return (
    <section aria-labelledby="sources-heading" className={styles.sources}>
      <h2 id="sources-heading" className={styles.heading}>
        Sources considered
        {total !== undefined && <span className={styles.timing}> · {total.toFixed(1)} ms</span>}
      </h2>
      <p className={styles.timings}>
        {Object.entries(timings)
          .filter(([stage]) => stage !== 'total_ms')
          .map(([stage, ms]) => `${stage} ${ms.toFixed(1)} ms`)
          .join(' · ')}
      </p>
      <ol className={styles.list}>
        {retrieved.map((r) => (
          <li key={r.chunk_id} className={styles.item} data-testid="source">
            <div className={styles.head}>
              <span className={styles.rank}>#{r.rank}</span>
              <span className={styles.file}>{r.file}</span>
              {r.page_index !== undefined && <span className={styles.muted}>page {r.page_label ?? r.page_index + 1}</span>}
            </div>
            {r.section_path.length > 0 && <div className={styles.path}>{r.section_path.join(' › ')}</div>}
            <p className={styles.text}>{r.text.length > 280 ? `${r.text.slice(0, 280)}…` : r.text}</p>
            <dl className={styles.scores}>
              {stages.map((s) => (
                <div key={s} className={styles.score}>
                  <dt>{s}</dt>
                  <dd>
                    {r.ranks[s] !== undefined ? `#${r.ranks[s]}` : '—'} · {formatScore(r.scores[s])}
                  </dd>
                </div>
              ))}
            </dl>
          </li>
        ))}
      </ol>
    </section>
  );
}
