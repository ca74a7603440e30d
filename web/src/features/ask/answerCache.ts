import type { DocumentSummary } from '../../api/types.js';

/**
 * What an answer depends on besides its question: the collection, and the versions a question
 * there searches (each document's newest ready one). An upload, a re-process or a cancel changes it.
 */
export function answerKey(question: string, collectionId: string | undefined, documents: readonly DocumentSummary[]): string {
  const searched = documents
    .map((d) => d.latest_ready_version_id)
    .filter((id): id is string => id !== null)
    .sort();
  return JSON.stringify([collectionId ?? null, searched, question]);
}
