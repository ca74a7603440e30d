import type { MetadataStore, QuestionScope } from '@pinpoint/core';
import { identityCatalog } from './identity-catalog.js';
import { PERIOD_READER } from './identity-periods.js';
import type { QueryOptions } from './query-options.js';
import { readableScope } from './query-options.js';
import { scopeQuestion } from './question-scope.js';

/** The versions of the readable collections a question may search (the newest ready one of each document). */
async function readableVersions(metadata: MetadataStore, options: QueryOptions): Promise<string[]> {
  const scope = readableScope(options);
  if (!scope) return metadata.latestReadyVersionIds();
  return (await Promise.all(scope.map((c) => metadata.latestReadyVersionIds(c)))).flat();
}

export interface ScopedAsk {
  options: QueryOptions;
  scope?: QuestionScope;
}

/**
 * The question's scope and the query options that search it: documents the caller picked, or the
 * documents the question names. The candidates are the caller's readable versions only, and the
 * search filter keeps its collections, so a scope never reaches further than the caller may read.
 */
export async function scopeAsk(metadata: MetadataStore, question: string, options: QueryOptions): Promise<ScopedAsk> {
  if (options.filters?.version_ids?.length) return { options };
  const picked = options.filters?.document_ids;
  if (!picked?.length && options.scope === false) return { options };
  const candidates = await identityCatalog(metadata).candidates(await readableVersions(metadata, options));
  if (picked?.length) {
    const documents = candidates
      .filter((c) => picked.includes(c.document_id))
      .map((c) => ({ document_id: c.document_id, version_id: c.version_id, file: c.file, named_by: [] }));
    const summary = `Searched ${documents.map((d) => d.file).join(', ')} — chosen by you`;
    return { options, scope: { by: 'user', documents, summary } };
  }
  const scope = scopeQuestion(question, candidates, PERIOD_READER);
  if (!scope) return { options };
  const filters = { ...options.filters, version_ids: scope.documents.map((d) => d.version_id) };
  return { options: { ...options, filters }, scope };
}

/** The question's words a scope by the question holds (names and periods): the gate does not count them missing. */
export function satisfiedWords(scope: QuestionScope | undefined): string[] {
  if (scope?.by !== 'question') return [];
  return [...new Set(scope.documents.flatMap((d) => d.named_by))];
}
