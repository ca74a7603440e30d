import type { SearchFilter } from '@pinpoint/core';

export interface VectorMeta {
  chunk_id: string;
  version_id: string;
  document_id: string;
  collection_id: string;
  page_index?: number;
}

/** A predicate for the port's filter: AND across fields, OR within each list; an empty list matches nothing. */
export function matchesFilter(filter: SearchFilter | undefined): (meta: Omit<VectorMeta, 'chunk_id'>) => boolean {
  if (!filter) return () => true;
  const sets = {
    collection: filter.collectionIds && new Set(filter.collectionIds),
    document: filter.documentIds && new Set(filter.documentIds),
    version: filter.versionIds && new Set(filter.versionIds),
    page: filter.pageIndexes && new Set(filter.pageIndexes),
  };
  return (m) =>
    (!sets.collection || sets.collection.has(m.collection_id)) &&
    (!sets.document || sets.document.has(m.document_id)) &&
    (!sets.version || sets.version.has(m.version_id)) &&
    (!sets.page || (m.page_index !== undefined && sets.page.has(m.page_index)));
}

function sameList<T>(a: readonly T[] | undefined, b: readonly T[] | undefined): boolean {
  if (a === b) return true;
  if (!a || !b || a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/** Whether two filters name the same lists in the same order (a question's filter repeats between questions). */
export function sameFilter(a: SearchFilter | undefined, b: SearchFilter | undefined): boolean {
  if (a === b) return true;
  if (!a || !b) return false;
  return (
    sameList(a.versionIds, b.versionIds) &&
    sameList(a.collectionIds, b.collectionIds) &&
    sameList(a.documentIds, b.documentIds) &&
    sameList(a.pageIndexes, b.pageIndexes)
  );
}

/** A filter of its own lists: one kept to compare later questions' with must not change with the caller's. */
export function copyFilter(f: SearchFilter): SearchFilter {
  return {
    ...(f.versionIds ? { versionIds: [...f.versionIds] } : {}),
    ...(f.collectionIds ? { collectionIds: [...f.collectionIds] } : {}),
    ...(f.documentIds ? { documentIds: [...f.documentIds] } : {}),
    ...(f.pageIndexes ? { pageIndexes: [...f.pageIndexes] } : {}),
  };
}
