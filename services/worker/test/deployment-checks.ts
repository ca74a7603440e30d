import pg from 'pg';
import type { ThrowawayDeployment, WorkerProcess } from './throwaway-deployment.js';

export interface ContentCheck {
  versions: number;
  notReady: number;
  /** Versions whose chunk ordinals are not exactly 0..n-1 or disagree with the recorded stats. */
  duplicateOrGappedChunks: number;
  /** Chunks or lexical rows without their counterpart, or belonging to no ready version. */
  orphans: number;
}

/** Looks straight into PostgreSQL: every version's chunks, elements and lexical rows agree. */
export async function checkContent(d: ThrowawayDeployment): Promise<ContentCheck> {
  const client = new pg.Client({ connectionString: d.config.databaseUrl, options: `-c search_path=${d.config.pgSchema}` });
  await client.connect();
  try {
    const one = async (sql: string) => Number((await client.query<{ n: string }>(sql)).rows[0]?.n ?? 0);
    return {
      versions: await one('SELECT count(*) AS n FROM versions'),
      notReady: await one("SELECT count(*) AS n FROM versions WHERE state <> 'ready'"),
      duplicateOrGappedChunks: await one(`SELECT count(*) AS n FROM versions v LEFT JOIN
        (SELECT version_id, count(*) AS c, min(ordinal) AS lo, max(ordinal) AS hi FROM chunks GROUP BY version_id) c USING (version_id)
        WHERE c.c IS DISTINCT FROM (v.stats->>'chunks')::bigint OR c.lo <> 0 OR c.hi <> c.c - 1`),
      orphans:
        await one(`SELECT (SELECT count(*) FROM chunks c FULL JOIN lex_chunks l USING (chunk_id) WHERE c.chunk_id IS NULL OR l.chunk_id IS NULL)
        + (SELECT count(*) FROM chunks WHERE version_id NOT IN (SELECT version_id FROM versions WHERE state = 'ready'))
        + (SELECT count(*) FROM elements WHERE version_id NOT IN (SELECT version_id FROM versions WHERE state = 'ready')) AS n`),
    };
  } finally {
    await client.end();
  }
}

/** Job ids a worker has started and not (yet) finished or failed, from its log lines. */
export function jobsInFlight(w: WorkerProcess): string[] {
  const open = new Set<string>();
  for (const e of w.events) {
    const id = String(e.job_id);
    if (e.event === 'job-started') open.add(id);
    else if (e.event === 'job-finished' || e.event === 'job-failed') open.delete(id);
  }
  return [...open];
}

export function countEvents(workers: WorkerProcess[], event: string): Map<string, number> {
  const counts = new Map<string, number>();
  for (const w of workers)
    for (const e of w.events) if (e.event === event) counts.set(String(e.job_id), (counts.get(String(e.job_id)) ?? 0) + 1);
  return counts;
}
