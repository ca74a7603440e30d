import { type FormEvent, useEffect, useId, useRef, useState } from 'react';
import { api } from '../../../api/client.js';
import type { Invitation, Role } from '../../../api/types.js';
import { FormError } from '../../../app/FormError/FormError.js';
import forms from '../../../app/forms.module.css';
import { useErrorText, useT } from '../../../i18n/useT.js';
import { RoleSelect } from '../RoleSelect/RoleSelect.js';
import styles from './InviteDialog.module.css';

interface Props {
  collectionId: string;
  collectionName: string;
  onClose: () => void;
  /** A new invitation exists: the pending list reloads. */
  onInvited: () => void;
}

/** The link, once: shown in a read-only field with a copy button (no e-mail is sent). */
function CreatedLink({ url, invitation }: { url: string; invitation: Invitation }) {
  const t = useT();
  const field = useRef<HTMLInputElement>(null);
  const [copied, setCopied] = useState<'yes' | 'failed' | null>(null);
  const copy = () => {
    field.current?.select();
    navigator.clipboard
      .writeText(url)
      .then(() => setCopied('yes'))
      .catch(() => setCopied('failed'));
  };
  return (
    <div data-testid="invite-link">
      <p className={forms.note}>{t('invite.linkNote', { email: invitation.email, expires: new Date(invitation.expires_at) })}</p>
      <div className={styles.link}>
        <input ref={field} readOnly value={url} aria-label={t('invite.link')} onFocus={(e) => e.target.select()} translate="no" />
        <button className={forms.button} type="button" onClick={copy}>
          {t('invite.copy')}
        </button>
      </div>
      {copied === 'yes' && (
        <span className={styles.copied} role="status">
          {t('invite.copied')}
        </span>
      )}
      {copied === 'failed' && <FormError error={t('invite.copyFailed')} />}
    </div>
  );
}

/** "Invite by email": a modal dialog that makes a one-time link for an email and a role. */
export function InviteDialog({ collectionId, collectionName, onClose, onInvited }: Props) {
  const t = useT();
  const errorText = useErrorText();
  const dialog = useRef<HTMLDialogElement>(null);
  const [email, setEmail] = useState('');
  const [role, setRole] = useState<Role>('viewer');
  const roleField = useId();
  const [error, setError] = useState<string | null>(null);
  const [created, setCreated] = useState<{ url: string; invitation: Invitation } | null>(null);
  useEffect(() => {
    dialog.current?.showModal();
  }, []);
  const submit = (e: FormEvent) => {
    e.preventDefault();
    setError(null);
    api
      .invite(collectionId, email, role)
      .then((r) => {
        setCreated(r);
        onInvited();
      })
      .catch((err: unknown) => setError(errorText(err)));
  };
  const again = () => {
    setCreated(null);
    setEmail('');
  };
  return (
    <dialog ref={dialog} className={styles.dialog} aria-labelledby="invite-heading" onClose={onClose}>
      <h2 id="invite-heading">{t('invite.title', { collection: collectionName })}</h2>
      {created ? (
        <>
          <CreatedLink url={created.url} invitation={created.invitation} />
          <div className={styles.actions}>
            <button className={forms.quiet} type="button" onClick={again}>
              {t('invite.another')}
            </button>
            <button className={forms.button} type="button" onClick={() => dialog.current?.close()}>
              {t('invite.close')}
            </button>
          </div>
        </>
      ) : (
        <form className={forms.form} onSubmit={submit}>
          <p className={forms.note}>{t('invite.noMail')}</p>
          <label>
            {t('invite.email')}
            <input type="email" required autoFocus value={email} onChange={(e) => setEmail(e.target.value)} />
          </label>
          <label htmlFor={roleField}>
            {t('invite.role')}
            <RoleSelect id={roleField} value={role} onChange={setRole} />
          </label>
          <FormError error={error} />
          <div className={styles.actions}>
            <button className={forms.quiet} type="button" onClick={() => dialog.current?.close()}>
              {t('invite.cancel')}
            </button>
            <button className={forms.button} type="submit">
              {t('invite.create')}
            </button>
          </div>
        </form>
      )}
    </dialog>
  );
}
