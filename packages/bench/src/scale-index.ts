import { join } from 'node:path';
import { openLexicalIndex } from '@pinpoint/retrieval';
import Database from 'better-sqlite3';
import { cpuMs, type Percentiles, percentiles, scaleQuestions } from './scale-questions.js';

/** The lexical index alone on a scale folder: CPU per question and the work of an average question. */
export interface IndexFigures {
  cpu_ms: Percentiles;
  /** Per question, on average: lists looked up, postings decoded, chunks scored exactly, blocks passed over, parts read. */
  work: { lists: number; postings: number; scored: number; skipped: number; parts: number };
}

/**
 * The scale questions asked of the folder's lexical index alone (no engine, no metadata), with the
 * filter the engine gives them: every version the index holds (a scale run has one version a
 * document). What the engine adds is left out, so a change to the index's query path is measured
 * by itself — CPU time per question, which the machine's other load changes least, and the work
 * counters that say why.
 */
export async function scaleIndexQueries(shared: string, dir: string, queries: number): Promise<IndexFigures> {
  const path = join(dir, 'data', 'lexical.db');
  const peek = new Database(path, { readonly: true });
  const versionIds = peek.prepare('SELECT DISTINCT version_id FROM lex_chunks').pluck().all() as string[];
  peek.close();
  const index = openLexicalIndex(path);
  try {
    const cpu: number[] = [];
    const work = { lists: 0, postings: 0, scored: 0, skipped: 0, parts: 0 };
    const qs = scaleQuestions(shared, queries);
    for (const q of qs) {
      const c0 = process.cpuUsage();
      index.searchSync(q, { k: 10, filter: { versionIds } });
      cpu.push(cpuMs(c0));
      for (const key of Object.keys(work) as (keyof typeof work)[]) work[key] += index.lastWork[key];
    }
    const mean = (n: number) => Math.round(n / Math.max(1, qs.length));
    return {
      cpu_ms: percentiles(cpu),
      work: {
        lists: mean(work.lists),
        postings: mean(work.postings),
        scored: mean(work.scored),
        skipped: mean(work.skipped),
        parts: mean(work.parts),
      },
    };
  } finally {
    await index.close();
  }
}
