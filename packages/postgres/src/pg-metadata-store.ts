import type {
  Artifact,
  Chunk,
  Collection,
  Element,
  IdentityCorrection,
  MetadataStore,
  NewVersion,
  PinDocument,
  Version,
  VersionPatch,
  VersionState,
} from '@pinpoint/core';
import { createError, newId } from '@pinpoint/core';
import type pg from 'pg';
import { inTransaction, openMigratedPool } from './migrate.js';
import type { ArtifactRow, CollectionRow, DocumentRow, VersionRow } from './rows.js';
import { patchAssignments, toArtifact, toCollection, toDocument, toVersion } from './rows.js';

export interface PgMetadataStoreOptions {
  connectionString: string;
  /** Every table lives in this schema (tests use a unique one each). */
  schema?: string;
  poolSize?: number;
}

/** MetadataStore on PostgreSQL: migrated on open, one schema per deployment. */
export class PgMetadataStore implements MetadataStore {
  private constructor(private readonly pool: pg.Pool) {}

  static async open(options: PgMetadataStoreOptions): Promise<PgMetadataStore> {
    return new PgMetadataStore(await openMigratedPool(options, 5));
  }

  async createCollection(name: string): Promise<Collection> {
    const { rows } = await this.pool.query<CollectionRow>('INSERT INTO collections VALUES ($1, $2, $3) RETURNING *', [
      newId('col'),
      name,
      new Date(),
    ]);
    return toCollection(one(rows));
  }

  async getCollection(collectionId: string): Promise<Collection | null> {
    const { rows } = await this.pool.query<CollectionRow>('SELECT * FROM collections WHERE collection_id = $1', [collectionId]);
    return rows[0] ? toCollection(rows[0]) : null;
  }

  async listCollections(): Promise<Collection[]> {
    const { rows } = await this.pool.query<CollectionRow>('SELECT * FROM collections ORDER BY created_at, collection_id');
    return rows.map(toCollection);
  }

  async findOrCreateDocument(collectionId: string, name: string): Promise<PinDocument> {
    const inserted = await this.pool.query<DocumentRow>(
      'INSERT INTO documents VALUES ($1, $2, $3, $4) ON CONFLICT (collection_id, name) DO NOTHING RETURNING *',
      [newId('doc'), collectionId, name, new Date()],
    );
    if (inserted.rows[0]) return toDocument(inserted.rows[0]);
    const { rows } = await this.pool.query<DocumentRow>('SELECT * FROM documents WHERE collection_id = $1 AND name = $2', [
      collectionId,
      name,
    ]);
    return toDocument(one(rows));
  }

  async getDocument(documentId: string): Promise<PinDocument | null> {
    const { rows } = await this.pool.query<DocumentRow>('SELECT * FROM documents WHERE document_id = $1', [documentId]);
    return rows[0] ? toDocument(rows[0]) : null;
  }

  async listDocuments(collectionId?: string): Promise<PinDocument[]> {
    const { rows } = await this.pool.query<DocumentRow>(
      'SELECT * FROM documents WHERE $1::text IS NULL OR collection_id = $1 ORDER BY created_at, document_id',
      [collectionId ?? null],
    );
    return rows.map(toDocument);
  }

  async setIdentityCorrection(documentId: string, correction: IdentityCorrection | null): Promise<PinDocument> {
    const { rows } = await this.pool.query<DocumentRow>(
      'UPDATE documents SET identity_correction = $2::jsonb WHERE document_id = $1 RETURNING *',
      [documentId, correction ? JSON.stringify(correction) : null],
    );
    if (!rows[0]) throw createError('PP_NOT_FOUND', `Document ${documentId} does not exist.`);
    return toDocument(rows[0]);
  }

  async createVersion(input: NewVersion): Promise<{ version: Version; created: boolean }> {
    return this.transaction(async (client) => {
      const doc = await client.query('SELECT 1 FROM documents WHERE document_id = $1 FOR UPDATE', [input.document_id]);
      if (doc.rowCount === 0) throw createError('PP_NOT_FOUND', `Document ${input.document_id} does not exist.`);
      if (input.reprocess_of === undefined) {
        const existing = await client.query<VersionRow>(
          'SELECT * FROM versions WHERE document_id = $1 AND source_sha256 = $2 ORDER BY number DESC LIMIT 1',
          [input.document_id, input.source_sha256],
        );
        if (existing.rows[0]) return { version: toVersion(existing.rows[0]), created: false };
      }
      const now = new Date();
      const { rows } = await client.query<VersionRow>(
        `INSERT INTO versions (version_id, document_id, collection_id, number, source_sha256, original_name, declared_mime, size, recipe, state, created_at, updated_at)
         SELECT $1, $2, $3, COALESCE(MAX(number), 0) + 1, $4, $5, $6, $7, $8::jsonb, 'queued', $9, $9 FROM versions WHERE document_id = $2
         RETURNING *`,
        [
          newId('ver'),
          input.document_id,
          input.collection_id,
          input.source_sha256,
          input.original_name,
          input.declared_mime,
          input.size,
          JSON.stringify(input.recipe),
          now,
        ],
      );
      return { version: toVersion(one(rows)), created: true };
    });
  }

  async getVersion(versionId: string): Promise<Version | null> {
    const { rows } = await this.pool.query<VersionRow>('SELECT * FROM versions WHERE version_id = $1', [versionId]);
    return rows[0] ? toVersion(rows[0]) : null;
  }

  async listVersions(filter: { documentId?: string; collectionId?: string; state?: VersionState } = {}): Promise<Version[]> {
    const { rows } = await this.pool.query<VersionRow>(
      `SELECT * FROM versions WHERE ($1::text IS NULL OR document_id = $1) AND ($2::text IS NULL OR collection_id = $2)
       AND ($3::text IS NULL OR state = $3) ORDER BY created_at, document_id, number`,
      [filter.documentId ?? null, filter.collectionId ?? null, filter.state ?? null],
    );
    return rows.map(toVersion);
  }

  async updateVersion(versionId: string, patch: VersionPatch): Promise<Version> {
    const { sql, values } = patchAssignments(patch);
    const { rows } = await this.pool.query<VersionRow>(`UPDATE versions SET ${sql} WHERE version_id = $1 RETURNING *`, [
      versionId,
      ...values,
    ]);
    if (!rows[0]) throw createError('PP_NOT_FOUND', `Version ${versionId} does not exist.`);
    return toVersion(rows[0]);
  }

  async latestReadyVersionIds(collectionId?: string): Promise<string[]> {
    const { rows } = await this.pool.query<{ version_id: string }>(
      `SELECT DISTINCT ON (document_id) version_id FROM versions WHERE state = 'ready' AND ($1::text IS NULL OR collection_id = $1)
       ORDER BY document_id, number DESC`,
      [collectionId ?? null],
    );
    return rows.map((r) => r.version_id);
  }

  async putArtifact(a: Artifact): Promise<void> {
    await this.pool.query(
      `INSERT INTO artifacts VALUES ($1, $2, $3, $4, $5, $6, $7) ON CONFLICT (version_id, kind, name)
       DO UPDATE SET sha256 = EXCLUDED.sha256, size = EXCLUDED.size, mime = EXCLUDED.mime, blob_key = EXCLUDED.blob_key`,
      [a.version_id, a.kind, a.name, a.sha256, a.size, a.mime, a.blob_key],
    );
  }

  async listArtifacts(versionId: string): Promise<Artifact[]> {
    const { rows } = await this.pool.query<ArtifactRow>('SELECT * FROM artifacts WHERE version_id = $1 ORDER BY kind, name', [
      versionId,
    ]);
    return rows.map(toArtifact);
  }

  async getArtifact(versionId: string, kind: Artifact['kind'], name?: string): Promise<Artifact | null> {
    const { rows } = await this.pool.query<ArtifactRow>(
      'SELECT * FROM artifacts WHERE version_id = $1 AND kind = $2 AND ($3::text IS NULL OR name = $3) ORDER BY name LIMIT 1',
      [versionId, kind, name ?? null],
    );
    return rows[0] ? toArtifact(rows[0]) : null;
  }

  async replaceVersionContent(versionId: string, elements: Element[], chunks: Chunk[]): Promise<void> {
    await this.transaction(async (client) => {
      await client.query('SELECT pg_advisory_xact_lock(hashtext($1))', [versionId]);
      await client.query('DELETE FROM elements WHERE version_id = $1', [versionId]);
      await client.query('DELETE FROM chunks WHERE version_id = $1', [versionId]);
      await client.query(
        `INSERT INTO elements (version_id, element_id, ordinal, body)
         SELECT $1, x.value->>'element_id', x.ordinality - 1, x.value FROM json_array_elements($2::json) WITH ORDINALITY AS x(value, ordinality)`,
        [versionId, JSON.stringify(elements)],
      );
      await client.query(
        `INSERT INTO chunks (chunk_id, version_id, ordinal, body)
         SELECT x->>'chunk_id', $1, (x->>'ordinal')::int, x FROM json_array_elements($2::json) AS x`,
        [versionId, JSON.stringify(chunks)],
      );
    });
  }

  async deleteVersionContent(versionId: string): Promise<void> {
    await this.transaction(async (client) => {
      await client.query('DELETE FROM elements WHERE version_id = $1', [versionId]);
      await client.query('DELETE FROM chunks WHERE version_id = $1', [versionId]);
    });
  }

  async deleteDocument(documentId: string): Promise<{ version_ids: string[]; orphan_blob_keys: string[] } | null> {
    return this.transaction(async (client) => {
      const doc = await client.query('SELECT 1 FROM documents WHERE document_id = $1 FOR UPDATE', [documentId]);
      if (!doc.rowCount) return null;
      const versions = await client.query<{ version_id: string }>(
        'SELECT version_id FROM versions WHERE document_id = $1 ORDER BY number',
        [documentId],
      );
      const ids = versions.rows.map((r) => r.version_id);
      const keys = await client.query<{ blob_key: string }>(
        'SELECT DISTINCT blob_key FROM artifacts WHERE version_id = ANY($1)',
        [ids],
      );
      await client.query('DELETE FROM elements WHERE version_id = ANY($1)', [ids]);
      await client.query('DELETE FROM chunks WHERE version_id = ANY($1)', [ids]);
      // versions and artifacts go with the document (ON DELETE CASCADE)
      await client.query('DELETE FROM documents WHERE document_id = $1', [documentId]);
      const stillUsed = await client.query<{ blob_key: string }>(
        'SELECT DISTINCT blob_key FROM artifacts WHERE blob_key = ANY($1)',
        [keys.rows.map((r) => r.blob_key)],
      );
      const used = new Set(stillUsed.rows.map((r) => r.blob_key));
      const orphans = keys.rows.map((r) => r.blob_key).filter((k) => !used.has(k));
      return { version_ids: ids, orphan_blob_keys: orphans.sort() };
    });
  }

  async getElements(versionId: string, elementIds?: string[]): Promise<Element[]> {
    const { rows } = await this.pool.query<{ body: Element }>(
      'SELECT body FROM elements WHERE version_id = $1 AND ($2::text[] IS NULL OR element_id = ANY($2)) ORDER BY ordinal',
      [versionId, elementIds ?? null],
    );
    return rows.map((r) => r.body);
  }

  async getChunks(chunkIds: string[]): Promise<Chunk[]> {
    const { rows } = await this.pool.query<{ body: Chunk }>(
      'SELECT c.body FROM chunks c JOIN unnest($1::text[]) WITH ORDINALITY AS ids(id, n) ON c.chunk_id = ids.id ORDER BY ids.n',
      [chunkIds],
    );
    return rows.map((r) => r.body);
  }

  async listChunks(versionId: string): Promise<Chunk[]> {
    const { rows } = await this.pool.query<{ body: Chunk }>('SELECT body FROM chunks WHERE version_id = $1 ORDER BY ordinal', [
      versionId,
    ]);
    return rows.map((r) => r.body);
  }

  async close(): Promise<void> {
    await this.pool.end();
  }

  private transaction<T>(fn: (client: pg.PoolClient) => Promise<T>): Promise<T> {
    return inTransaction(this.pool, fn);
  }
}

function one<T>(rows: T[]): T {
  const row = rows[0];
  if (!row) throw createError('PP_INTERNAL', 'PostgreSQL returned no row where one was expected.');
  return row;
}
