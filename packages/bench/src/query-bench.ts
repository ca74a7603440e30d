/** `pnpm bench` question latency: `engine.ask` end to end, in process, after ingesting the set. */
import { join } from 'node:path';
import { ingestFiles } from '@pinpoint/cli';
import { loadDataset } from '@pinpoint/eval';
import { withTempEngine } from './ingest-bench.js';
import { round } from './recording.js';

export interface QueryFigures {
  questions: number;
  ask_ms: { p50: number; p95: number };
  lexical_ms: { p50: number; p95: number };
}

function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? Number.NaN;
}

/** Ingests the set's documents, asks its questions (the first `limit` when > 0) one after the other. */
export async function benchQueries(
  shared: string,
  set: string,
  o: { limit: number; concurrency: number },
): Promise<QueryFigures> {
  const dataset = loadDataset(join(shared, 'eval', set));
  const questions = o.limit > 0 ? dataset.questions.slice(0, o.limit) : dataset.questions;
  return withTempEngine(false, async (engine) => {
    await ingestFiles(
      engine,
      set,
      dataset.files.map((f) => f.path),
      () => {},
      { concurrency: o.concurrency },
    );
    const total: number[] = [];
    const lexical: number[] = [];
    for (const q of questions) {
      const t0 = performance.now();
      const a = await engine.ask(q.question);
      total.push(performance.now() - t0);
      lexical.push(a.timings.lexical ?? 0);
    }
    total.sort((a, b) => a - b);
    lexical.sort((a, b) => a - b);
    const f = (n: number): string => n.toFixed(1).padStart(7);
    console.log(
      `${set.padEnd(11)} ${String(questions.length).padStart(5)}  ask p50 ${f(percentile(total, 50))} ms  p95 ${f(percentile(total, 95))} ms   lexical p50 ${f(percentile(lexical, 50))} ms  p95 ${f(percentile(lexical, 95))} ms`,
    );
    const pair = (s: number[]) => ({ p50: round(percentile(s, 50)), p95: round(percentile(s, 95)) });
    return { questions: questions.length, ask_ms: pair(total), lexical_ms: pair(lexical) };
  });
}
