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
import { chunkSchema, elementSchema, newId } from '@pinpoint/core';
import type { ChunkMetaColumns } from './chunk-meta.js';
import { ChunkMetaReader } from './chunk-meta.js';
import type { SqliteDatabase } from './database.js';
import { migrate, openDatabase } from './database.js';
import { derivedElementId, parseElementId } from './derived-ids.js';
import { ElementMetaReader } from './element-meta.js';
import type { StoredText } from './element-text.js';
import { decodeElementText } from './element-text.js';
import type { ChunkRow, CodepointText, ElementRow, VersionIds } from './metadata-content.js';
import {
  chunkTextSources,
  codepointText,
  decodeChunk,
  decodeElement,
  findDerivedChunk,
  insertContent,
  ROW_KEY_BITS,
  rowKey,
  versionIds,
  versionRange,
} from './metadata-content.js';
import type { VersionRow } from './metadata-rows.js';
import { artifactFromRow, collectionFromRow, documentFromRow, notFound, versionFromRow, versionToRow } from './metadata-rows.js';
import { metadataMigrations } from './metadata-schema.js';

const now = (): string => new Date().toISOString();

/** A version's element texts as chunks cite them: fetched around the elements a chunk names, then read one by one. */
interface ElementTexts {
  prefetch: (ids: string[]) => void;
  get: (elementId: string) => CodepointText | undefined;
}

/** The MetadataStore port on one SQLite file (better-sqlite3, WAL). */
export class SqliteMetadataStore implements MetadataStore {
  readonly #db: SqliteDatabase;

  constructor(path: string) {
    this.#db = openDatabase(path);
    migrate(this.#db, 'metadata', metadataMigrations);
  }

  async createCollection(name: string): Promise<Collection> {
    const c: Collection = { collection_id: newId('col'), name, created_at: now() };
    this.#db
      .prepare('INSERT INTO collections (collection_id, name, created_at) VALUES (?, ?, ?)')
      .run(c.collection_id, name, c.created_at);
    return c;
  }

  async getCollection(collectionId: string): Promise<Collection | null> {
    const row = this.#db.prepare('SELECT * FROM collections WHERE collection_id = ?').get(collectionId);
    return row ? collectionFromRow(row) : null;
  }

  async listCollections(): Promise<Collection[]> {
    return this.#db.prepare('SELECT * FROM collections ORDER BY created_at, collection_id').all().map(collectionFromRow);
  }

  async findOrCreateDocument(collectionId: string, name: string): Promise<PinDocument> {
    return this.#db
      .transaction(() => {
        const found = this.#db.prepare('SELECT * FROM documents WHERE collection_id = ? AND name = ?').get(collectionId, name);
        if (found) return documentFromRow(found);
        if (!this.#db.prepare('SELECT 1 FROM collections WHERE collection_id = ?').get(collectionId))
          notFound('Collection', collectionId);
        const d: PinDocument = { document_id: newId('doc'), collection_id: collectionId, name, created_at: now() };
        this.#db
          .prepare('INSERT INTO documents (document_id, collection_id, name, created_at) VALUES (?, ?, ?, ?)')
          .run(d.document_id, collectionId, name, d.created_at);
        return d;
      })
      .immediate();
  }

  async getDocument(documentId: string): Promise<PinDocument | null> {
    const row = this.#db.prepare('SELECT * FROM documents WHERE document_id = ?').get(documentId);
    return row ? documentFromRow(row) : null;
  }

  async listDocuments(collectionId?: string): Promise<PinDocument[]> {
    // One SQL text per filter shape: `(? IS NULL OR col = ?)` would keep SQLite from using an index, a scan per call.
    if (collectionId === undefined)
      return this.#db.prepare('SELECT * FROM documents ORDER BY created_at, document_id').all().map(documentFromRow);
    return this.#db
      .prepare('SELECT * FROM documents WHERE collection_id = ? ORDER BY created_at, document_id')
      .all(collectionId)
      .map(documentFromRow);
  }

  async setIdentityCorrection(documentId: string, correction: IdentityCorrection | null): Promise<PinDocument> {
    const json = correction ? JSON.stringify(correction) : null;
    const r = this.#db.prepare('UPDATE documents SET identity_correction = ? WHERE document_id = ?').run(json, documentId);
    if (r.changes === 0) notFound('Document', documentId);
    return (await this.getDocument(documentId)) as PinDocument;
  }

  async createVersion(input: NewVersion): Promise<{ version: Version; created: boolean }> {
    return this.#db
      .transaction(() => {
        if (input.reprocess_of === undefined) {
          const same = this.#db
            .prepare('SELECT * FROM versions WHERE document_id = ? AND source_sha256 = ? ORDER BY number DESC LIMIT 1')
            .get(input.document_id, input.source_sha256) as VersionRow | undefined;
          if (same) return { version: versionFromRow(same), created: false };
        }
        const max = this.#db.prepare('SELECT MAX(number) AS n FROM versions WHERE document_id = ?').get(input.document_id) as {
          n: number | null;
        };
        const t = now();
        const version: Version = {
          version_id: newId('ver'),
          document_id: input.document_id,
          collection_id: input.collection_id,
          number: (max.n ?? 0) + 1,
          source_sha256: input.source_sha256,
          original_name: input.original_name,
          declared_mime: input.declared_mime,
          sniffed_mime: null,
          format: null,
          size: input.size,
          recipe: input.recipe,
          state: 'queued',
          error_code: null,
          error_message: null,
          diagnostics: [],
          stats: {},
          created_at: t,
          updated_at: t,
        };
        this.#insertVersion(version);
        return { version, created: true };
      })
      .immediate();
  }

  #insertVersion(version: Version): void {
    const row = versionToRow(version);
    const cols = Object.keys(row);
    // seq: the version's place in creation order, the key of its content rows (metadata-content.ts).
    this.#db
      .prepare(
        `INSERT INTO versions (${cols.join(', ')}, seq)
         VALUES (${cols.map((c) => `@${c}`).join(', ')}, (SELECT IFNULL(MAX(seq), 0) + 1 FROM versions))`,
      )
      .run(row);
  }

  async getVersion(versionId: string): Promise<Version | null> {
    const row = this.#db.prepare('SELECT * FROM versions WHERE version_id = ?').get(versionId) as VersionRow | undefined;
    return row ? versionFromRow(row) : null;
  }

  async listVersions(filter: { documentId?: string; collectionId?: string; state?: VersionState } = {}): Promise<Version[]> {
    // Only the filters given go into the SQL (one text per shape, each compiled once): with
    // `(@d IS NULL OR document_id = @d)` SQLite scanned every version on every call — the ingestion job
    // lists its document's versions once per file, so that was a scan per file, quadratic in the store.
    const where = [
      ...(filter.documentId !== undefined ? ['document_id = @d'] : []),
      ...(filter.collectionId !== undefined ? ['collection_id = @c'] : []),
      ...(filter.state !== undefined ? ['state = @s'] : []),
    ];
    const sql = `SELECT * FROM versions${where.length > 0 ? ` WHERE ${where.join(' AND ')}` : ''} ORDER BY created_at, document_id, number`;
    const params = {
      ...(filter.documentId !== undefined ? { d: filter.documentId } : {}),
      ...(filter.collectionId !== undefined ? { c: filter.collectionId } : {}),
      ...(filter.state !== undefined ? { s: filter.state } : {}),
    };
    return (this.#db.prepare(sql).all(params) as VersionRow[]).map(versionFromRow);
  }

  async updateVersion(versionId: string, patch: VersionPatch): Promise<Version> {
    return this.#db
      .transaction(() => {
        const row = this.#db.prepare('SELECT * FROM versions WHERE version_id = ?').get(versionId) as VersionRow | undefined;
        if (!row) notFound('Version', versionId);
        const current = versionFromRow(row);
        const next: Version = { ...current, updated_at: now() };
        for (const [key, value] of Object.entries(patch)) {
          if (value !== undefined) Object.assign(next, { [key]: value });
        }
        const r = versionToRow(next);
        this.#db
          .prepare(
            `UPDATE versions SET state = @state, error_code = @error_code, error_message = @error_message, diagnostics = @diagnostics,
           stats = @stats, format = @format, sniffed_mime = @sniffed_mime, recipe = @recipe, identity = @identity,
           updated_at = @updated_at
           WHERE version_id = @version_id`,
          )
          .run(r);
        return versionFromRow(r);
      })
      .immediate();
  }

  /**
   * Every search asks for the newest ready version of each document (its filter), and answering
   * that scans every version: at a million chunks, tens of thousands of versions and hundreds of
   * milliseconds a query. The answer is kept until the database changes — a commit by another
   * connection moves `data_version`, a write of this one moves `total_changes()` — so searches
   * between writes reuse it, and any write makes the next search ask again.
   */
  readonly #latest = new Map<string, string[]>();
  #latestStamp = '';

  async latestReadyVersionIds(collectionId?: string): Promise<string[]> {
    const { changes, version } = this.#db
      .prepare('SELECT total_changes() AS changes, data_version AS version FROM pragma_data_version')
      .get() as { changes: number; version: number };
    const stamp = `${changes}:${version}`;
    if (stamp !== this.#latestStamp) {
      this.#latest.clear();
      this.#latestStamp = stamp;
    }
    const key = collectionId === undefined ? '' : `c:${collectionId}`;
    let ids = this.#latest.get(key);
    if (!ids) {
      ids = this.#readLatestReadyVersionIds(collectionId);
      this.#latest.set(key, ids);
    }
    return [...ids];
  }

  #readLatestReadyVersionIds(collectionId: string | undefined): string[] {
    const rows = this.#db
      .prepare(
        `SELECT v.version_id FROM versions v WHERE v.state = 'ready'${collectionId === undefined ? '' : ' AND v.collection_id = @c'}
         AND v.number = (SELECT MAX(w.number) FROM versions w WHERE w.document_id = v.document_id AND w.state = 'ready')
         ORDER BY v.created_at, v.version_id`,
      )
      .all(collectionId === undefined ? {} : { c: collectionId }) as { version_id: string }[];
    return rows.map((r) => r.version_id);
  }

  async putArtifact(artifact: Artifact): Promise<void> {
    this.#db
      .prepare(
        `INSERT INTO artifacts (version_id, kind, name, sha256, size, mime, blob_key) VALUES (@version_id, @kind, @name, @sha256, @size, @mime, @blob_key)
         ON CONFLICT (version_id, kind, name) DO UPDATE SET sha256 = excluded.sha256, size = excluded.size, mime = excluded.mime, blob_key = excluded.blob_key`,
      )
      .run(artifact);
  }

  async listArtifacts(versionId: string): Promise<Artifact[]> {
    return this.#db
      .prepare('SELECT * FROM artifacts WHERE version_id = ? ORDER BY kind, name')
      .all(versionId)
      .map(artifactFromRow);
  }

  async getArtifact(versionId: string, kind: Artifact['kind'], name?: string): Promise<Artifact | null> {
    const row = this.#db
      .prepare('SELECT * FROM artifacts WHERE version_id = ? AND kind = ? AND (? IS NULL OR name = ?) ORDER BY name LIMIT 1')
      .get(versionId, kind, name ?? null, name ?? null);
    return row ? artifactFromRow(row) : null;
  }

  #versionIds(versionId: string): VersionIds | null {
    return versionIds(this.#db, versionId);
  }

  /**
   * Content is validated once, here on write; reads trust it. Stored in the compact form of
   * metadata-content.ts: keys in creation order, nothing derivable written twice.
   */
  async replaceVersionContent(versionId: string, elements: Element[], chunks: Chunk[]): Promise<void> {
    const valid = { elements: elements.map((e) => elementSchema.parse(e)), chunks: chunks.map((c) => chunkSchema.parse(c)) };
    this.#db
      .transaction(() => {
        const v = this.#versionIds(versionId);
        if (!v) notFound('Version', versionId);
        this.#deleteContent(v.seq);
        insertContent(this.#db, v, valid.elements, valid.chunks);
      })
      .immediate();
  }

  #deleteContent(seq: number): void {
    const [first, end] = versionRange(seq);
    this.#db.prepare('DELETE FROM version_elements WHERE id >= ? AND id < ?').run(first, end);
    this.#db.prepare('DELETE FROM version_chunks WHERE id >= ? AND id < ?').run(first, end);
  }

  async deleteVersionContent(versionId: string): Promise<void> {
    this.#db
      .transaction(() => {
        const v = this.#versionIds(versionId);
        if (v) this.#deleteContent(v.seq);
      })
      .immediate();
  }

  async deleteDocument(documentId: string): Promise<{ version_ids: string[]; orphan_blob_keys: string[] } | null> {
    return this.#db
      .transaction(() => {
        if (!this.#db.prepare('SELECT 1 FROM documents WHERE document_id = ?').get(documentId)) return null;
        const versions = this.#db
          .prepare('SELECT version_id, seq FROM versions WHERE document_id = ? ORDER BY number')
          .all(documentId) as {
          version_id: string;
          seq: number;
        }[];
        const keys = new Set<string>();
        const blobKeys = this.#db.prepare('SELECT DISTINCT blob_key FROM artifacts WHERE version_id = ?');
        for (const v of versions) {
          for (const r of blobKeys.all(v.version_id) as { blob_key: string }[]) keys.add(r.blob_key);
          this.#deleteContent(v.seq);
          this.#db.prepare('DELETE FROM artifacts WHERE version_id = ?').run(v.version_id);
        }
        this.#db.prepare('DELETE FROM versions WHERE document_id = ?').run(documentId);
        this.#db.prepare('DELETE FROM documents WHERE document_id = ?').run(documentId);
        const used = this.#db.prepare('SELECT 1 FROM artifacts WHERE blob_key = ? LIMIT 1');
        return { version_ids: versions.map((v) => v.version_id), orphan_blob_keys: [...keys].filter((k) => !used.get(k)).sort() };
      })
      .immediate();
  }

  /** One element of a version by id: its derived-form key first, else the index of the ids kept whole. */
  #elementRow(seq: number, elementId: string): ElementRow | undefined {
    const position = parseElementId(elementId);
    if (position !== null && position < 2 ** ROW_KEY_BITS) {
      const row = this.#db
        .prepare('SELECT * FROM version_elements WHERE id = ? AND element_id IS NULL')
        .get(rowKey(seq, position));
      if (row) return row as ElementRow;
    }
    const [first, end] = versionRange(seq);
    return this.#db
      .prepare('SELECT * FROM version_elements WHERE element_id = ? AND id >= ? AND id < ?')
      .get(elementId, first, end) as ElementRow | undefined;
  }

  /**
   * One read transaction: an element may take its section path and sha256 from another element of
   * its version (element-meta.ts), and both must be read from the same content.
   */
  async getElements(versionId: string, elementIds?: string[]): Promise<Element[]> {
    return this.#db.transaction(() => this.#readElements(versionId, elementIds))();
  }

  #readElements(versionId: string, elementIds: string[] | undefined): Element[] {
    const v = this.#versionIds(versionId);
    if (!v) return [];
    const reader = this.#metaReader(v.seq);
    if (!elementIds) {
      const [first, end] = versionRange(v.seq);
      const rows = this.#db
        .prepare('SELECT * FROM version_elements WHERE id >= ? AND id < ? ORDER BY id')
        .all(first, end) as ElementRow[];
      return rows.map((r) => decodeElement(r, reader));
    }
    // Point lookups by key: a handful of ids per question.
    const rows = [...new Set(elementIds)].flatMap((id) => this.#elementRow(v.seq, id) ?? []);
    return rows.sort((a, b) => a.id - b.id).map((r) => decodeElement(r, reader));
  }

  /** Decodes a version's element rows; a value they share is read from the element that holds it, when not decoded already. */
  #metaReader(seq: number): ElementMetaReader {
    const [first] = versionRange(seq);
    return new ElementMetaReader((positions) => {
      const rows = this.#db
        .prepare(`SELECT id, meta FROM version_elements WHERE id IN (${positions.map(() => '?').join(', ')})`)
        .all(positions.map((p) => rowKey(seq, p))) as { id: number; meta: string }[];
      return new Map(rows.map((r) => [r.id - first, r.meta]));
    });
  }

  /** Element texts of one version, read once each, for the chunks whose text their ranges give. */
  /**
   * Element texts of one version for the chunks whose text their ranges give, read once each: the
   * elements a chunk cites are neighbours, so one range read fetches them (a point read for ids kept whole).
   */
  #elementTexts(seq: number): ElementTexts {
    const texts = new Map<string, StoredText | null>();
    const built = new Map<string, CodepointText>();
    const [first] = versionRange(seq);
    return {
      prefetch: (ids) => {
        const positions = ids.filter((id) => !texts.has(id)).flatMap((id) => parseElementId(id) ?? []);
        if (positions.length === 0) return;
        const lo = Math.min(...positions);
        const hi = Math.max(...positions);
        if (hi - lo > 64 || hi >= 2 ** ROW_KEY_BITS) return;
        const rows = this.#db
          .prepare('SELECT id, element_id, text FROM version_elements WHERE id >= ? AND id <= ?')
          .all(first + lo, first + hi) as Pick<ElementRow, 'id' | 'element_id' | 'text'>[];
        for (const r of rows) if (r.element_id === null) texts.set(derivedElementId(r.id - first), r.text);
      },
      get: (id) => {
        let text = texts.get(id);
        if (text === undefined) {
          text = this.#elementRow(seq, id)?.text ?? null;
          texts.set(id, text);
        }
        if (text === null) return undefined;
        let t = built.get(id);
        if (!t) {
          t = codepointText(decodeElementText(text));
          built.set(id, t);
        }
        return t;
      },
    };
  }

  /**
   * One read transaction: a chunk may take its chunk set, section path and retrieval prefix from
   * another chunk of its version (chunk-meta.ts), and both must be read from the same content.
   */
  async getChunks(chunkIds: string[]): Promise<Chunk[]> {
    return this.#db.transaction(() => this.#readChunks(chunkIds))();
  }

  #readChunks(chunkIds: string[]): Chunk[] {
    const versions = new Map<string, VersionIds | null>();
    const perVersion = new Map<number, { texts: ElementTexts; metas: ChunkMetaReader }>();
    return chunkIds.flatMap((id) => {
      const found = findDerivedChunk(this.#db, id, versions) ?? this.#findKeptChunk(id);
      if (!found) return [];
      let read = perVersion.get(found.v.seq);
      if (!read) {
        read = { texts: this.#elementTexts(found.v.seq), metas: this.#chunkMetaReader(found.v.seq) };
        perVersion.set(found.v.seq, read);
      }
      read.texts.prefetch(chunkTextSources(found.row));
      return [decodeChunk(found.v, found.row, read.texts.get, read.metas)];
    });
  }

  /** Decodes a version's chunk rows; a value they share is read from the chunk that holds it, when not decoded already. */
  #chunkMetaReader(seq: number): ChunkMetaReader {
    const [first] = versionRange(seq);
    return new ChunkMetaReader((ordinals) => {
      const rows = this.#db
        .prepare(`SELECT id, meta, retrieval_prefix FROM version_chunks WHERE id IN (${ordinals.map(() => '?').join(', ')})`)
        .all(ordinals.map((o) => rowKey(seq, o))) as (ChunkMetaColumns & { id: number })[];
      return new Map(rows.map((r) => [r.id - first, r]));
    });
  }

  #findKeptChunk(chunkId: string): { v: VersionIds; row: ChunkRow } | null {
    const row = this.#db.prepare('SELECT * FROM version_chunks WHERE chunk_id = ?').get(chunkId) as ChunkRow | undefined;
    if (!row) return null;
    const v = this.#db
      .prepare('SELECT seq, version_id, document_id, collection_id FROM versions WHERE seq = ?')
      .get(Math.floor(row.id / 2 ** ROW_KEY_BITS)) as VersionIds | undefined;
    return v ? { v, row } : null;
  }

  /** One read transaction, as getChunks. */
  async listChunks(versionId: string): Promise<Chunk[]> {
    return this.#db.transaction(() => this.#listChunks(versionId))();
  }

  #listChunks(versionId: string): Chunk[] {
    const v = this.#versionIds(versionId);
    if (!v) return [];
    const [first, end] = versionRange(v.seq);
    const rows = this.#db
      .prepare('SELECT * FROM version_chunks WHERE id >= ? AND id < ? ORDER BY id')
      .all(first, end) as ChunkRow[];
    const byOrdinal = new Map(rows.map((r) => [r.id - first, r]));
    const metas = new ChunkMetaReader(
      (ordinals) =>
        new Map(
          ordinals.flatMap((o) => {
            const r = byOrdinal.get(o);
            return r ? [[o, r]] : [];
          }),
        ),
    );
    let texts: Map<string, CodepointText> | null = null;
    const textOf = (id: string): CodepointText | undefined => {
      if (!texts) {
        const elements = this.#db
          .prepare('SELECT * FROM version_elements WHERE id >= ? AND id < ?')
          .all(first, end) as ElementRow[];
        texts = new Map(
          elements.map((e) => [e.element_id ?? derivedElementId(e.id - first), codepointText(decodeElementText(e.text))]),
        );
      }
      return texts.get(id);
    };
    return rows.map((r) => decodeChunk(v, r, textOf, metas));
  }

  async close(): Promise<void> {
    if (this.#db.open) this.#db.close();
  }
}
