import { useIntl } from 'react-intl';
import { api } from '../../../api/client.js';
import type { Invitation } from '../../../api/types.js';
import forms from '../../../app/forms.module.css';
import { useT } from '../../../i18n/useT.js';

interface Props {
  collectionId: string;
  invitations: Invitation[];
  onChange: () => void;
  onError: (error: unknown) => void;
}

/** The collection's invitations not yet accepted, expired or revoked: who, as what, until when; revoke. */
export function PendingInvitations({ collectionId, invitations, onChange, onError }: Props) {
  const t = useT();
  const intl = useIntl();
  return (
    <section aria-labelledby="pending-heading">
      <h2 id="pending-heading">{t('invite.pending')}</h2>
      {invitations.length === 0 ? (
        <p className={forms.note}>{t('invite.none')}</p>
      ) : (
        <table className={forms.table}>
          <thead>
            <tr>
              <th>{t('invite.email')}</th>
              <th>{t('invite.role')}</th>
              <th>{t('invite.invitedBy')}</th>
              <th>{t('invite.expires')}</th>
              <th />
            </tr>
          </thead>
          <tbody>
            {invitations.map((i) => (
              <tr key={i.invitation_id} data-testid="invitation-row">
                <td translate="no">{i.email}</td>
                <td>{t(`role.${i.role}`)}</td>
                <td translate={i.invited_by_email ? 'no' : undefined}>{i.invited_by_email ?? t('invite.byServer')}</td>
                <td>{intl.formatDate(i.expires_at, { dateStyle: 'medium', timeStyle: 'short' })}</td>
                <td>
                  <button
                    className={forms.quiet}
                    type="button"
                    onClick={() => api.revokeInvitation(collectionId, i.invitation_id).then(onChange).catch(onError)}
                  >
                    {t('invite.revoke')}
                  </button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}
