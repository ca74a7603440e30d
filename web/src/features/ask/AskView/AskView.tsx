import { type FormEvent, Fragment, useEffect, useState } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import { api } from '../../../api/client.js';
import type { AskResponse, Collection, HistoryAnswer, QuestionScope } from '../../../api/types.js';
import type { Route } from '../../../app/route.js';
import { citationHref } from '../../../app/route.js';
import { useErrorText, useT } from '../../../i18n/useT.js';
import { FeedbackBar } from '../../history/FeedbackBar/FeedbackBar.js';
import { UploadPanel } from '../../library/UploadPanel/UploadPanel.js';
import { answerKey } from '../answerCache.js';
import { answerSegments } from '../answerText.js';
import { CalculationTable } from '../CalculationTable/CalculationTable.js';
import { CitationPill } from '../CitationPill/CitationPill.js';
import { SourcesList } from '../SourcesList/SourcesList.js';
import { useReasonText } from '../useReasonText.js';
import styles from './AskView.module.css';

/**
 * Answers already shown this session, so "back to the answer" does not ask again: by question,
 * collection and the versions searched, so a new upload or another collection asks afresh.
 */
const answered = new Map<string, AskResponse>();

type AskScope = 'all' | string[] | undefined;

async function askOnce(question: string, collectionId: string | undefined, scope: AskScope): Promise<AskResponse> {
  const { documents } = await api.documents(collectionId);
  const key = `${answerKey(question, collectionId, documents)}\u0000${scope === undefined ? '' : String(scope)}`;
  const cached = answered.get(key);
  if (cached) return cached;
  const answer = await api.ask(question, collectionId, scope);
  answered.set(key, answer);
  return answer;
}

function useAnswer(question: string | undefined, collectionId: string | undefined, scope: AskScope) {
  const scopeKey = scope === undefined ? '' : String(scope);
  const [state, setState] = useState<{ answer?: AskResponse; error?: unknown; loading: boolean }>({ loading: false });
  useEffect(() => {
    if (!question) {
      setState({ loading: false });
      return;
    }
    let live = true;
    setState({ loading: true });
    askOnce(question, collectionId, scope)
      .then((a) => live && setState({ answer: a, loading: false }))
      .catch((e: unknown) => live && setState({ error: e ?? new Error('ask'), loading: false }));
    return () => {
      live = false;
    };
    // scope is read through scopeKey: a new array with the same ids asks nothing new
  }, [question, collectionId, scopeKey]);
  return state;
}

/** An answer with its numbered citations (each opens the shared reader); also what a reopened history entry shows. */
export function Answer({ answer, historyId }: { answer: HistoryAnswer; historyId?: string }) {
  const t = useT();
  const reason = useReasonText()(answer);
  if (answer.refused) {
    return (
      <section className={styles.refusal} aria-label={t('answer.label')} data-testid="refusal">
        <p className={styles.refusalTitle}>{t('answer.refusalTitle')}</p>
        {reason && (
          <p className={styles.refusalReason} data-testid="gate-reason">
            {reason}
          </p>
        )}
      </section>
    );
  }
  const numbers = new Set(answer.citations.map((c) => c.n));
  const byN = new Map(answer.citations.map((c) => [c.n, c]));
  return (
    <section className={styles.answer} aria-label={t('answer.label')} data-testid="answer">
      <p className={styles.answerText}>
        {answerSegments(answer.answer, numbers).map((seg, i) => {
          if (seg.kind === 'text')
            return (
              <span key={`t${i}`} translate="no">
                {seg.text}
              </span>
            );
          const c = byN.get(seg.n);
          if (!c) return null;
          return <CitationPill key={`c${i}`} citation={c} question={answer.question} historyId={historyId} />;
        })}
      </p>
      {answer.calculation && (
        <CalculationTable calculation={answer.calculation} citations={byN} question={answer.question} historyId={historyId} />
      )}
      <ol className={styles.citations} aria-label={t('answer.citations')}>
        {answer.citations.map((c) => (
          <li key={c.n} value={c.n}>
            <a href={citationHref(c, answer.question, historyId)} translate="no">
              {c.file}
            </a>
            {c.page_index !== undefined && (
              <span className={styles.meta}> · {t('answer.page', { page: c.page_label ?? c.page_index + 1 })}</span>
            )}
            <span className={styles.meta} data-precision={c.precision}>
              {' '}
              · {t(`answer.precision.${c.precision}`)}
            </span>
            {c.supported === false && <span className={styles.unsupported}> · {t('answer.unsupported')}</span>}
          </li>
        ))}
      </ol>
      {reason && (
        <p className={styles.gateReason} data-testid="gate-reason">
          {reason}
        </p>
      )}
    </section>
  );
}

/** A document's or the question's own words in the chip: shown as written, never translated. */
function Own({ text }: { text: string }) {
  return <span translate="no">{text}</span>;
}

/**
 * What the answer searched, worded from the scope's documents and the words that named them
 * ("Searched 3M_2018_10K.pdf — named by “3M” and “FY2018”"), not from the server's English `summary`.
 */
function ScopeText({ scope }: { scope: QuestionScope }) {
  const intl = useIntl();
  const files = (docs: QuestionScope['documents']) => intl.formatList(docs.map((d) => <Own key={d.document_id} text={d.file} />));
  if (scope.by === 'user' || scope.documents.every((d) => d.named_by.length === 0)) {
    return <FormattedMessage id="scope.picked" values={{ files: files(scope.documents) }} />;
  }
  const documents = scope.documents.map((d) => (
    <Fragment key={d.document_id}>
      {intl.formatMessage(
        // a question that named no period asks the newest of the company's reports: the chip says so
        { id: d.newest ? 'scope.newest' : 'scope.namedBy' },
        {
          count: d.newest ?? 0,
          file: <Own text={d.file} />,
          terms: intl.formatList(
            d.named_by.map((term) => (
              <Fragment key={term}>{intl.formatMessage({ id: 'scope.term' }, { term: <Own text={term} /> })}</Fragment>
            )),
          ),
        },
      )}
    </Fragment>
  ));
  return <FormattedMessage id="scope.searched" values={{ documents: intl.formatList(documents) }} />;
}

/** What the answer searched; removing it asks the whole collection. */
function ScopeChip({ scope, onRemove }: { scope: QuestionScope; onRemove: () => void }) {
  const t = useT();
  return (
    <p className={styles.scope} data-testid="scope-chip">
      <span className={styles.scopeText}>
        <ScopeText scope={scope} />
      </span>
      <button
        type="button"
        className={styles.scopeRemove}
        onClick={onRemove}
        aria-label={t('scope.remove')}
        title={t('scope.remove')}
      >
        ×
      </button>
    </p>
  );
}

export function AskView({
  collection,
  question,
  scope,
  navigate,
}: {
  collection: Collection | null;
  question: string | undefined;
  scope?: 'all' | string[] | undefined;
  navigate: (route: Route) => void;
}) {
  const [draft, setDraft] = useState(question ?? '');
  const { answer, error, loading } = useAnswer(question, collection?.collection_id, scope);
  const t = useT();
  const errorText = useErrorText();
  useEffect(() => setDraft(question ?? ''), [question]);

  const submit = (e: FormEvent) => {
    e.preventDefault();
    const q = draft.trim();
    // a picked set of documents stays for the next question; a removed scope does not
    if (q) navigate({ name: 'home', question: q, ...(Array.isArray(scope) ? { scope } : {}) });
  };
  const askAll = () => question && navigate({ name: 'home', question, scope: 'all' });

  return (
    <div className={styles.layout}>
      <UploadPanel collection={collection} />
      <form className={styles.ask} onSubmit={submit}>
        <label htmlFor="question" className="visually-hidden">
          {t('ask.questionLabel')}
        </label>
        <input
          id="question"
          className={styles.input}
          value={draft}
          onChange={(e) => setDraft(e.target.value)}
          placeholder={t('ask.placeholder')}
          autoComplete="off"
        />
        <button type="submit" className={styles.submit} disabled={!draft.trim() || loading}>
          {t('ask.submit')}
        </button>
      </form>
      {!question && <p className={styles.intro}>{t('ask.intro')}</p>}
      {loading && (
        <p className={styles.muted} role="status">
          {t('ask.searching')}
        </p>
      )}
      {error !== undefined && (
        <p className={styles.error} role="alert">
          {errorText(error)}
        </p>
      )}
      {answer?.scope && <ScopeChip scope={answer.scope} onRemove={askAll} />}
      {answer && <Answer answer={answer} />}
      {answer?.history_id && <FeedbackBar key={answer.history_id} historyId={answer.history_id} feedback={null} />}
      {answer && !answer.refused && <SourcesList retrieved={answer.retrieved} timings={answer.timings} />}
    </div>
  );
}
