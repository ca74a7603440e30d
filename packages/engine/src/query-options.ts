export interface QueryFilters {
  document_ids?: string[];
  version_ids?: string[];
  page_indexes?: number[];
}

export interface QueryOptions {
  collectionId?: string;
  /**
   * The collections the caller may read (set by the access layer): the index queries themselves
   * are filtered by them, so nothing outside counts towards top-k, scores or timings.
   */
  collectionIds?: string[];
  filters?: QueryFilters;
  k?: number;
  /**
   * Ask: narrow the search to the documents the question names (default true). false asks the
   * whole collection (the user removed the scope).
   */
  scope?: boolean;
}

/** The collections a query may see: the named one within the readable ones, or all readable ones. */
export function readableScope(options: QueryOptions): string[] | undefined {
  const { collectionId, collectionIds } = options;
  if (collectionIds) return collectionId === undefined ? collectionIds : collectionIds.filter((c) => c === collectionId);
  return collectionId === undefined ? undefined : [collectionId];
}
