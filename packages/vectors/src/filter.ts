import type { SearchFilter } from '@pinpoint/core';

export interface VectorMeta {
  chunk_id: string;
  version_id: string;
  document_id: string;
  collection_id: string;
  page_index?: number;
}

/** A predicate for the port's filter: AND across fields, OR within each list; an empty list matches nothing. */
export function matchesFilter(filter: SearchFilter | undefined): (meta: VectorMeta) => boolean {
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
