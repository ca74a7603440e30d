/**
 * `pnpm bench --lexical-merge N [--merge-runs R]`: the lexical index's merge of eight segments of N / 8
 * chunks each (the synthetic reports of scale.ts, cut into chunks of about 700 characters), timed
 * with the merge's reads and re-encoding on the index's thread and on the merge thread, the two
 * alternating R times (default 3). A merge's cost to ingestion is the index thread's busy time while
 * it runs (the event loop's active time from the last upsert to the merge's end), not its wall time.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import type { IndexedChunk } from '@pinpoint/core';
import { openLexicalIndex } from '@pinpoint/retrieval';
import { reports, sentencePools } from './scale.js';

const CHUNK_CHARS = 700;
const UPSERT_BATCH = 500;

export interface MergeRun {
  merge_thread: boolean;
  /** The index thread's busy time during the merge. */
  busy_ms: number;
  wall_ms: number;
  ingest_s: number;
}

function chunkTexts(shared: string, n: number): string[] {
  const out: string[] = [];
  const gen = reports(sentencePools(shared), 7);
  while (out.length < n) {
    const { text } = gen.next().value as { text: string };
    for (let at = 0; at < text.length && out.length < n; at += CHUNK_CHARS) out.push(text.slice(at, at + CHUNK_CHARS));
  }
  return out;
}

async function once(texts: string[], mergeThread: boolean): Promise<MergeRun> {
  const dir = await mkdtemp(join(tmpdir(), 'pinpoint-merge-'));
  const index = openLexicalIndex(join(dir, 'lexical.db'), {
    segmentChunks: Math.ceil(texts.length / 8),
    analysisThread: true,
    mergeThread,
  });
  try {
    const started = performance.now();
    for (let i = 0; i < texts.length; i += UPSERT_BATCH) {
      const batch: IndexedChunk[] = texts.slice(i, i + UPSERT_BATCH).map((text, j) => ({
        chunk_id: `c${i + j}`,
        version_id: `v${Math.floor((i + j) / 60)}`,
        document_id: `d${Math.floor((i + j) / 60)}`,
        collection_id: 'bench',
        retrieval_text: text,
      }));
      await index.upsert(batch);
    }
    const elu0 = performance.eventLoopUtilization();
    const t0 = performance.now();
    await index.merged();
    const elu = performance.eventLoopUtilization(elu0);
    return {
      merge_thread: mergeThread,
      busy_ms: Math.round(elu.active),
      wall_ms: Math.round(performance.now() - t0),
      ingest_s: Math.round((t0 - started) / 100) / 10,
    };
  } finally {
    await index.close();
    await rm(dir, { recursive: true, force: true });
  }
}

export async function benchMerge(
  shared: string,
  o: { chunks: number; runs: number; log: (line: string) => void },
): Promise<{ runs: MergeRun[]; median_busy_ms: { merge_thread: number; index_thread: number } }> {
  const texts = chunkTexts(shared, o.chunks);
  const runs: MergeRun[] = [];
  for (let r = 0; r < o.runs; r++) {
    for (const mergeThread of r % 2 === 0 ? [false, true] : [true, false]) {
      const run = await once(texts, mergeThread);
      o.log(
        `  merge of 8 × ${Math.ceil(o.chunks / 8)} chunks, ${mergeThread ? 'merge thread' : 'index thread'}: busy ${run.busy_ms} ms, wall ${run.wall_ms} ms (ingested in ${run.ingest_s} s)`,
      );
      runs.push(run);
    }
  }
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] as number;
  const busy = (t: boolean) => median(runs.filter((r) => r.merge_thread === t).map((r) => r.busy_ms));
  return { runs, median_busy_ms: { merge_thread: busy(true), index_thread: busy(false) } };
}
