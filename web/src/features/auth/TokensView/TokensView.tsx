import { type FormEvent, useCallback, useEffect, useState } from 'react';
import { api } from '../../../api/client.js';
import type { ApiToken } from '../../../api/types.js';
import { FormError } from '../../../app/FormError/FormError.js';
import forms from '../../../app/forms.module.css';

/** The user's personal API tokens: create (the secret is shown once), list, revoke. */
export function TokensView() {
  const [tokens, setTokens] = useState<ApiToken[]>([]);
  const [name, setName] = useState('');
  const [fresh, setFresh] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const fail = (e: unknown) => setError(e instanceof Error ? e.message : String(e));
  const load = useCallback(() => {
    api
      .tokens()
      .then((r) => setTokens(r.tokens))
      .catch(fail);
  }, []);
  useEffect(load, []);
  const create = (e: FormEvent) => {
    e.preventDefault();
    api
      .createToken(name)
      .then((r) => {
        setFresh(r.token);
        setName('');
        load();
      })
      .catch(fail);
  };
  return (
    <section className={forms.panel} aria-labelledby="tokens-heading">
      <h1 id="tokens-heading">API tokens</h1>
      <p className={forms.note}>For scripts and agents: send it as Authorization: Bearer …</p>
      <form className={forms.row} onSubmit={create}>
        <label>
          Name
          <input required maxLength={100} value={name} onChange={(e) => setName(e.target.value)} />
        </label>
        <button className={forms.button} type="submit">
          Create token
        </button>
      </form>
      {fresh && (
        <div data-testid="new-token">
          <p className={forms.note}>Copy it now: it is not shown again.</p>
          <code className={forms.secret}>{fresh}</code>
        </div>
      )}
      <FormError error={error} />
      <table className={forms.table}>
        <thead>
          <tr>
            <th>Name</th>
            <th>Created</th>
            <th>Last used</th>
            <th />
          </tr>
        </thead>
        <tbody>
          {tokens.map((t) => (
            <tr key={t.token_id} data-testid="token-row">
              <td>{t.name}</td>
              <td>{new Date(t.created_at).toLocaleString()}</td>
              <td>{t.last_used_at ? new Date(t.last_used_at).toLocaleString() : '—'}</td>
              <td>
                {t.revoked_at ? (
                  'revoked'
                ) : (
                  <button
                    className={forms.quiet}
                    type="button"
                    onClick={() => api.revokeToken(t.token_id).then(load).catch(fail)}
                  >
                    Revoke
                  </button>
                )}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}
