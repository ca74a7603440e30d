import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { readResults } from '@pinpoint/results';
import { describe, expect, it } from 'vitest';
import { benchRecorder } from './recording.js';
import { benchScale, growthExponents, type ScaleResult, scaleMetrics, scalePeer, scaleQueries } from './scale.js';
import { scaleIndexQueries } from './scale-index.js';

const shared = fileURLToPath(new URL('../../../../shared/', import.meta.url));

describe('pnpm bench --scale', () => {
  it('ingests about N chunks through the engine and measures every figure of the JSON line, hybrid included', async () => {
    const keep = join(await mkdtemp(join(tmpdir(), 'pp-scale-test-')), '300');
    const r = await benchScale(shared, {
      chunks: 300,
      hybrid: true,
      peer: true,
      concurrency: 4,
      queries: 12,
      log: () => {},
      keep,
    });
    expect(r.chunks).toBeGreaterThanOrEqual(300);
    expect(r.chunks).toBeLessThan(450);
    expect(r.ingest_tenths_chunks_per_s).toHaveLength(10);
    for (const v of [
      r.ingest_chunks_per_s,
      r.index_bytes,
      r.metadata_bytes,
      r.rss_bytes,
      r.cold_start_ms,
      r.hybrid_cold_start_ms,
    ])
      expect(v).toBeGreaterThan(0);
    for (const p of [r.query_ms, r.hybrid_query_ms]) {
      expect(p?.p50).toBeGreaterThan(0);
      expect(p?.p99).toBeGreaterThanOrEqual(p?.p95 ?? Number.POSITIVE_INFINITY);
    }
    expect(Object.keys(r.hybrid_stage_ms ?? {})).toEqual(expect.arrayContaining(['lexical', 'dense', 'load']));
    // below the graph's threshold the store scans exactly: recall against the exact scan is whole
    expect(r.dense_recall_at_10).toBe(1);
    expect(r.vectors_bytes).toBeGreaterThan(0);
    expect(r.vectors_bytes).toBeLessThan(r.index_bytes);
    // the FTS5 peer indexed every chunk the engine holds and timed the same questions
    expect(r.peer_fts5).toMatchObject({ peer: 'sqlite-fts5', chunks: r.chunks });
    expect(r.peer_fts5?.index_bytes).toBeGreaterThan(0);
    expect(r.peer_fts5?.query_ms.p50).toBeGreaterThan(0);
    expect(r.peer_fts5?.query_cpu_ms.p95).toBeGreaterThanOrEqual(r.peer_fts5?.query_cpu_ms.p50 ?? Number.NaN);
    expect(r.query_cpu_ms.p95).toBeGreaterThanOrEqual(r.query_cpu_ms.p50);
    // --record: one file per size, its figures flat enough for the page's columns
    benchRecorder(['--scale', '300', '--record'], { dir: join(keep, '..', 'results') })('scale', '300', scaleMetrics(r));
    const [file] = readResults(join(keep, '..', 'results'));
    expect(file).toMatchObject({ area: 'scale', name: '300', command: 'pnpm bench --scale 300 --record' });
    expect(file?.metrics).toMatchObject({ chunks: r.chunks, hybrid: true, search_hybrid_ms: r.hybrid_query_ms });
    expect(file?.metrics.first_tenth_chunks_per_s).toBe(r.ingest_tenths_chunks_per_s[0]);
    // the kept folder answers again without ingesting: the same questions, the same stages
    const again = await scaleQueries(shared, keep, { hybrid: true, queries: 6 });
    expect(again.cold_start_ms).toBeGreaterThan(0);
    expect(again.hybrid_cold_start_ms).toBeGreaterThan(0);
    expect(again.hybrid_stage_ms?.dense?.p50).toBeGreaterThan(0);
    // the index alone, on the same questions: CPU per question and the work it did
    const index = await scaleIndexQueries(shared, keep, 6);
    expect(index.cpu_ms.p95).toBeGreaterThanOrEqual(index.cpu_ms.p50);
    expect(index.work.lists).toBeGreaterThan(0);
    expect(index.work.postings).toBeGreaterThan(0);
    // and the peer's index is reused with the figures of its build
    const peerAgain = await scalePeer(shared, keep, 6);
    expect(peerAgain).toMatchObject({ chunks: r.chunks, build_s: r.peer_fts5?.build_s });
    await rm(join(keep, '..'), { recursive: true, force: true });
  }, 300_000);

  it('gives growth exponents: 1 for a cost that grows with the chunks, 0 for a flat one', () => {
    const run = (chunks: number, bytes: number, p95: number) =>
      ({
        chunks,
        ingest_chunks_per_s: 100,
        index_bytes: bytes,
        metadata_bytes: bytes,
        rss_bytes: 1,
        cold_start_ms: 1,
        query_ms: { p50: 1, p95, p99: p95 },
        lexical_stage_ms: { p50: 1, p95, p99: p95 },
        hybrid_query_ms: null,
      }) as unknown as ScaleResult;
    const [g] = growthExponents([run(10_000, 1e6, 5), run(100_000, 1e7, 5)]);
    expect(g?.exponents.index_bytes).toBe(1);
    expect(g?.exponents.query_p95_ms).toBe(0);
    expect(g?.exponents.ingest_seconds_per_chunk).toBe(0);
    expect(scaleMetrics({ ...run(100_000, 1e7, 5), ingest_tenths_chunks_per_s: [100, 80] }, g)).toMatchObject({
      first_to_last_change: -0.2,
      growth: { from_chunks: 10_000, index_bytes: 1 },
    });
  });
});
