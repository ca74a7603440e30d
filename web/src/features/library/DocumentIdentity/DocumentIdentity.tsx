import { type FormEvent, useState } from 'react';
import { useIntl } from 'react-intl';
import { api } from '../../../api/client.js';
import type { DocumentIdentity, DocumentSummary, IdentityCorrection } from '../../../api/types.js';
import { type Translate, useT } from '../../../i18n/useT.js';
import styles from './DocumentIdentity.module.css';

type Source = DocumentIdentity['names'][number]['source'];

/** "FY2018 Q3 (ended 30 Sep 2018)" in the page's language; the end date by `Intl`. */
function usePeriodText(): (p: NonNullable<DocumentIdentity['period']>) => string {
  const t = useT();
  const intl = useIntl();
  return (p) => {
    const year = String(p.fiscal_year);
    const period = p.quarter ? t('identity.fiscalQuarter', { year, quarter: p.quarter }) : t('identity.fiscalYear', { year });
    if (!p.end_date) return period;
    const date = intl.formatDate(`${p.end_date}T00:00:00Z`, { dateStyle: 'medium', timeZone: 'UTC' });
    return t('identity.periodEnded', { period, date });
  };
}

/** One part of the identity; names and kinds are the document's own words (not translated). */
function IdentityPart({ text, source, own, t }: { text: string; source: Source; own: boolean; t: Translate }) {
  return (
    <span className={styles.part} title={t(`identity.readFrom.${source}`)}>
      <span translate={own ? 'no' : undefined}>{text}</span>
      <span className={styles.source}> · {t(`identity.source.${source}`)}</span>
    </span>
  );
}

/** What the document is about and when, each part with where it was read ("3M COMPANY · cover page"). */
function IdentityParts({ identity }: { identity: DocumentIdentity }) {
  const t = useT();
  const periodText = usePeriodText();
  const parts = [
    ...identity.names.map((n) => ({ text: n.value, source: n.source, own: true })),
    ...(identity.kind ? [{ text: identity.kind.value, source: identity.kind.source, own: true }] : []),
    ...(identity.period ? [{ text: periodText(identity.period), source: identity.period.source, own: false }] : []),
  ];
  if (parts.length === 0) return <span className={styles.muted}>{t('identity.nothing')}</span>;
  return (
    <>
      {parts.map((p, i) => (
        <IdentityPart key={`${p.text}-${i}`} {...p} t={t} />
      ))}
    </>
  );
}

/** The editor's correction from the form's fields: names, kind, fiscal year and quarter. */
function correctionOf(form: HTMLFormElement): IdentityCorrection {
  const field = (name: string) => (form.elements.namedItem(name) as HTMLInputElement).value.trim();
  const names = field('names')
    .split(',')
    .map((n) => n.trim())
    .filter((n) => n.length > 0);
  const year = Number(field('fiscal_year'));
  const quarter = Number(field('quarter'));
  return {
    ...(names.length > 0 ? { names } : {}),
    ...(field('kind') ? { kind: field('kind') } : {}),
    ...(Number.isInteger(year) && year >= 1900
      ? { period: { fiscal_year: year, ...(quarter >= 1 && quarter <= 4 ? { quarter } : {}) } }
      : {}),
  };
}

/** A document's identity on the documents page; editors correct it (kept for every later version). */
export function DocumentIdentityLine({
  summary,
  canEdit,
  onChanged,
  onError,
}: {
  summary: DocumentSummary;
  canEdit: boolean;
  onChanged: () => void;
  onError: (error: unknown) => void;
}) {
  const t = useT();
  const [editing, setEditing] = useState(false);
  const { identity, document: doc } = summary;
  const save = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    api
      .correctIdentity(doc.document_id, correctionOf(e.currentTarget))
      .then(() => {
        setEditing(false);
        onChanged();
      })
      .catch(onError);
  };
  const reset = () => api.correctIdentity(doc.document_id, null).then(onChanged, onError);
  return (
    <div className={styles.identity} data-testid="document-identity">
      {identity ? <IdentityParts identity={identity} /> : <span className={styles.muted}>{t('identity.pending')}</span>}
      {canEdit && identity && !editing && (
        <button type="button" className={styles.linkButton} onClick={() => setEditing(true)}>
          {t('identity.correct')}
        </button>
      )}
      {canEdit && doc.identity_correction && !editing && (
        <button type="button" className={styles.linkButton} onClick={reset}>
          {t('identity.reset')}
        </button>
      )}
      {editing && identity && (
        <form className={styles.form} onSubmit={save} aria-label={t('identity.form', { name: doc.name })}>
          <input
            name="names"
            defaultValue={identity.names.map((n) => n.value).join(', ')}
            aria-label={t('identity.names')}
            translate="no"
          />
          <input name="kind" defaultValue={identity.kind?.value ?? ''} aria-label={t('identity.kind')} placeholder="10-K" />
          <input
            name="fiscal_year"
            defaultValue={identity.period?.fiscal_year ?? ''}
            aria-label={t('identity.year')}
            inputMode="numeric"
          />
          <input
            name="quarter"
            defaultValue={identity.period?.quarter ?? ''}
            aria-label={t('identity.quarter')}
            inputMode="numeric"
          />
          <button type="submit">{t('identity.save')}</button>
          <button type="button" onClick={() => setEditing(false)}>
            {t('identity.cancel')}
          </button>
        </form>
      )}
    </div>
  );
}
