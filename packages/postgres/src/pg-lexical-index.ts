import type { IndexedChunk, LexicalHit, LexicalIndex, QueryTerm, SearchFilter } from '@pinpoint/core';
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

/**
 * With the filter's collections ($6) the statistics (N, avgdl, df) and the postings read are those
 * of these collections alone (postings carry their collection and chunk length, indexed by term and
 * collection), so a collection outside the filter moves no score and adds no work. Without, the
 * whole index. Scores come from the postings alone; the chunk table is read only for a document,
 * version or page filter ($7–$9), and then by its key alone. (Unscoped, $6 is null.)
 *
 * The postings of a scoped search are read one collection at a time (`term = … AND collection_id =
 * sc.id` over the unnested list), never as `collection_id = ANY($6)`: PostgreSQL 15 may apply an
 * array test on an index's second column as a filter after reading every collection's postings of
 * the term, and whether it does follows table-wide statistics — that is, other teams' documents.
 * Two equalities are always index conditions. $6 holds distinct ids.
 *
 * A chunk's score adds its terms' parts in the order of the terms, whatever order the plan reads
 * them in: floating-point addition is not associative, and a plan chosen by table-wide statistics
 * would otherwise move a score in its last bit when another collection's documents arrive.
 */
const searchSql = (scoped: boolean, filtered: boolean) => {
  const from = scoped
    ? 'df q CROSS JOIN unnest($6::text[]) AS sc(id) JOIN lex_postings p ON p.term = q.term AND p.collection_id = sc.id'
    : 'df q JOIN lex_postings p ON p.term = q.term';
  const df = scoped
    ? '(SELECT coalesce(sum((SELECT count(*) FROM lex_postings p WHERE p.term = q.term AND p.collection_id = sc.id)), 0) FROM unnest($6::text[]) AS sc(id))'
    : '(SELECT count(*) FROM lex_postings p WHERE p.term = q.term)';
  return `
WITH q AS (SELECT * FROM unnest($1::text[], $2::float8[]) AS q(term, qtf)),
stats AS (SELECT count(*)::float8 AS n, coalesce(avg(len), 1)::float8 AS avgdl FROM lex_chunks${scoped ? ' WHERE collection_id = ANY($6)' : ''}),
df AS MATERIALIZED (SELECT q.term, q.qtf, ${df}::float8 AS df FROM q)
SELECT p.chunk_id, sum(q.qtf * ln(1 + (stats.n - q.df + 0.5) / (q.df + 0.5))
       * (p.tf * ($4::float8 + 1)) / (p.tf + $4::float8 * (1 - $5::float8 + $5::float8 * p.len / stats.avgdl)) ORDER BY q.term) AS score
FROM stats, ${from}
WHERE q.df > 0${
    filtered
      ? `${scoped ? '' : ' AND $6::text[] IS NULL'} AND EXISTS (SELECT 1 FROM lex_chunks c WHERE c.chunk_id = p.chunk_id
  AND ($7::text[] IS NULL OR c.document_id = ANY($7)) AND ($8::text[] IS NULL OR c.version_id = ANY($8))
  AND ($9::int[] IS NULL OR c.page_index = ANY($9)))`
      : ''
  }
GROUP BY p.chunk_id ORDER BY score DESC, p.chunk_id LIMIT $3`;
};
const SEARCH_SQL = {
  scoped: { filtered: searchSql(true, true), plain: searchSql(true, false) },
  all: { filtered: searchSql(false, true), plain: searchSql(false, false) },
};

const termsSql = (scoped: boolean) => `
WITH q AS (SELECT * FROM unnest($1::text[]) WITH ORDINALITY AS q(term, i))
SELECT q.term, ${scoped ? '(SELECT coalesce(sum((SELECT count(*) FROM lex_postings p WHERE p.term = q.term AND p.collection_id = sc.id)), 0) FROM unnest($2::text[]) AS sc(id))' : '(SELECT count(*) FROM lex_postings p WHERE p.term = q.term)'}::float8 AS df,
       (SELECT count(*) FROM lex_chunks${scoped ? ' WHERE collection_id = ANY($2)' : ''})::float8 AS n
FROM q ORDER BY q.i`;
const TERMS_SQL = { scoped: termsSql(true), all: termsSql(false) };

/**
 * Planner settings for a query scoped to collections: index paths only, joins in the order written,
 * each inner side an index lookup with the outer row's values (no materialised inner side).
 * The plan a statement gets otherwise follows the statistics of the whole table — a sequential scan
 * of every collection's postings while the tables are small, an index scan later — so another
 * team's documents would change how much a search reads and how long it takes. With these, what a
 * scoped search reads depends on its own collections' rows alone.
 */
const SCOPED_PLAN = [
  'SET LOCAL enable_seqscan = off',
  'SET LOCAL enable_bitmapscan = off',
  'SET LOCAL enable_hashjoin = off',
  'SET LOCAL enable_mergejoin = off',
  'SET LOCAL enable_material = off',
  'SET LOCAL join_collapse_limit = 1',
  'SET LOCAL from_collapse_limit = 1',
  'SET LOCAL max_parallel_workers_per_gather = 0',
].join('; ');

/** What the plan of one statement read: its shape (node, relation, index) and the rows each scan examined. */
export interface PlanWork {
  /** The plan's nodes in order, `Node(relation/index)`, joined by `;`. */
  plan: string;
  /** Rows the scans examined: returned plus removed by filters and rechecks, over every loop. */
  rows: number;
  /** Heap pages an index-only scan still had to visit. */
  heapFetches: number;
}

interface PlanNode {
  'Node Type': string;
  'Relation Name'?: string;
  'Index Name'?: string;
  'Actual Rows'?: number;
  'Actual Loops'?: number;
  'Rows Removed by Filter'?: number;
  'Rows Removed by Index Recheck'?: number;
  'Heap Fetches'?: number;
  Plans?: PlanNode[];
}

function planWork(root: PlanNode): PlanWork {
  const shape: string[] = [];
  let rows = 0;
  let heapFetches = 0;
  const visit = (n: PlanNode) => {
    const on = [n['Relation Name'], n['Index Name']].filter(Boolean).join('/');
    shape.push(on ? `${n['Node Type']}(${on})` : n['Node Type']);
    if (n['Relation Name']) {
      const loops = n['Actual Loops'] ?? 1;
      rows += ((n['Actual Rows'] ?? 0) + (n['Rows Removed by Filter'] ?? 0) + (n['Rows Removed by Index Recheck'] ?? 0)) * loops;
      heapFetches += n['Heap Fetches'] ?? 0;
    }
    for (const c of n.Plans ?? []) visit(c);
  };
  visit(root);
  return { plan: shape.join(';'), rows, heapFetches };
}

/** The LexicalIndex port on PostgreSQL: shared by every API and worker process of a deployment. */
export class PgLexicalIndex implements LexicalIndex {
  readonly id: string;
  /**
   * When set, every search is run a second time under `EXPLAIN ANALYZE` and `lastWork` holds what its
   * plan read — how the access tests prove that another collection's postings add no work to a
   * scoped search. Diagnostics only: it doubles a search's cost.
   */
  explainWork = false;
  lastWork: PlanWork | undefined;

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
        `INSERT INTO lex_postings (term, chunk_id, tf, collection_id, len)
         SELECT t.term, x->>'chunk_id', t.tf, x->>'collection_id', (x->>'len')::int FROM json_array_elements($1::json) AS x,
         LATERAL unnest(ARRAY(SELECT json_array_elements_text(x->'terms')), ARRAY(SELECT json_array_elements_text(x->'tfs')::int)) AS t(term, tf)`,
        [
          JSON.stringify(
            rows.map((r) => ({ chunk_id: r.chunk_id, collection_id: r.collection_id, len: r.len, terms: r.terms, tfs: r.tfs })),
          ),
        ],
      );
      await client.query('COMMIT');
    } catch (err) {
      await client.query('ROLLBACK').catch(() => undefined);
      throw err;
    } finally {
      client.release();
    }
  }

  /** Every indexed chunk with its version (verify: the index holds exactly the ready versions' chunks). */
  async indexedChunks(): Promise<Map<string, string>> {
    const { rows } = await this.pool.query<{ chunk_id: string; version_id: string }>(
      'SELECT chunk_id, version_id FROM lex_chunks',
    );
    return new Map(rows.map((r) => [r.chunk_id, r.version_id]));
  }

  /** Chunks listed with no posting at all: their terms were lost, so no query finds them. */
  async chunksWithoutPostings(): Promise<Map<string, string>> {
    const { rows } = await this.pool.query<{ chunk_id: string; version_id: string }>(
      'SELECT c.chunk_id, c.version_id FROM lex_chunks c WHERE c.len > 0 AND NOT EXISTS (SELECT 1 FROM lex_postings p WHERE p.chunk_id = c.chunk_id)',
    );
    return new Map(rows.map((r) => [r.chunk_id, r.version_id]));
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
    const filtered = Boolean(f.documentIds || f.versionIds || f.pageIndexes);
    const sql = (f.collectionIds ? SEARCH_SQL.scoped : SEARCH_SQL.all)[filtered ? 'filtered' : 'plain'];
    const params: unknown[] = [[...tf.keys()], weights, options.k, k1, b];
    if (f.collectionIds || filtered) params.push(f.collectionIds ? [...new Set(f.collectionIds)] : null);
    if (filtered) params.push(f.documentIds ?? null, f.versionIds ?? null, f.pageIndexes ?? null);
    const rows = await this.query<{ chunk_id: string; score: number }>(sql, params, Boolean(f.collectionIds));
    if (this.explainWork) {
      const [explained] = await this.query<{ 'QUERY PLAN': [{ Plan: PlanNode }] }>(
        `EXPLAIN (ANALYZE, TIMING OFF, FORMAT JSON) ${sql}`,
        params,
        Boolean(f.collectionIds),
      );
      const plan = explained?.['QUERY PLAN'][0]?.Plan;
      this.lastWork = plan ? planWork(plan) : undefined;
    }
    return rows.map((r) => ({ chunk_id: r.chunk_id, score: Number(r.score) }));
  }

  async queryTerms(query: string, options: { filter?: SearchFilter } = {}): Promise<QueryTerm[]> {
    const terms = [...countTerms(this.options.analyzer.analyze(query)).keys()];
    if (terms.length === 0) return [];
    const weight = this.options.termWeight ?? (() => 1);
    const collections = options.filter?.collectionIds;
    const rows = await this.query<{ term: string; df: number; n: number }>(
      collections ? TERMS_SQL.scoped : TERMS_SQL.all,
      collections ? [terms, [...new Set(collections)]] : [terms],
      Boolean(collections),
    );
    return rows.map(({ term, df, n }) => ({
      term,
      weight: df === 0 ? 0 : weight(term) * Math.log(1 + (n - df + 0.5) / (df + 0.5)),
    }));
  }

  /** A read; a scoped one runs in a transaction with the SCOPED_PLAN settings. */
  private async query<R extends object>(sql: string, params: unknown[], scoped: boolean): Promise<R[]> {
    if (!scoped) return (await this.pool.query<R & pg.QueryResultRow>(sql, params)).rows;
    const client = await this.pool.connect();
    try {
      await client.query(`BEGIN READ ONLY; ${SCOPED_PLAN}`);
      const { rows } = await client.query<R & pg.QueryResultRow>(sql, params);
      await client.query('COMMIT');
      return rows;
    } catch (err) {
      await client.query('ROLLBACK').catch(() => undefined);
      throw err;
    } finally {
      client.release();
    }
  }

  async close(): Promise<void> {
    await this.pool.end();
  }
}
