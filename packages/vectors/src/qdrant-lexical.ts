import type { IndexedChunk, LexicalHit, LexicalIndex, QueryTerm, SearchFilter } from '@pinpoint/core';
import type { QdrantClient } from '@qdrant/js-client-rest';
import { deleteVersionPoints, fail, pointId, qdrantClient, toQdrantFilter, upsertPoints } from './qdrant-common.js';
import { type Bm25Params, documentSparse, querySparse, termId } from './sparse.js';

export interface QdrantLexicalIndexOptions {
  url: string;
  apiKey?: string;
  /** Its own collection (sparse vectors only), e.g. "pinpoint_lexical". */
  collection: string;
  /** The retrieval analyzer (@pinpoint/analysis `analyze`): index and query terms alike. */
  analyze: (text: string) => string[];
  /** Recorded in the id, so an index built by another analyzer is told apart (e.g. ANALYZER_ID). */
  analyzerId?: string;
  bm25?: Bm25Params;
  /** A query term's weight by its kind (e.g. word pairs count half); 1 by default. */
  termWeight?: (term: string) => number;
}

const SPARSE = 'bm25';
const UPSERT_BATCH = 512;

/**
 * The LexicalIndex port on Qdrant sparse vectors (DESIGN §1, distributed): BM25 term weights from
 * the shared analyzer, `modifier: idf` so the server supplies the IDF from its own statistics.
 */
export class QdrantLexicalIndex implements LexicalIndex {
  readonly id: string;
  private constructor(
    private readonly client: QdrantClient,
    private readonly options: QdrantLexicalIndexOptions,
  ) {
    this.id = `qdrant-bm25:${options.collection}${options.analyzerId ? `/${options.analyzerId}` : ''}`;
  }

  static async open(options: QdrantLexicalIndexOptions): Promise<QdrantLexicalIndex> {
    const client = qdrantClient(options);
    try {
      const { exists } = await client.collectionExists(options.collection);
      if (!exists) {
        await client.createCollection(options.collection, { vectors: {}, sparse_vectors: { [SPARSE]: { modifier: 'idf' } } });
        for (const field of ['collection_id', 'document_id', 'version_id']) {
          await client.createPayloadIndex(options.collection, { field_name: field, field_schema: 'keyword', wait: true });
        }
        await client.createPayloadIndex(options.collection, { field_name: 'page_index', field_schema: 'integer', wait: true });
      }
    } catch (err) {
      fail(err, `opening collection ${options.collection}`);
    }
    return new QdrantLexicalIndex(client, options);
  }

  async upsert(chunks: IndexedChunk[]): Promise<void> {
    const points = chunks.map(({ retrieval_text, ...payload }) => ({
      id: pointId(payload.chunk_id),
      vector: { [SPARSE]: documentSparse(this.options.analyze(retrieval_text), this.options.bm25) },
      payload,
    }));
    await upsertPoints(this.client, this.options.collection, points, UPSERT_BATCH);
  }

  async deleteVersion(versionId: string): Promise<void> {
    await deleteVersionPoints(this.client, this.options.collection, versionId);
  }

  async search(query: string, options: { k: number; filter?: SearchFilter }): Promise<LexicalHit[]> {
    const sparse = querySparse(this.options.analyze(query), this.options.termWeight);
    if (sparse.indices.length === 0) return [];
    const filter = toQdrantFilter(options.filter);
    const res = await this.client
      .query(this.options.collection, {
        query: sparse,
        using: SPARSE,
        limit: options.k,
        with_payload: ['chunk_id'],
        ...(filter ? { filter } : {}),
      })
      .catch((err: unknown) => fail(err, 'query'));
    return res.points.map((p) => ({
      chunk_id: String((p.payload as { chunk_id?: unknown } | null)?.chunk_id ?? ''),
      score: p.score,
    }));
  }

  /**
   * Each term's IDF as the server computes it (`modifier: idf`): a one-term query returns the best
   * point's score = IDF × its stored term value, so IDF = score / value — one batched request.
   */
  async queryTerms(query: string): Promise<QueryTerm[]> {
    const terms = [...new Set(this.options.analyze(query))];
    if (terms.length === 0) return [];
    const searches = terms.map((term) => ({
      query: { indices: [termId(term)], values: [1] },
      using: SPARSE,
      limit: 1,
      with_vector: [SPARSE],
    }));
    const res = await this.client
      .queryBatch(this.options.collection, { searches })
      .catch((err: unknown) => fail(err, 'query batch'));
    const weight = this.options.termWeight ?? (() => 1);
    return terms.map((term, i) => {
      const best = res[i]?.points[0];
      const stored = (best?.vector as Record<string, { indices: number[]; values: number[] }> | undefined)?.[SPARSE];
      const at = stored?.indices.indexOf(termId(term)) ?? -1;
      const value = at < 0 ? 0 : (stored?.values[at] ?? 0);
      return { term, weight: best && value > 0 ? weight(term) * (best.score / value) : 0 };
    });
  }

  async close(): Promise<void> {}
}
