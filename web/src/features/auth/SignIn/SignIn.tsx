import { type FormEvent, useState } from 'react';
import { api } from '../../../api/client.js';
import type { SessionInfo } from '../../../api/types.js';
import { FormError } from '../../../app/FormError/FormError.js';
import forms from '../../../app/forms.module.css';

/** Sign-in, or — on a fresh instance — the one-time creation of the first instance admin. */
export function SignIn({ setup, onSignedIn }: { setup: boolean; onSignedIn: (s: SessionInfo) => void }) {
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const submit = (e: FormEvent) => {
    e.preventDefault();
    setBusy(true);
    setError(null);
    (setup ? api.setup(email, password) : api.login(email, password))
      .then(onSignedIn)
      .catch((err: unknown) => setError(err instanceof Error ? err.message : String(err)))
      .finally(() => setBusy(false));
  };
  return (
    <section className={forms.panel} aria-labelledby="signin-heading">
      <h1 id="signin-heading">{setup ? 'Set up Pinpoint' : 'Sign in'}</h1>
      {setup && <p className={forms.note}>This instance has no users yet. Create the first administrator.</p>}
      <form className={forms.form} onSubmit={submit}>
        <label>
          Email
          <input type="email" autoComplete="username" required value={email} onChange={(e) => setEmail(e.target.value)} />
        </label>
        <label>
          Password{setup ? ' (at least 10 characters)' : ''}
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
          {setup ? 'Create administrator' : 'Sign in'}
        </button>
      </form>
    </section>
  );
}
