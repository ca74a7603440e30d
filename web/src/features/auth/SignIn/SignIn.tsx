import { type FormEvent, useState } from 'react';
import { api } from '../../../api/client.js';
import type { SessionInfo } from '../../../api/types.js';
import { FormError } from '../../../app/FormError/FormError.js';
import forms from '../../../app/forms.module.css';
import { LanguagePicker } from '../../../i18n/LanguagePicker/LanguagePicker.js';
import { useErrorText, useT } from '../../../i18n/useT.js';

/** Sign-in, or — on a fresh instance — the one-time creation of the first instance admin. */
export function SignIn({ setup, onSignedIn }: { setup: boolean; onSignedIn: (s: SessionInfo) => void }) {
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const t = useT();
  const errorText = useErrorText();
  const submit = (e: FormEvent) => {
    e.preventDefault();
    setBusy(true);
    setError(null);
    (setup ? api.setup(email, password) : api.login(email, password))
      .then(onSignedIn)
      .catch((err: unknown) => setError(errorText(err)))
      .finally(() => setBusy(false));
  };
  return (
    <section className={forms.panel} aria-labelledby="signin-heading">
      <div className={forms.corner}>
        <LanguagePicker />
      </div>
      <h1 id="signin-heading">{setup ? t('signin.setupTitle') : t('signin.title')}</h1>
      {setup && <p className={forms.note}>{t('signin.setupNote')}</p>}
      <form className={forms.form} onSubmit={submit}>
        <label>
          {t('signin.email')}
          <input type="email" autoComplete="username" required value={email} onChange={(e) => setEmail(e.target.value)} />
        </label>
        <label>
          {setup ? t('signin.newPassword', { min: 10 }) : t('signin.password')}
          <input
            type="password"
            autoComplete={setup ? 'new-password' : 'current-password'}
            required
            minLength={setup ? 10 : 1}
            value={password}
            onChange={(e) => setPassword(e.target.value)}
          />
        </label>
        <FormError error={error} />
        <button className={forms.button} type="submit" disabled={busy}>
          {setup ? t('signin.createAdmin') : t('signin.submit')}
        </button>
      </form>
    </section>
  );
}
