import type { Collection } from '../../api/types.js';

/**
 * The collection the page works on: the one the user picked last, while it exists; otherwise the
 * oldest (the server creates its default collection at first start).
 */
export function chooseCollection<C extends Collection>(collections: readonly C[], remembered: string | null): C | null {
  const picked = collections.find((c) => c.collection_id === remembered);
  if (picked) return picked;
  return [...collections].sort((a, b) => a.created_at.localeCompare(b.created_at))[0] ?? null;
}
