import { useIntl } from 'react-intl';
import type { Retrieved, StageName } from '../../../api/types.js';
import { en, type MessageId } from '../../../i18n/messages/en.js';
import { useT } from '../../../i18n/useT.js';
import { formatScore } from '../answerText.js';
import styles from './SourcesList.module.css';

const STAGES: StageName[] = ['lexical', 'dense', 'fused', 'rerank'];

/** A retrieval stage's name in the catalogue; a stage this SPA does not know keeps its own name. */
const stageMessage = (stage: string): MessageId | null => {
  const id = `sources.stage.${stage}`;
  return id in en ? (id as MessageId) : null;
};

export function SourcesList({ retrieved, timings }: { retrieved: Retrieved[]; timings: Record<string, number> }) {
  const stages = STAGES.filter((s) => retrieved.some((r) => r.ranks[s] !== undefined || r.scores[s] !== undefined));
  const total = timings.total_ms;
  const t = useT();
  const intl = useIntl();
  const ms = (value: number) => intl.formatNumber(value, { style: 'unit', unit: 'millisecond', maximumFractionDigits: 1 });
  const stageName = (stage: string) => {
    const id = stageMessage(stage);
    return id ? t(id) : stage;
  };
  return (
    <section aria-labelledby="sources-heading" className={styles.sources}>
      <h2 id="sources-heading" className={styles.heading}>
        {t('sources.heading')}
        {total !== undefined && <span className={styles.timing}> · {ms(total)}</span>}
      </h2>
      <p className={styles.timings}>
        {Object.entries(timings)
          .filter(([stage]) => stage !== 'total_ms')
          .map(([stage, value]) => `${stageName(stage)} ${ms(value)}`)
          .join(' · ')}
      </p>
      <ol className={styles.list}>
        {retrieved.map((r) => (
          <li key={r.chunk_id} className={styles.item} data-testid="source">
            <div className={styles.head}>
              <span className={styles.rank}>#{r.rank}</span>
              <span className={styles.file} translate="no">
                {r.file}
              </span>
              {r.page_index !== undefined && (
                <span className={styles.muted}>{t('sources.page', { page: r.page_label ?? r.page_index + 1 })}</span>
              )}
            </div>
            {r.section_path.length > 0 && (
              <div className={styles.path} translate="no">
                {r.section_path.join(' › ')}
              </div>
            )}
            <p className={styles.text} translate="no">
              {r.text.length > 280 ? `${r.text.slice(0, 280)}…` : r.text}
            </p>
            <dl className={styles.scores}>
              {stages.map((s) => (
                <div key={s} className={styles.score}>
                  <dt>{stageName(s)}</dt>
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
