import { type FormEvent, useEffect, useState } from 'react';
import { api } from '../../../api/client.js';
import type { InvitationPreview } from '../../../api/types.js';
import { FormError } from '../../../app/FormError/FormError.js';
import forms from '../../../app/forms.module.css';
import { rememberCollection } from '../../../app/session.js';
import { LanguagePicker } from '../../../i18n/LanguagePicker/LanguagePicker.js';
import { useErrorText, useT } from '../../../i18n/useT.js';

const MIN_PASSWORD = 10;

/** Who invited whom, where, as what, until when. */
function Offer({ preview }: { preview: InvitationPreview }) {
  const t = useT();
  const values = {
    inviter: preview.invited_by_email,
    email: preview.email,
    collection: preview.collection_name,
    role: t(`role.${preview.role}`),
  };
  return (
    <>
      <p data-testid="invite-offer">{preview.invited_by_email ? t('accept.byUser', values) : t('accept.byAdmin', values)}</p>
      <p className={forms.note}>{t('accept.expires', { date: new Date(preview.expires_at) })}</p>
    </>
  );
}

/**
 * The page an invitation link opens (`/invite/<token>`): what it offers, then a new password (a new
 * email) or the account's password (an existing one; none when already signed in as it). Accepting
 * signs the invitee in and opens the app in the collection.
 */
export function AcceptInvite({ token, signedInEmail }: { token: string; signedInEmail: string | null }) {
  const t = useT();
  const errorText = useErrorText();
  const [preview, setPreview] = useState<InvitationPreview | null>(null);
  const [unusable, setUnusable] = useState<string | null>(null);
  const [password, setPassword] = useState('');
  const [confirm, setConfirm] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  useEffect(() => {
    api
      .previewInvitation(token)
      .then(setPreview)
      .catch((err: unknown) => setUnusable(errorText(err)));
  }, [token, errorText]);
  const signedIn = preview !== null && signedInEmail?.toLowerCase() === preview.email.toLowerCase();
  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (!preview) return;
    if (!preview.account_exists && password !== confirm) return setError(t('accept.mismatch'));
    setBusy(true);
    setError(null);
    api
      .acceptInvitation(token, signedIn ? undefined : password)
      .then(() => {
        rememberCollection(preview.collection_id);
        window.location.replace('/#/');
      })
      .catch((err: unknown) => setError(errorText(err)))
      .finally(() => setBusy(false));
  };
  return (
    <section className={forms.panel} aria-labelledby="accept-heading">
      <div className={forms.corner}>
        <LanguagePicker />
      </div>
      {unusable ? (
        <>
          <h1 id="accept-heading">{t('accept.unusable')}</h1>
          <p className={forms.error} role="alert" data-testid="invite-invalid">
            {unusable}
          </p>
          <a href="/">{t('accept.home')}</a>
        </>
      ) : !preview ? (
        <p>{t('app.loading')}</p>
      ) : (
        <>
          <h1 id="accept-heading">{t('accept.title', { collection: preview.collection_name })}</h1>
          <Offer preview={preview} />
          <form className={forms.form} onSubmit={submit}>
            {signedIn ? (
              <p className={forms.note}>{t('accept.signedInAs', { email: preview.email })}</p>
            ) : preview.account_exists ? (
              <PasswordField
                label={t('accept.currentPassword')}
                note={t('accept.existing', { email: preview.email })}
                value={password}
                onChange={setPassword}
              />
            ) : (
              <>
                <p className={forms.note}>{t('accept.newAccount')}</p>
                <PasswordField
                  label={t('accept.password', { min: MIN_PASSWORD })}
                  value={password}
                  onChange={setPassword}
                  fresh
                />
                <PasswordField label={t('accept.confirm')} value={confirm} onChange={setConfirm} fresh />
              </>
            )}
            <FormError error={error} />
            <button className={forms.button} type="submit" disabled={busy}>
              {signedIn
                ? t('accept.join', { collection: preview.collection_name })
                : preview.account_exists
                  ? t('accept.signInJoin')
                  : t('accept.create')}
            </button>
          </form>
        </>
      )}
    </section>
  );
}

function PasswordField(props: { label: string; note?: string; value: string; onChange: (v: string) => void; fresh?: boolean }) {
  return (
    <>
      {props.note && <p className={forms.note}>{props.note}</p>}
      <label>
        {props.label}
        <input
          type="password"
          required
          minLength={props.fresh ? MIN_PASSWORD : 1}
          autoComplete={props.fresh ? 'new-password' : 'current-password'}
          value={props.value}
          onChange={(e) => props.onChange(e.target.value)}
        />
      </label>
    </>
  );
}
