import { describe, expect, it } from 'vitest';
import type { DocumentSummary } from '../../api/types.js';
import { answerKey } from './answerCache.js';

const doc = (id: string, latest: string | null): DocumentSummary => ({
  document: { document_id: id, collection_id: 'col_a', name: `${id}.md`, created_at: '2026-12-01T09:00:00Z' },
  versions: [],
  latest_ready_version_id: latest,
  identity: null,
});

describe('answerKey', () => {
  const before = [doc('doc_1', 'ver_1'), doc('doc_2', null)];
  const q = 'How long is the warranty?';

  it('is the same for the same question on the same corpus, in any listing order', () => {
    expect(answerKey(q, 'col_a', before)).toBe(answerKey(q, 'col_a', [...before].reverse()));
  });

  it('changes with the collection, with an upload that became ready, and with a new version', () => {
    const key = answerKey(q, 'col_a', before);
    expect(answerKey(q, 'col_b', before)).not.toBe(key);
    expect(answerKey(q, 'col_a', [doc('doc_1', 'ver_1'), doc('doc_2', 'ver_2')])).not.toBe(key);
    expect(answerKey(q, 'col_a', [doc('doc_1', 'ver_3'), doc('doc_2', null)])).not.toBe(key);
    expect(answerKey(`${q}?`, 'col_a', before)).not.toBe(key);
  });
});
