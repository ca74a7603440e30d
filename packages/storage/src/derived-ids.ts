/**
 * The ids every parser and the chunker give by default: an element is `e` and its position in six
 * digits, a chunk its version id, `:c` and its ordinal in six digits. The content rows store neither
 * when an id has this form (metadata-content.ts, chunk-meta.ts).
 */
export const pad6 = (n: number): string => String(n).padStart(6, '0');

export const derivedElementId = (position: number): string => `e${pad6(position)}`;

/** The position an element id of the derived form names; null for any other id. */
export function parseElementId(elementId: string): number | null {
  const m = /^e(\d{6,})$/.exec(elementId);
  if (!m) return null;
  const position = Number(m[1]);
  return pad6(position) === m[1] ? position : null;
}
