import { type FormEvent, useState } from 'react';
import { api } from '../../../api/client.js';
import type { DocumentIdentity, DocumentSummary, IdentityCorrection } from '../../../api/types.js';
import styles from './DocumentIdentity.module.css';

const SOURCE: Record<string, string> = {
  file_name: 'file name',
  title_metadata: 'title',
  cover_page: 'cover page',
  editor: 'corrected',
};

function periodText(p: NonNullable<DocumentIdentity['period']>): string {
  return `FY${p.fiscal_year}${p.quarter ? ` Q${p.quarter}` : ''}${p.end_date ? ` (ended ${p.end_date})` : ''}`;
}

/** What the document is about and when, each part with where it was read ("3M COMPANY · cover page"). */
function IdentityParts({ identity }: { identity: DocumentIdentity }) {
  const parts = [
    ...identity.names.map((n) => ({ text: n.value, source: n.source })),
    ...(identity.kind ? [{ text: identity.kind.value, source: identity.kind.source }] : []),
    ...(identity.period ? [{ text: periodText(identity.period), source: identity.period.source }] : []),
  ];
  if (parts.length === 0) return <span className={styles.muted}>Nothing read about what it is</span>;
  return (
    <>
      {parts.map((p, i) => (
        <span key={`${p.text}-${i}`} className={styles.part} title={`read from the ${SOURCE[p.source] ?? p.source}`}>
          {p.text}
          <span className={styles.source}> · {SOURCE[p.source] ?? p.source}</span>
        </span>
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
  onError: (m: string) => void;
}) {
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
      .catch((err: unknown) => onError(err instanceof Error ? err.message : String(err)));
  };
  const reset = () => api.correctIdentity(doc.document_id, null).then(onChanged, (err: unknown) => onError(String(err)));
  return (
    <div className={styles.identity} data-testid="document-identity">
      {identity ? <IdentityParts identity={identity} /> : <span className={styles.muted}>Read when processed</span>}
      {canEdit && identity && !editing && (
        <button type="button" className={styles.linkButton} onClick={() => setEditing(true)}>
          Correct
        </button>
      )}
      {canEdit && doc.identity_correction && !editing && (
        <button type="button" className={styles.linkButton} onClick={reset}>
          Use what was read
        </button>
      )}
      {editing && identity && (
        <form className={styles.form} onSubmit={save} aria-label={`Correct what ${doc.name} is about`}>
          <input name="names" defaultValue={identity.names.map((n) => n.value).join(', ')} aria-label="Names, comma-separated" />
          <input name="kind" defaultValue={identity.kind?.value ?? ''} aria-label="Kind" placeholder="10-K" />
          <input
            name="fiscal_year"
            defaultValue={identity.period?.fiscal_year ?? ''}
            aria-label="Fiscal year"
            inputMode="numeric"
          />
          <input name="quarter" defaultValue={identity.period?.quarter ?? ''} aria-label="Quarter" inputMode="numeric" />
          <button type="submit">Save</button>
          <button type="button" onClick={() => setEditing(false)}>
            Cancel
          </button>
        </form>
      )}
    </div>
  );
}
