import { createError, type LexicalHit, type SearchFilter, type VectorRecord, type VectorStore } from '@pinpoint/core';
import type { QdrantClient } from '@qdrant/js-client-rest';
import { deleteVersionPoints, fail, pointId, qdrantClient, toQdrantFilter, upsertPoints } from './qdrant-common.js';
import { type Bm25Params, documentSparse, querySparse } from './sparse.js';

export interface QdrantVectorStoreOptions {
  url: string;
  apiKey?: string;
  /** Qdrant collection name; one per embedding model (dimensions are fixed at creation). */
  collection: string;
  dimensions: number;
  /** The analyzer that turns text into index terms (@pinpoint/analysis `analyze`); enables the sparse side. */
  analyze?: (text: string) => string[];
  bm25?: Bm25Params;
}

/** A record whose retrieval text also feeds the sparse (BM25) vector. */
export type HybridVectorRecord = VectorRecord & { text?: string; retrieval_text?: string };

const DENSE = 'dense';
const SPARSE = 'bm25';
const UPSERT_BATCH = 256;

export class QdrantVectorStore implements VectorStore {
  readonly id: string;
  private constructor(
    private readonly client: QdrantClient,
    private readonly options: QdrantVectorStoreOptions,
  ) {
    this.id = `qdrant:${options.collection}@${options.dimensions}`;
  }

  /** Connects and creates the collection (named dense + sparse vectors, keyword/int payload indexes) if missing. */
  static async open(options: QdrantVectorStoreOptions): Promise<QdrantVectorStore> {
    const client = qdrantClient(options);
    const store = new QdrantVectorStore(client, options);
    try {
      const { exists } = await client.collectionExists(options.collection);
      if (!exists) await store.createCollection();
    } catch (err) {
      fail(err, `opening collection ${options.collection}`);
    }
    return store;
  }

  private async createCollection(): Promise<void> {
    const name = this.options.collection;
    await this.client.createCollection(name, {
      vectors: { [DENSE]: { size: this.options.dimensions, distance: 'Cosine' } },
      sparse_vectors: { [SPARSE]: { modifier: 'idf' } },
    });
    for (const field of ['collection_id', 'document_id', 'version_id'])
      await this.client.createPayloadIndex(name, { field_name: field, field_schema: 'keyword', wait: true });
    await this.client.createPayloadIndex(name, { field_name: 'page_index', field_schema: 'integer', wait: true });
  }

  async upsert(records: HybridVectorRecord[]): Promise<void> {
    if (records.length === 0) return;
    const points = records.map((r) => {
      if (r.vector.length !== this.options.dimensions)
        throw createError(
          'PP_VALIDATION',
          `vector for ${r.chunk_id} has ${r.vector.length} dimensions; the collection holds ${this.options.dimensions}`,
        );
      const vector: Record<string, number[] | { indices: number[]; values: number[] }> = { [DENSE]: Array.from(r.vector) };
      if (this.options.analyze && r.text !== undefined)
        vector[SPARSE] = documentSparse(this.options.analyze(r.text), this.options.bm25);
      const { vector: _, text: __, ...payload } = r;
      return { id: pointId(r.chunk_id), vector, payload };
    });
    // Batches keep each request well under Qdrant's 32 MB body limit (768-d vectors are ~10 KB of JSON each).
    await upsertPoints(this.client, this.options.collection, points, UPSERT_BATCH);
  }

  async deleteVersion(versionId: string): Promise<void> {
    await deleteVersionPoints(this.client, this.options.collection, versionId);
  }

  async search(vector: Float32Array, options: { k: number; filter?: SearchFilter }): Promise<LexicalHit[]> {
    if (vector.length !== this.options.dimensions)
      throw createError(
        'PP_VALIDATION',
        `query vector has ${vector.length} dimensions; the collection holds ${this.options.dimensions}`,
      );
    return this.query({ query: Array.from(vector), using: DENSE }, options);
  }

  /** Sparse BM25 alone (the distributed lexical side). */
  async searchSparse(text: string, options: { k: number; filter?: SearchFilter }): Promise<LexicalHit[]> {
    const sparse = querySparse(this.analyzer()(text));
    if (sparse.indices.length === 0) return [];
    return this.query({ query: sparse, using: SPARSE }, options);
  }

  /** Dense + sparse prefetches fused on the server by reciprocal rank (Query API `fusion: rrf`). */
  async hybridSearch(
    vector: Float32Array,
    text: string,
    options: { k: number; filter?: SearchFilter; prefetch?: number },
  ): Promise<LexicalHit[]> {
    const filter = toQdrantFilter(options.filter);
    const limit = options.prefetch ?? Math.max(50, options.k * 4);
    const prefetch = [
      { query: Array.from(vector), using: DENSE, limit, ...(filter ? { filter } : {}) },
      { query: querySparse(this.analyzer()(text)), using: SPARSE, limit, ...(filter ? { filter } : {}) },
    ];
    return this.query({ prefetch, query: { fusion: 'rrf' } }, options);
  }

  private analyzer(): (text: string) => string[] {
    if (!this.options.analyze)
      throw createError('PP_CONFIG_INVALID', 'The Qdrant store needs the analyzer for sparse (BM25) search');
    return this.options.analyze;
  }

  private async query(body: Record<string, unknown>, options: { k: number; filter?: SearchFilter }): Promise<LexicalHit[]> {
    const filter = toQdrantFilter(options.filter);
    const res = await this.client
      .query(this.options.collection, {
        ...body,
        limit: options.k,
        with_payload: ['chunk_id'],
        ...(filter ? { filter } : {}),
      } as Parameters<QdrantClient['query']>[1])
      .catch((err: unknown) => fail(err, 'query'));
    return res.points.map((p) => ({
      chunk_id: String((p.payload as { chunk_id?: unknown } | null)?.chunk_id ?? ''),
      score: p.score,
    }));
  }

  async close(): Promise<void> {}
}
