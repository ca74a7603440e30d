import { en, type MessageId } from './messages/en.js';

/** The catalogue message that says what went wrong: one per `PP_*` code, and the client's own failures. */
export function errorMessage(error: unknown): { id: MessageId; values?: Record<string, string | number> } | null {
  const code = typeof error === 'object' && error !== null && 'code' in error ? String(error.code) : '';
  const id = `error.${code}`;
  if (code && id in en) return { id: id as MessageId };
  if (code === 'NETWORK') return { id: 'error.network' };
  const status = /^HTTP_(\d+)$/.exec(code)?.[1];
  if (status) return { id: 'error.http', values: { status } };
  return null;
}
