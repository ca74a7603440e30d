import type { Role } from '../../../api/types.js';
import { useT } from '../../../i18n/useT.js';

const ROLES: Role[] = ['viewer', 'editor', 'admin'];

/** A collection role, worded in the page's language. */
export function RoleSelect({ value, onChange, label }: { value: Role; onChange: (role: Role) => void; label?: string }) {
  const t = useT();
  return (
    <select value={value} aria-label={label} onChange={(e) => onChange(e.target.value as Role)}>
      {ROLES.map((r) => (
        <option key={r} value={r}>
          {t(`role.${r}`)}
        </option>
      ))}
    </select>
  );
}
