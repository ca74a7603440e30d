/**
 * The peer of a scale run: SQLite's own FTS5 (inside better-sqlite3, what a user could pick tomorrow)
 * over the same chunks, indexed as the same analysis's terms, asked the same questions, ranked by
 * FTS5's bm25(). A term is one FTS5 token: the tokenizer keeps the analyzer's markers (`_` of word
 * pairs, `#` of CJK bigrams) inside tokens and leaves letters as they are, so each analyzer term is
 * one entry of FTS5's dictionary. The index is built once per data folder (`peer-fts5.db` beside
 * it) and optimised into one b-tree, as a user would; a later run on a kept folder reuses it and
 * reports the build figures it recorded.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { analyze } from '@pinpoint/analysis';
import type { Engine } from '@pinpoint/engine';
import Database from 'better-sqlite3';
import { cpuMs, type Percentiles, percentiles } from './scale-questions.js';

export interface Fts5PeerFigures {
  peer: 'sqlite-fts5';
  sqlite_version: string;
  chunks: number;
  build_s: number;
  build_cpu_s: number;
  index_bytes: number;
  /** Analysing the question and FTS5's top 10 by bm25(). */
  query_ms: Percentiles;
  /** The same, CPU time of this process. */
  query_cpu_ms: Percentiles;
}

const TOKENIZER = "unicode61 remove_diacritics 0 tokenchars '_#'";
const INSERT_BATCH = 5000;

/** The analysed text of every ready chunk, as FTS5 rows; the count of chunks written. */
async function buildFts5(db: Database.Database, engine: Engine): Promise<number> {
  db.exec(`CREATE VIRTUAL TABLE peer USING fts5(terms, tokenize = "${TOKENIZER}")`);
  const insert = db.prepare('INSERT INTO peer (terms) VALUES (?)');
  const write = db.transaction((rows: string[]) => {
    for (const r of rows) insert.run(r);
  });
  let rows: string[] = [];
  let chunks = 0;
  for (const v of await engine.ports.metadata.listVersions({ state: 'ready' })) {
    for (const c of await engine.ports.metadata.listChunks(v.version_id)) rows.push(analyze(c.retrieval_text).join(' '));
    if (rows.length >= INSERT_BATCH) {
      write(rows);
      chunks += rows.length;
      rows = [];
    }
  }
  write(rows);
  chunks += rows.length;
  db.exec("INSERT INTO peer (peer) VALUES ('optimize')");
  return chunks;
}

/** Bytes of the pages in use: 'optimize' rewrites the index into one b-tree and leaves the old pages free in the file. */
function usedBytes(db: Database.Database): number {
  const pragma = (name: string) => db.pragma(name, { simple: true }) as number;
  return (pragma('page_count') - pragma('freelist_count')) * pragma('page_size');
}

/** An FTS5 query for any of the question's terms (each quoted: a term is one token, never syntax). */
function fts5Query(question: string): string | null {
  const terms = [...new Set(analyze(question))];
  return terms.length === 0 ? null : terms.map((t) => `"${t.replaceAll('"', '""')}"`).join(' OR ');
}

/**
 * Builds (or reuses) the FTS5 index of the chunks of the data folder the engine has open and times
 * `questions` on it: k = 10, ordered by bm25().
 */
export async function benchFts5Peer(engine: Engine, dir: string, questions: string[]): Promise<Fts5PeerFigures> {
  const path = join(dir, 'peer-fts5.db');
  const fresh = !existsSync(path);
  const db = new Database(path);
  try {
    db.pragma('journal_mode = WAL');
    db.exec('CREATE TABLE IF NOT EXISTS build (key TEXT PRIMARY KEY, value REAL NOT NULL)');
    if (fresh) {
      const t0 = performance.now();
      const cpu0 = process.cpuUsage();
      const chunks = await buildFts5(db, engine);
      const cpu = process.cpuUsage(cpu0);
      const put = db.prepare('INSERT OR REPLACE INTO build (key, value) VALUES (?, ?)');
      put.run('chunks', chunks);
      put.run('build_s', (performance.now() - t0) / 1000);
      put.run('build_cpu_s', (cpu.user + cpu.system) / 1e6);
      db.pragma('wal_checkpoint(TRUNCATE)');
    }
    const build = new Map(db.prepare('SELECT key, value FROM build').raw().all() as [string, number][]);
    const top = db.prepare('SELECT rowid FROM peer WHERE peer MATCH ? ORDER BY rank LIMIT 10').pluck();
    const first = fts5Query(questions[0] ?? '');
    if (first) top.all(first);
    const times: number[] = [];
    const cpu: number[] = [];
    for (const q of questions) {
      const t0 = performance.now();
      const c0 = process.cpuUsage();
      const match = fts5Query(q);
      if (match) top.all(match);
      times.push(performance.now() - t0);
      cpu.push(cpuMs(c0));
    }
    const round = (x: number) => Math.round(x * 100) / 100;
    return {
      peer: 'sqlite-fts5',
      sqlite_version: db.prepare('SELECT sqlite_version()').pluck().get() as string,
      chunks: build.get('chunks') ?? 0,
      build_s: round(build.get('build_s') ?? 0),
      build_cpu_s: round(build.get('build_cpu_s') ?? 0),
      index_bytes: usedBytes(db),
      query_ms: percentiles(times),
      query_cpu_ms: percentiles(cpu),
    };
  } finally {
    db.close();
  }
}
