import { type FormEvent, useCallback, useEffect, useId, useState } from 'react';
import { api } from '../../../api/client.js';
import type { Invitation, Membership, ReadableCollection, Role } from '../../../api/types.js';
import { FormError } from '../../../app/FormError/FormError.js';
import forms from '../../../app/forms.module.css';
import { useErrorText, useT } from '../../../i18n/useT.js';
import { InviteDialog } from '../InviteDialog/InviteDialog.js';
import { PendingInvitations } from '../PendingInvitations/PendingInvitations.js';
import { RoleSelect } from '../RoleSelect/RoleSelect.js';

/** Members of one collection, for its admins: invite by email (a one-time link), add an existing user, change roles, remove. */
export function MembersView({ collection }: { collection: ReadableCollection | null }) {
  const [members, setMembers] = useState<Membership[]>([]);
  const [invitations, setInvitations] = useState<Invitation[]>([]);
  const [inviting, setInviting] = useState(false);
  const [email, setEmail] = useState('');
  const [role, setRole] = useState<Role>('viewer');
  const roleField = useId();
  const [error, setError] = useState<string | null>(null);
  const id = collection?.collection_id;
  const t = useT();
  const errorText = useErrorText();
  const fail = (e: unknown) => setError(errorText(e));
  const load = useCallback(() => {
    if (!id) return;
    api
      .members(id)
      .then((r) => setMembers(r.members))
      .catch(fail);
    api
      .invitations(id)
      .then((r) => setInvitations(r.invitations))
      .catch(fail);
  }, [id]);
  useEffect(load, [load]);
  if (!collection || !id) return <p className={forms.note}>{t('app.noCollection')}</p>;
  const add = async (e: FormEvent) => {
    e.preventDefault();
    setError(null);
    try {
      const { users } = await api.findUser(email);
      const user = users[0];
      if (!user) throw new Error(t('members.noUser', { email }));
      await api.setMember(id, user.user_id, role);
      setEmail('');
      load();
    } catch (err) {
      fail(err);
    }
  };
  return (
    <section className={forms.panel} aria-labelledby="members-heading">
      <h1 id="members-heading">{t('members.title', { collection: collection.name })}</h1>
      <p className={forms.note}>{t('members.note')}</p>
      <p>
        <button className={forms.button} type="button" onClick={() => setInviting(true)}>
          {t('members.invite')}
        </button>
      </p>
      {inviting && (
        <InviteDialog collectionId={id} collectionName={collection.name} onClose={() => setInviting(false)} onInvited={load} />
      )}
      <form className={forms.row} onSubmit={add}>
        <label>
          {t('members.email')}
          <input type="email" required value={email} onChange={(e) => setEmail(e.target.value)} />
        </label>
        <label htmlFor={roleField}>
          {t('members.role')}
          <RoleSelect id={roleField} value={role} onChange={setRole} />
        </label>
        <button className={forms.button} type="submit">
          {t('members.add')}
        </button>
      </form>
      <FormError error={error} />
      <table className={forms.table}>
        <tbody>
          {members.map((m) => (
            <tr key={m.user_id} data-testid="member-row">
              <td translate="no">{m.email}</td>
              <td>
                <RoleSelect
                  label={t('members.roleOf', { email: m.email })}
                  value={m.role}
                  onChange={(next) => api.setMember(id, m.user_id, next).then(load).catch(fail)}
                />
              </td>
              <td>
                <button
                  className={forms.quiet}
                  type="button"
                  onClick={() => api.removeMember(id, m.user_id).then(load).catch(fail)}
                >
                  {t('members.remove')}
                </button>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      <PendingInvitations collectionId={id} invitations={invitations} onChange={load} onError={fail} />
    </section>
  );
}
