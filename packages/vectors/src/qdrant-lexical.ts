import type { IndexedChunk, LexicalHit, LexicalIndex, QueryTerm, SearchFilter } from '@pinpoint/core';
import type { QdrantClient } from '@qdrant/js-client-rest';
import { deleteVersionPoints, fail, pointId, qdrantClient, toQdrantFilter, upsertPoints } from './qdrant-common.js';
import { type Bm25Params, documentSparse, querySparse, termId } from './sparse.js';

/** A shard that does not exist (no chunk of its collection indexed yet) answers as empty. */
async function orEmpty<T>(request: Promise<T>, empty: T, what: string): Promise<T> {
  return request.catch((err: unknown) => ((err as { status?: number }).status === 404 ? empty : fail(err, what)));
}

export interface QdrantLexicalIndexOptions {
  url: string;
  apiKey?: string;
  /** The name its shards start with (one Qdrant collection of sparse vectors per Pinpoint collection), e.g. "pinpoint_lexical". */
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

/** Qdrant collection names take letters, digits, `_` and `-`; anything else in a collection id is hex-escaped. */
const shardSuffix = (collectionId: string): string =>
  collectionId.replace(/[^A-Za-z0-9-]|_/gu, (ch) => `_${ch.codePointAt(0)?.toString(16)}_`);

/**
 * The LexicalIndex port on Qdrant sparse vectors (DESIGN §1, distributed): BM25 term weights from
 * the shared analyzer, `modifier: idf` so the server supplies the IDF from its own statistics.
 *
 * Qdrant computes that IDF over a whole Qdrant collection, so each Pinpoint collection has its own
 * (`<collection>__<collection id>`, a shard): the statistics behind a score are those of the
 * caller's collections only, and another team's documents move no score and add no work. A search
 * over several collections asks each shard and merges by score (per-shard IDF, as a sharded search
 * engine does); term weights for the gate combine the shards' document frequencies exactly.
 */
export class QdrantLexicalIndex implements LexicalIndex {
  readonly id: string;
  private readonly ready = new Set<string>();
  private constructor(
    private readonly client: QdrantClient,
    private readonly options: QdrantLexicalIndexOptions,
  ) {
    this.id = `qdrant-bm25@2:${options.collection}${options.analyzerId ? `/${options.analyzerId}` : ''}`;
  }

  static async open(options: QdrantLexicalIndexOptions): Promise<QdrantLexicalIndex> {
    const client = qdrantClient(options);
    await client.getCollections().catch((err: unknown) => fail(err, 'listing collections'));
    return new QdrantLexicalIndex(client, options);
  }

  private shard(collectionId: string): string {
    return `${this.options.collection}__${shardSuffix(collectionId)}`;
  }

  /**
   * The shards to read: those of the given collections (named directly; one not created yet reads as
   * empty, see `orEmpty`), or every shard when no collection is given (one listing request).
   */
  private async shards(collectionIds?: string[]): Promise<string[]> {
    if (collectionIds) return [...new Set(collectionIds.map((c) => this.shard(c)))].sort();
    const { collections } = await this.client.getCollections().catch((err: unknown) => fail(err, 'listing collections'));
    const prefix = `${this.options.collection}__`;
    return collections
      .map((c) => c.name)
      .filter((n) => n.startsWith(prefix))
      .sort();
  }

  private async ensure(name: string): Promise<void> {
    if (this.ready.has(name)) return;
    try {
      const { exists } = await this.client.collectionExists(name);
      if (!exists) {
        await this.client
          .createCollection(name, { vectors: {}, sparse_vectors: { [SPARSE]: { modifier: 'idf' } } })
          .catch(async (err: unknown) => {
            // created meanwhile by another worker
            if (!(await this.client.collectionExists(name)).exists) throw err;
          });
        for (const field of ['document_id', 'version_id']) {
          await this.client.createPayloadIndex(name, { field_name: field, field_schema: 'keyword', wait: true });
        }
        await this.client.createPayloadIndex(name, { field_name: 'page_index', field_schema: 'integer', wait: true });
      }
    } catch (err) {
      fail(err, `opening collection ${name}`);
    }
    this.ready.add(name);
  }

  async upsert(chunks: IndexedChunk[]): Promise<void> {
    const byShard = new Map<string, IndexedChunk[]>();
    for (const c of chunks) {
      const name = this.shard(c.collection_id);
      byShard.set(name, [...(byShard.get(name) ?? []), c]);
    }
    for (const [name, group] of byShard) {
      await this.ensure(name);
      const points = group.map(({ retrieval_text, ...payload }) => ({
        id: pointId(payload.chunk_id),
        vector: { [SPARSE]: documentSparse(this.options.analyze(retrieval_text), this.options.bm25) },
        payload,
      }));
      await upsertPoints(this.client, name, points, UPSERT_BATCH);
    }
  }

  async deleteVersion(versionId: string): Promise<void> {
    for (const name of await this.shards()) await deleteVersionPoints(this.client, name, versionId);
  }

  async search(query: string, options: { k: number; filter?: SearchFilter }): Promise<LexicalHit[]> {
    const sparse = querySparse(this.options.analyze(query), this.options.termWeight);
    if (sparse.indices.length === 0) return [];
    const { collectionIds, ...rest } = options.filter ?? {};
    const filter = toQdrantFilter(rest);
    const hits = await Promise.all(
      (await this.shards(collectionIds)).map(async (name) => {
        const res = await orEmpty(
          this.client.query(name, {
            query: sparse,
            using: SPARSE,
            limit: options.k,
            with_payload: ['chunk_id'],
            ...(filter && filter.must.length > 0 ? { filter } : {}),
          }),
          { points: [] },
          'query',
        );
        return res.points.map((p) => ({
          chunk_id: String((p.payload as { chunk_id?: unknown } | null)?.chunk_id ?? ''),
          score: p.score,
        }));
      }),
    );
    return hits
      .flat()
      .sort((a, b) => b.score - a.score || (a.chunk_id < b.chunk_id ? -1 : a.chunk_id > b.chunk_id ? 1 : 0))
      .slice(0, options.k);
  }

  /**
   * Each term's IDF over the given collections. Per shard, the server's IDF (`modifier: idf`) is read
   * back from a one-term query (the best point's score = IDF × its stored term value) and, with the
   * shard's point count N, turned back into the term's document frequency; the shards' frequencies
   * and counts add up to the IDF of the set — one batched request and one count per shard.
   */
  async queryTerms(query: string, options: { filter?: SearchFilter } = {}): Promise<QueryTerm[]> {
    const terms = [...new Set(this.options.analyze(query))];
    if (terms.length === 0) return [];
    const searches = terms.map((term) => ({
      query: { indices: [termId(term)], values: [1] },
      using: SPARSE,
      limit: 1,
      with_vector: [SPARSE],
    }));
    const perShard = await Promise.all(
      (await this.shards(options.filter?.collectionIds)).map(async (name) => {
        const [res, count] = await Promise.all([
          orEmpty(this.client.queryBatch(name, { searches }), [], 'query batch'),
          orEmpty(this.client.count(name, { exact: true }), { count: 0 }, 'count'),
        ]);
        const n = count.count;
        const df = terms.map((term, i) => {
          const best = res[i]?.points[0];
          const stored = (best?.vector as Record<string, { indices: number[]; values: number[] }> | undefined)?.[SPARSE];
          const at = stored?.indices.indexOf(termId(term)) ?? -1;
          const value = at < 0 ? 0 : (stored?.values[at] ?? 0);
          if (!best || value <= 0) return 0;
          // idf = ln(1 + (N − df + 0.5) / (df + 0.5))  ⇒  df = (N + 0.5 − 0.5·r) / (r + 1), r = e^idf − 1
          const r = Math.expm1(best.score / value);
          return Math.min(n, Math.max(1, Math.round((n + 0.5 - 0.5 * r) / (r + 1))));
        });
        return { n, df };
      }),
    );
    const n = perShard.reduce((a, s) => a + s.n, 0);
    const weight = this.options.termWeight ?? (() => 1);
    return terms.map((term, i) => {
      const df = perShard.reduce((a, s) => a + (s.df[i] ?? 0), 0);
      return { term, weight: df === 0 ? 0 : weight(term) * Math.log(1 + (n - df + 0.5) / (df + 0.5)) };
    });
  }

  async close(): Promise<void> {}
}
