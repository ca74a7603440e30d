import { useState } from 'react';
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

function useStageName(): (stage: string) => string {
  const t = useT();
  return (stage) => {
    const id = stageMessage(stage);
    return id ? t(id) : stage;
  };
}

/** How long the answer took, in all and stage by stage. */
function StageTimings({ timings }: { timings: Record<string, number> }) {
  const t = useT();
  const intl = useIntl();
  const stageName = useStageName();
  const ms = (value: number) => intl.formatNumber(value, { style: 'unit', unit: 'millisecond', maximumFractionDigits: 1 });
  const total = timings.total_ms;
  const stages = Object.entries(timings)
    .filter(([stage]) => stage !== 'total_ms')
    .map(([stage, value]) => `${stageName(stage)} ${ms(value)}`);
  return (
    <p className={styles.timings} data-testid="stage-timings">
      {[...(total !== undefined ? [t('sources.total', { time: ms(total) })] : []), ...stages].join(' · ')}
    </p>
  );
}

/** One retrieved passage: its document and text; with `details`, each stage's rank and score. */
function Source({ source: r, stages, details }: { source: Retrieved; stages: StageName[]; details: boolean }) {
  const t = useT();
  const stageName = useStageName();
  return (
    <li className={styles.item} data-testid="source">
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
      {details && (
        <dl className={styles.scores} data-testid="source-scores">
          {stages.map((s) => (
            <div key={s} className={styles.score}>
              <dt>{stageName(s)}</dt>
              <dd>
                {r.ranks[s] !== undefined ? `#${r.ranks[s]}` : '—'} · {formatScore(r.scores[s])}
              </dd>
            </div>
          ))}
        </dl>
      )}
    </li>
  );
}

/** The documents and passages the answer was chosen from; scores and stage timings behind "Details" (closed at first). */
export function SourcesList({ retrieved, timings }: { retrieved: Retrieved[]; timings: Record<string, number> }) {
  const stages = STAGES.filter((s) => retrieved.some((r) => r.ranks[s] !== undefined || r.scores[s] !== undefined));
  const [details, setDetails] = useState(false);
  const t = useT();
  return (
    <section aria-labelledby="sources-heading" className={styles.sources}>
      <h2 id="sources-heading" className={styles.heading}>
        {t('sources.heading')}
      </h2>
      <button
        type="button"
        className={styles.toggle}
        aria-expanded={details}
        onClick={() => setDetails(!details)}
        data-testid="sources-details"
      >
        {t('sources.details')}
      </button>
      {details && <StageTimings timings={timings} />}
      <ol className={styles.list}>
        {retrieved.map((r) => (
          <Source key={r.chunk_id} source={r} stages={stages} details={details} />
        ))}
      </ol>
    </section>
  );
}
