import type { Role } from '../../../api/types.js';
import { useT } from '../../../i18n/useT.js';

const ROLES: Role[] = ['viewer', 'editor', 'admin'];

/** A collection role, worded in the page's language. */
export function RoleSelect(props: { value: Role; onChange: (role: Role) => void; label?: string; id?: string }) {
  const t = useT();
  return (
    <select id={props.id} value={props.value} aria-label={props.label} onChange={(e) => props.onChange(e.target.value as Role)}>
      {ROLES.map((r) => (
        <option key={r} value={r}>
          {t(`role.${r}`)}
        </option>
      ))}
    </select>
  );
}
