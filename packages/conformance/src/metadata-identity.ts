import type { DocumentIdentity, MetadataStore } from '@pinpoint/core';
import { expect, it } from 'vitest';
import type { PortTest } from './fixture.js';
import { newVersionInput } from './fixture.js';

const READ: DocumentIdentity = {
  names: [
    { value: '3M', source: 'file_name' },
    { value: '3M COMPANY', source: 'cover_page' },
  ],
  kind: { value: '10-K', source: 'cover_page' },
  period: { fiscal_year: 2018, end_date: '2018-12-31', source: 'cover_page' },
};

/** Document identity (DESIGN.md §3): kept with the version, an editor's correction kept with the document. */
export function describeIdentity(use: PortTest<MetadataStore>): void {
  it(
    'keeps the identity read at ingest with the version, and leaves other fields as they were',
    use(async (store) => {
      const c = await store.createCollection('Reports');
      const d = await store.findOrCreateDocument(c.collection_id, '3M_2018_10K.pdf');
      const { version } = await store.createVersion(newVersionInput(d.document_id, c.collection_id, 'filing'));
      expect(version.identity).toBeUndefined();
      const updated = await store.updateVersion(version.version_id, { identity: READ });
      expect(updated.identity).toEqual(READ);
      expect(updated.recipe).toEqual(version.recipe);
      const later = await store.updateVersion(version.version_id, { state: 'ready' });
      expect(later.identity).toEqual(READ);
      expect((await store.getVersion(version.version_id))?.identity).toEqual(READ);
      expect((await store.listVersions({ documentId: d.document_id }))[0]?.identity).toEqual(READ);
    }),
  );

  it(
    "keeps an editor's correction with the document until it is removed; an unknown document is PP_NOT_FOUND",
    use(async (store) => {
      const c = await store.createCollection('Corrections');
      const d = await store.findOrCreateDocument(c.collection_id, 'annual.pdf');
      expect(d.identity_correction ?? null).toBeNull();
      const correction = { names: ['Toyota Motor Corporation'], period: { fiscal_year: 2023, end_date: '2024-03-31' } };
      const corrected = await store.setIdentityCorrection(d.document_id, correction);
      expect(corrected.identity_correction).toEqual(correction);
      expect((await store.getDocument(d.document_id))?.identity_correction).toEqual(correction);
      expect((await store.listDocuments(c.collection_id))[0]?.identity_correction).toEqual(correction);
      // a new version of the same document sees the same document row, correction included
      await store.createVersion(newVersionInput(d.document_id, c.collection_id, 'v2'));
      expect((await store.findOrCreateDocument(c.collection_id, 'annual.pdf')).identity_correction).toEqual(correction);
      const cleared = await store.setIdentityCorrection(d.document_id, null);
      expect(cleared.identity_correction ?? null).toBeNull();
      await expect(store.setIdentityCorrection('doc_missing', correction)).rejects.toMatchObject({ code: 'PP_NOT_FOUND' });
    }),
  );
}
