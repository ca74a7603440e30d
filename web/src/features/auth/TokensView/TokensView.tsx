import { type FormEvent, useCallback, useEffect, useState } from 'react';
import { useIntl } from 'react-intl';
import { api } from '../../../api/client.js';
import type { ApiToken } from '../../../api/types.js';
import { FormError } from '../../../app/FormError/FormError.js';
import forms from '../../../app/forms.module.css';
import { useErrorText, useT } from '../../../i18n/useT.js';

/** The user's personal API tokens: create (the secret is shown once), list, revoke. */
export function TokensView() {
  const [tokens, setTokens] = useState<ApiToken[]>([]);
  const [name, setName] = useState('');
  const [fresh, setFresh] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const t = useT();
  const intl = useIntl();
  const errorText = useErrorText();
  const fail = (e: unknown) => setError(errorText(e));
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
      <h1 id="tokens-heading">{t('tokens.title')}</h1>
      <p className={forms.note}>{t('tokens.note')}</p>
      <form className={forms.row} onSubmit={create}>
        <label>
          {t('tokens.name')}
          <input required maxLength={100} value={name} onChange={(e) => setName(e.target.value)} />
        </label>
        <button className={forms.button} type="submit">
          {t('tokens.create')}
        </button>
      </form>
      {fresh && (
        <div data-testid="new-token">
          <p className={forms.note}>{t('tokens.copyNow')}</p>
          <code className={forms.secret}>{fresh}</code>
        </div>
      )}
      <FormError error={error} />
      <table className={forms.table}>
        <thead>
          <tr>
            <th>{t('tokens.name')}</th>
            <th>{t('tokens.created')}</th>
            <th>{t('tokens.lastUsed')}</th>
            <th />
          </tr>
        </thead>
        <tbody>
          {tokens.map((token) => (
            <tr key={token.token_id} data-testid="token-row">
              <td translate="no">{token.name}</td>
              <td>{intl.formatDate(token.created_at, { dateStyle: 'medium', timeStyle: 'short' })}</td>
              <td>
                {token.last_used_at ? intl.formatDate(token.last_used_at, { dateStyle: 'medium', timeStyle: 'short' }) : '—'}
              </td>
              <td>
                {token.revoked_at ? (
                  t('tokens.revoked')
                ) : (
                  <button
                    className={forms.quiet}
                    type="button"
                    onClick={() => api.revokeToken(token.token_id).then(load).catch(fail)}
                  >
                    {t('tokens.revoke')}
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
