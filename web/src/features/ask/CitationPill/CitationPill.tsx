import type { HistoryAnswer } from '../../../api/types.js';
import { citationHref } from '../../../app/route.js';
import { useT } from '../../../i18n/useT.js';
import styles from './CitationPill.module.css';

type Citation = HistoryAnswer['citations'][number];

/** A citation's [n] mark: a link that opens the citation in the reader, named by its file (and page). */
export function CitationPill({
  citation: c,
  question,
  historyId,
  testId = 'citation-pill',
}: {
  citation: Citation;
  question: string;
  historyId?: string | undefined;
  testId?: string;
}) {
  const t = useT();
  return (
    <a
      className={styles.pill}
      href={citationHref(c, question, historyId)}
      data-testid={testId}
      aria-label={
        c.page_index !== undefined
          ? t('answer.sourceAriaPage', { n: c.n, file: c.file, page: c.page_label ?? c.page_index + 1 })
          : t('answer.sourceAria', { n: c.n, file: c.file })
      }
    >
      {c.n}
    </a>
  );
}
