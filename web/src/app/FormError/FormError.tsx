import forms from '../forms.module.css';

/** A form's error message, announced to screen readers; nothing when there is none. */
export function FormError({ error }: { error: string | null }) {
  if (!error) return null;
  return (
    <p className={forms.error} role="alert">
      {error}
    </p>
  );
}
