import type { IndexedChunk, LexicalHit, LexicalIndex, SearchFilter } from '@pinpoint/core';
import { createError } from '@pinpoint/core';
import type pg from 'pg';
import { openMigratedPool } from './migrate.js';

export interface PgLexicalIndexOptions {
  connectionString: string;
  schema?: string;
  /** The analyzer the index is built with; its id is stored and checked on open. */
  analyzer: { id: string; analyze(text: string): string[] };
  /** A query term's weight by its kind (e.g. word pairs count half); 1 by default. */
  termWeight?: (term: string) => number;
  bm25?: { k1: number; b: number };
  poolSize?: number;
}

function countTerms(terms: string[]): Map<string, number> {
  const counts = new Map<string, number>();
  for (const t of terms) counts.set(t, (counts.get(t) ?? 0) + 1);
  return counts;
}

const SEARCH_SQL = `
WITH q AS (SELECT * FROM unnest($1::text[], $2::float8[]) AS q(term, qtf)),
stats AS (SELECT count(*)::float8 AS n, coalesce(avg(len), 1)::float8 AS avgdl FROM lex_chunks),
df AS (SELECT p.term, count(*)::float8 AS df FROM lex_postings p JOIN q ON q.term = p.term GROUP BY p.term)
SELECT c.chunk_id, sum(q.qtf * ln(1 + (stats.n - df.df + 0.5) / (df.df + 0.5))
       * (p.tf * ($4::float8 + 1)) / (p.tf + $4::float8 * (1 - $5::float8 + $5::float8 * c.len / stats.avgdl))) AS score
FROM q JOIN lex_postings p ON p.term = q.term JOIN df ON df.term = q.term JOIN lex_chunks c ON c.chunk_id = p.chunk_id, stats
WHERE ($6::text[] IS NULL OR c.collection_id = ANY($6)) AND ($7::text[] IS NULL OR c.document_id = ANY($7))
  AND ($8::text[] IS NULL OR c.version_id = ANY($8)) AND ($9::int[] IS NULL OR c.page_index = ANY($9))
GROUP BY c.chunk_id ORDER BY score DESC, c.chunk_id LIMIT $3`;

/** The LexicalIndex port on PostgreSQL: shared by every API and worker process of a deployment. */
export class PgLexicalIndex implements LexicalIndex {
  readonly id: string;

  private constructor(
    private readonly pool: pg.Pool,
    private readonly options: PgLexicalIndexOptions,
  ) {
    this.id = `pg-bm25@1+${options.analyzer.id}`;
  }

  static async open(options: PgLexicalIndexOptions): Promise<PgLexicalIndex> {
    const pool = await openMigratedPool(options, 4);
    try {
      await pool.query("INSERT INTO lex_meta VALUES ('analyzer', $1) ON CONFLICT (key) DO NOTHING", [options.analyzer.id]);
      const { rows } = await pool.query<{ value: string }>("SELECT value FROM lex_meta WHERE key = 'analyzer'");
      if (rows[0]?.value !== options.analyzer.id) {
        throw createError(
          'PP_CONFIG_INVALID',
          `The lexical index was built with analyzer ${rows[0]?.value}, not ${options.analyzer.id}: rebuild it.`,
        );
      }
    } catch (err) {
      await pool.end();
      throw err;
    }
    return new PgLexicalIndex(pool, options);
  }

  async upsert(chunks: IndexedChunk[]): Promise<void> {
    if (chunks.length === 0) return;
    const rows = chunks.map((c) => {
      const tf = countTerms(this.options.analyzer.analyze(c.retrieval_text));
      return { ...c, len: [...tf.values()].reduce((a, b) => a + b, 0), terms: [...tf.keys()], tfs: [...tf.values()] };
    });
    const client = await this.pool.connect();
    try {
      await client.query('BEGIN');
      await client.query('DELETE FROM lex_chunks WHERE chunk_id = ANY($1)', [rows.map((r) => r.chunk_id)]);
      await client.query(
        `INSERT INTO lex_chunks SELECT x->>'chunk_id', x->>'version_id', x->>'document_id', x->>'collection_id', (x->>'page_index')::int, (x->>'len')::int
         FROM json_array_elements($1::json) AS x`,
        [JSON.stringify(rows.map(({ terms: _t, tfs: _f, retrieval_text: _r, ...meta }) => meta))],
      );
      await client.query(
        `INSERT INTO lex_postings SELECT t.term, x->>'chunk_id', t.tf FROM json_array_elements($1::json) AS x,
         LATERAL unnest(ARRAY(SELECT json_array_elements_text(x->'terms')), ARRAY(SELECT json_array_elements_text(x->'tfs')::int)) AS t(term, tf)`,
        [JSON.stringify(rows.map((r) => ({ chunk_id: r.chunk_id, terms: r.terms, tfs: r.tfs })))],
      );
      await client.query('COMMIT');
    } catch (err) {
      await client.query('ROLLBACK').catch(() => undefined);
      throw err;
    } finally {
      client.release();
    }
  }

  async deleteVersion(versionId: string): Promise<void> {
    await this.pool.query('DELETE FROM lex_chunks WHERE version_id = $1', [versionId]);
  }

  async search(query: string, options: { k: number; filter?: SearchFilter }): Promise<LexicalHit[]> {
    const tf = countTerms(this.options.analyzer.analyze(query));
    if (tf.size === 0) return [];
    const weight = this.options.termWeight ?? (() => 1);
    const weights = [...tf].map(([term, n]) => weight(term) * (n > 1 ? 1 + Math.log(n) : 1));
    const { k1, b } = this.options.bm25 ?? { k1: 1.2, b: 0.75 };
    const f = options.filter ?? {};
    const { rows } = await this.pool.query<{ chunk_id: string; score: number }>(SEARCH_SQL, [
      [...tf.keys()],
      weights,
      options.k,
      k1,
      b,
      f.collectionIds ?? null,
      f.documentIds ?? null,
      f.versionIds ?? null,
      f.pageIndexes ?? null,
    ]);
    return rows.map((r) => ({ chunk_id: r.chunk_id, score: Number(r.score) }));
  }

  async close(): Promise<void> {
    await this.pool.end();
  }
}
