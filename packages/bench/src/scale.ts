/**
 * `pnpm bench --scale N [--json] [--no-hybrid]`: the embedded default at N chunks. A deterministic
 * corpus of long synthetic reports is built from the text of ../shared/eval and ../shared/corpus
 * (sentences recombined by a seeded generator, so every chunk differs), uploaded as text files and
 * ingested by the engine's own worker (parse, chunk, analyse, metadata, lexical index — and with the
 * test ONNX embedder at 384 dimensions, the vectors). Reports ingest chunks/s per tenth, sizes on
 * disk, peak RSS, cold start and query latency; with --json the last line is one JSON object.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { openEmbeddedEngine } from '@pinpoint/cli';
import type { ModelPorts } from '@pinpoint/compose';
import { createModelPorts } from '@pinpoint/compose';
import type { Version } from '@pinpoint/core';
import type { Engine } from '@pinpoint/engine';
import { defaultEngineConfig } from '@pinpoint/engine';
import { seededRandom, writeTinyEncoder } from '@pinpoint/testing';
import { decodeVector } from '@pinpoint/vectors';
import Database from 'better-sqlite3';
import { benchFts5Peer, type Fts5PeerFigures } from './fts5-peer.js';
import { cpuMs, type Percentiles, percentiles, scaleQuestions } from './scale-questions.js';

export interface ScaleOptions {
  chunks: number;
  hybrid: boolean;
  /** Ingestion jobs at once: with the analyzer, the embedder and the vector index in threads, 4 keep both cores busy. */
  concurrency: number;
  queries: number;
  /** Also index the chunks in SQLite FTS5 and time the same questions there. */
  peer: boolean;
  log: (line: string) => void;
  /** Ingest into this folder and keep it (a later run can time its questions again with `reuse`). */
  keep?: string;
}

export interface ScaleResult {
  chunks: number;
  ingest_chunks_per_s: number;
  ingest_tenths_chunks_per_s: number[];
  /** Chunks per CPU second of this process while ingesting (what the machine's other load does not change). */
  ingest_chunks_per_cpu_s: number;
  load_average: number;
  index_bytes: number;
  metadata_bytes: number;
  rss_bytes: number;
  cold_start_ms: number;
  /** The same with the encoder and the vectors: reopen and answer a first hybrid question (null without hybrid). */
  hybrid_cold_start_ms: number | null;
  query_ms: Percentiles;
  /** CPU time of this process per lexical search: what the machine's other load changes least. */
  query_cpu_ms: Percentiles;
  lexical_stage_ms: Percentiles;
  hybrid_query_ms: Percentiles | null;
  /** Per stage of a hybrid `engine.search` (the engine's own timings: lexical, dense, load). */
  hybrid_stage_ms: Record<string, Percentiles> | null;
  /**
   * The vector store's top 10 against an exact scan of every stored vector, over the first questions:
   * the share of its hits scoring at least the exact 10th (ties count once found). Null without hybrid.
   */
  dense_recall_at_10: number | null;
  /** Of index_bytes, the vectors: their SQLite file and the graph saved beside it. */
  vectors_bytes: number;
  /** SQLite FTS5 over the same chunks' terms, the same questions (null with --no-peer). */
  peer_fts5: Fts5PeerFigures | null;
}

/** The question figures of a data folder: cold start, then lexical and hybrid latency. */
export type QueryFigures = Pick<
  ScaleResult,
  | 'cold_start_ms'
  | 'hybrid_cold_start_ms'
  | 'query_ms'
  | 'query_cpu_ms'
  | 'lexical_stage_ms'
  | 'hybrid_query_ms'
  | 'hybrid_stage_ms'
  | 'dense_recall_at_10'
>;

const SENTENCE = /[^.!?。！？\n]+[.!?。！？]*/gu;

/** Sentences of the text files beside the eval sets and in the corpus, by script (Latin / CJK). */
export function sentencePools(shared: string): { latin: string[]; cjk: string[] } {
  const files: string[] = [];
  for (const set of readdirSync(join(shared, 'eval'))) {
    const docs = join(shared, 'eval', set, 'docs');
    if (statSync(join(shared, 'eval', set)).isDirectory() && readdirSync(join(shared, 'eval', set)).includes('docs'))
      for (const f of readdirSync(docs)) if (/\.(md|txt)$/.test(f)) files.push(join(docs, f));
  }
  for (const ext of ['txt', 'md'])
    for (const f of readdirSync(join(shared, 'corpus/formats', ext))) files.push(join(shared, 'corpus/formats', ext, f));
  const latin: string[] = [];
  const cjk: string[] = [];
  for (const f of files.sort()) {
    const text = readFileSync(f, 'utf8');
    if (text.includes('\ufffd') || text.includes('\u0000')) continue;
    for (const m of text.replace(/[#*_`>|[\]()]/g, ' ').matchAll(SENTENCE)) {
      const s = m[0].replace(/\s+/g, ' ').trim();
      if (s.length < 12 || s.length > 400) continue;
      (/[\u3040-\u30ff\u4e00-\u9fff]/.test(s) ? cjk : latin).push(s);
    }
  }
  return { latin, cjk };
}

/** Long reports: a title, then sections of paragraphs of recombined sentences (one script per report). */
export function* reports(
  pools: { latin: string[]; cjk: string[] },
  seed: number,
): Generator<{ name: string; text: string; chars: number }> {
  const rnd = seededRandom(seed);
  const pick = <T>(a: T[]): T => a[Math.floor(rnd() * a.length)] as T;
  for (let n = 0; ; n++) {
    const cjk = rnd() < 0.35;
    const pool = cjk ? pools.cjk : pools.latin;
    const sep = cjk ? '' : ' ';
    const paragraphs: string[] = [`Report ${n + 1} (${1990 + (n % 35)})`];
    const sections = 6 + Math.floor(rnd() * 10);
    for (let s = 0; s < sections; s++) {
      paragraphs.push(`${s + 1}. ${pick(pool).slice(0, 60)}`);
      const paras = 2 + Math.floor(rnd() * 5);
      for (let p = 0; p < paras; p++) {
        const sentences = 2 + Math.floor(rnd() * 6);
        const out: string[] = [];
        // A run of neighbouring sentences from one place, then a jump: text that reads like prose yet never repeats.
        let at = Math.floor(rnd() * pool.length);
        for (let i = 0; i < sentences; i++) {
          out.push(pool[at % pool.length] as string);
          at = rnd() < 0.6 ? at + 1 : Math.floor(rnd() * pool.length);
        }
        paragraphs.push(out.join(sep));
      }
    }
    const text = paragraphs.join('\n\n');
    yield { name: `report-${String(n + 1).padStart(7, '0')}.txt`, text, chars: text.length };
  }
}

function bytesOf(path: string): number {
  try {
    const st = statSync(path);
    if (!st.isDirectory()) return st.size;
    return readdirSync(path).reduce((sum, f) => sum + bytesOf(join(path, f)), 0);
  } catch {
    return 0;
  }
}

const withWal = (path: string) => bytesOf(path) + bytesOf(`${path}-wal`);
const vectorsBytes = (dataDir: string) =>
  withWal(join(dataDir, 'vectors.db')) +
  bytesOf(join(dataDir, 'vectors.db.usearch')) +
  bytesOf(join(dataDir, 'vectors.db.usearch.json'));

async function timeQueries(
  engine: Engine,
  qs: string[],
): Promise<{ total: number[]; cpu: number[]; lexical: number[]; stages: Record<string, number[]> }> {
  const total: number[] = [];
  const cpu: number[] = [];
  const lexical: number[] = [];
  const stages: Record<string, number[]> = {};
  for (const q of qs) {
    const t0 = performance.now();
    const c0 = process.cpuUsage();
    const r = await engine.search(q, { k: 10 });
    total.push(performance.now() - t0);
    cpu.push(cpuMs(c0));
    lexical.push(r.timings.lexical ?? 0);
    for (const [stage, t] of Object.entries(r.timings)) {
      if (stage === 'total_ms') continue;
      const ts = stages[stage] ?? [];
      stages[stage] = ts;
      ts.push(t);
    }
  }
  return { total, cpu, lexical, stages };
}

/** The test encoder of a scale run: built from the pools' words, in the data folder's parent. */
async function writeScaleEncoder(pools: { latin: string[]; cjk: string[] }, dir: string): Promise<void> {
  const words = [...new Set(pools.latin.flatMap((s) => s.toLowerCase().match(/\p{L}+/gu) ?? []))].slice(0, 8000);
  const cjk = [...new Set(pools.cjk.join('').match(/[\u3040-\u30ff\u4e00-\u9fff]/gu) ?? [])].slice(0, 4000);
  await writeTinyEncoder(dir, [...words, ...cjk], 384);
}

function openScaleModels(dir: string, dataDir: string): Promise<ModelPorts> {
  return createModelPorts(
    {
      embedder: { kind: 'onnx', modelDir: join(dir, 'encoder') },
      generator: { kind: 'none' },
      reranker: { kind: 'none' },
      vectors: { kind: 'embedded' },
    },
    dataDir,
  );
}

const scaleConfig = { ...defaultEngineConfig, parse: { ...defaultEngineConfig.parse, isolate: false } };

/**
 * Cold start (open the folder and answer the first question), then the lexical questions; with
 * `hybrid`, the folder opened again with the encoder and the vectors and the same questions.
 * `dir` holds `data/` (and `encoder/` for hybrid), as a scale run leaves it.
 */
export async function scaleQueries(shared: string, dir: string, o: { hybrid: boolean; queries: number }): Promise<QueryFigures> {
  const dataDir = join(dir, 'data');
  const qs = scaleQuestions(shared, o.queries);
  const t0 = performance.now();
  let engine = openEmbeddedEngine(dataDir, scaleConfig, {});
  try {
    await engine.search(qs[0] as string, { k: 10 });
    const coldStart = performance.now() - t0;
    const lexical = await timeQueries(engine, qs);
    await engine.close();
    let hybrid: Awaited<ReturnType<typeof timeQueries>> | null = null;
    let recall: number | null = null;
    let hybridColdStart: number | null = null;
    if (o.hybrid) {
      const t1 = performance.now();
      const models = await openScaleModels(dir, dataDir);
      engine = openEmbeddedEngine(dataDir, scaleConfig, models);
      await engine.search(qs[0] as string, { k: 10 });
      hybridColdStart = Math.round(performance.now() - t1);
      hybrid = await timeQueries(engine, qs);
      recall = await denseRecall(models, join(dataDir, 'vectors.db'), qs.slice(0, RECALL_QUESTIONS));
    }
    return {
      cold_start_ms: Math.round(coldStart),
      hybrid_cold_start_ms: hybridColdStart,
      query_ms: percentiles(lexical.total),
      query_cpu_ms: percentiles(lexical.cpu),
      lexical_stage_ms: percentiles(lexical.lexical),
      hybrid_query_ms: hybrid ? percentiles(hybrid.total) : null,
      hybrid_stage_ms: hybrid
        ? Object.fromEntries(Object.entries(hybrid.stages).map(([stage, ts]) => [stage, percentiles(ts)]))
        : null,
      dense_recall_at_10: recall,
    };
  } finally {
    await engine.close().catch(() => undefined);
  }
}

const RECALL_QUESTIONS = 100;

function unitVector(v: Float32Array): Float32Array {
  const n = Math.hypot(...v) || 1;
  return v.map((x) => x / n);
}

/**
 * Dense recall@10 of the vector store (its graph past the threshold) against an exact scan of the
 * vectors in its SQLite file (as stored: the store scores the same rounded values), for these questions: one pass over the file scores every question.
 * The store's hits carry exact scores (the graph only chooses candidates; the float vectors score
 * them), so a hit is right when it scores at least the exact 10th.
 */
async function denseRecall(models: ModelPorts, vectorsFile: string, qs: string[]): Promise<number | null> {
  const { embedder, vectors } = models;
  if (!embedder || !vectors || qs.length === 0) return null;
  const queries = await Promise.all(qs.map(async (q) => unitVector(await embedder.embedQuery(q))));
  const found = await Promise.all(queries.map((q) => vectors.search(q, { k: 10 })));
  const tops = queries.map(() => [] as number[]);
  const db = new Database(vectorsFile, { readonly: true });
  try {
    const d = embedder.dimensions;
    for (const { vector } of db.prepare('SELECT vector FROM pp_vectors').iterate() as IterableIterator<{ vector: Buffer }>) {
      const v = decodeVector(vector, d);
      for (const [i, q] of queries.entries()) {
        let s = 0;
        for (let j = 0; j < d; j++) s += (q[j] as number) * (v[j] as number);
        const top = tops[i] as number[];
        if (top.length < 10 || s > (top[9] as number)) {
          top.push(s);
          top.sort((a, b) => b - a);
          if (top.length > 10) top.pop();
        }
      }
    }
  } finally {
    db.close();
  }
  let right = 0;
  let asked = 0;
  for (const [i, hits] of found.entries()) {
    const top = tops[i] as number[];
    const tenth = top.at(-1) ?? Number.NEGATIVE_INFINITY;
    asked += top.length;
    right += hits.filter((h) => h.score >= tenth - 1e-6).length;
  }
  return asked > 0 ? Math.round((right / asked) * 1000) / 1000 : null;
}

/** The FTS5 peer on a data folder a scale run left (built there once, then reused). */
export async function scalePeer(shared: string, dir: string, queries: number): Promise<Fts5PeerFigures> {
  const engine = openEmbeddedEngine(join(dir, 'data'), scaleConfig, {});
  try {
    return await benchFts5Peer(engine, dir, scaleQuestions(shared, queries));
  } finally {
    await engine.close();
  }
}

export async function benchScale(shared: string, o: ScaleOptions): Promise<ScaleResult> {
  const dir = o.keep ?? (await mkdtemp(join(tmpdir(), 'pinpoint-scale-')));
  const dataDir = join(dir, 'data');
  const pools = sentencePools(shared);
  o.log(`sentence pools: ${pools.latin.length} Latin, ${pools.cjk.length} CJK`);
  if (o.hybrid) await writeScaleEncoder(pools, join(dir, 'encoder'));
  const engine = openEmbeddedEngine(dataDir, scaleConfig, o.hybrid ? await openScaleModels(dir, dataDir) : {});
  try {
    engine.startWorker({ concurrency: o.concurrency });
    const collection = await engine.ensureCollection('scale');
    const tenth = o.chunks / 10;
    // (chunks ready, seconds) after each batch; the time a tenth was crossed is interpolated between them.
    const points: [number, number][] = [[0, 0]];
    let done = 0;
    let sent = 0;
    const started = performance.now();
    const cpu0 = process.cpuUsage();
    const gen = reports(pools, 42);
    const batchChunks = Math.max(50, Math.min(2000, Math.round(tenth / 4)));
    const inFlight: Promise<Version[]>[] = [];
    const settle = async () => {
      const versions = await (inFlight.shift() as Promise<Version[]>);
      const before = done;
      for (const v of versions) done += (v.stats as { chunks?: number } | null)?.chunks ?? 0;
      const t = (performance.now() - started) / 1000;
      points.push([done, t]);
      if (Math.floor(before / tenth) !== Math.floor(done / tenth))
        o.log(`  ${done} chunks in ${t.toFixed(1)} s (${(done / t).toFixed(0)} chunks/s)`);
    };
    // Two batches in flight, so the workers never wait for the bench to upload the next one. Chunks per
    // character is learnt from the settled batches, so the run stops close to N chunks.
    let charsSettled = 0;
    let charsPerChunk = 630;
    const batchChars: number[] = [];
    while (sent < o.chunks) {
      const batch: { name: string; bytes: Uint8Array }[] = [];
      let chars = 0;
      for (let est = 0; est < Math.min(batchChunks, o.chunks - sent); ) {
        const r = gen.next().value as { name: string; text: string; chars: number };
        batch.push({ name: r.name, bytes: new TextEncoder().encode(r.text) });
        chars += r.chars;
        est += r.chars / charsPerChunk;
      }
      sent += Math.round(chars / charsPerChunk);
      batchChars.push(chars);
      const uploaded = await engine.upload(collection.collection_id, batch);
      inFlight.push(
        engine.waitForVersions(
          uploaded.map((u) => u.version.version_id),
          { timeoutMs: 3_600_000 },
        ),
      );
      if (inFlight.length >= 2) {
        await settle();
        charsSettled += batchChars.shift() ?? 0;
        charsPerChunk = charsSettled / Math.max(1, done);
        sent = done + batchChars.reduce((n, c) => n + Math.round(c / charsPerChunk), 0);
      }
    }
    while (inFlight.length > 0) await settle();
    const seconds = (performance.now() - started) / 1000;
    const cpu = process.cpuUsage(cpu0);
    const cpuSeconds = (cpu.user + cpu.system) / 1e6;
    const load = loadavg()[0] ?? 0;
    const at = (c: number): number => {
      const i = points.findIndex(([n]) => n >= c);
      if (i <= 0) return points[Math.max(0, i)]?.[1] ?? seconds;
      const [n0, t0] = points[i - 1] as [number, number];
      const [n1, t1] = points[i] as [number, number];
      return t0 + ((t1 - t0) * (c - n0)) / Math.max(1, n1 - n0);
    };
    const step = done / 10;
    const tenths = Array.from({ length: 10 }, (_, i) => Math.round(step / Math.max(1e-6, at(step * (i + 1)) - at(step * i))));
    await engine.close();
    const figures = await scaleQueries(shared, dir, o);
    // read before the peer runs, so the peak is Pinpoint's alone
    const rss = process.resourceUsage().maxRSS * 1024;
    // the graph is saved beside the vectors at close
    const vectors = vectorsBytes(dataDir);
    if (o.peer) o.log('  FTS5 peer: indexing the same chunks');
    const peer = o.peer ? await scalePeer(shared, dir, o.queries) : null;
    return {
      chunks: done,
      ingest_chunks_per_s: Math.round(done / seconds),
      ingest_tenths_chunks_per_s: tenths,
      ingest_chunks_per_cpu_s: Math.round(done / cpuSeconds),
      load_average: Math.round(load * 10) / 10,
      index_bytes: withWal(join(dataDir, 'lexical.db')) + vectors,
      vectors_bytes: vectors,
      metadata_bytes: withWal(join(dataDir, 'metadata.db')),
      rss_bytes: rss,
      ...figures,
      peer_fts5: peer,
    };
  } finally {
    await engine.close().catch(() => undefined);
    if (!o.keep) await rm(dir, { recursive: true, force: true });
  }
}

/** The human-readable lines of a scale run. */
export function scaleReport(r: ScaleResult): string {
  const mb = (n: number) => `${(n / 2 ** 20).toFixed(0)} MiB`;
  const p = (x: Percentiles | null) => (x ? `p50 ${x.p50} / p95 ${x.p95} / p99 ${x.p99} ms` : 'not measured');
  return [
    `scale: ${r.chunks} chunks`,
    `  ingest ${r.ingest_chunks_per_s} chunks/s (${r.ingest_chunks_per_cpu_s} per CPU second; load average ${r.load_average}); per tenth ${r.ingest_tenths_chunks_per_s.join(', ')}`,
    `  lexical index + vectors ${mb(r.index_bytes)} (vectors and their graph ${mb(r.vectors_bytes)}), metadata ${mb(r.metadata_bytes)}, peak RSS ${mb(r.rss_bytes)}`,
    `  cold start (reopen + first query) ${r.cold_start_ms} ms${r.hybrid_cold_start_ms === null ? '' : `; hybrid (with the encoder and the vectors) ${r.hybrid_cold_start_ms} ms`}`,
    `  search, lexical: ${p(r.query_ms)} (lexical stage ${p(r.lexical_stage_ms)}; CPU ${p(r.query_cpu_ms)})`,
    `  search, hybrid (ONNX 384-d test encoder): ${p(r.hybrid_query_ms)}`,
    ...Object.entries(r.hybrid_stage_ms ?? {}).map(([stage, x]) => `    hybrid stage ${stage}: ${p(x)}`),
    ...(r.dense_recall_at_10 === null ? [] : [`    dense recall@10 against an exact scan: ${r.dense_recall_at_10}`]),
    ...(r.peer_fts5
      ? [
          `  peer SQLite FTS5 ${r.peer_fts5.sqlite_version} (bm25, same terms): ${p(r.peer_fts5.query_ms)} (CPU ${p(r.peer_fts5.query_cpu_ms)}); index ${mb(r.peer_fts5.index_bytes)}, built in ${r.peer_fts5.build_s} s`,
        ]
      : []),
  ].join('\n');
}

/** Cost ∝ chunks^e between successive runs: e per measured cost (1 = linear, 0 = flat). */
export function growthExponents(runs: ScaleResult[]): { from: number; to: number; exponents: Record<string, number> }[] {
  const costs = (r: ScaleResult): Record<string, number> => ({
    ingest_seconds_per_chunk: 1 / r.ingest_chunks_per_s,
    index_bytes: r.index_bytes,
    vectors_bytes: r.vectors_bytes,
    metadata_bytes: r.metadata_bytes,
    rss_bytes: r.rss_bytes,
    cold_start_ms: r.cold_start_ms,
    query_p95_ms: r.query_ms.p95,
    lexical_stage_p95_ms: r.lexical_stage_ms.p95,
    ...(r.hybrid_query_ms ? { hybrid_p95_ms: r.hybrid_query_ms.p95 } : {}),
  });
  return runs.slice(1).map((r, i) => {
    const prev = runs[i] as ScaleResult;
    const a = costs(prev);
    const b = costs(r);
    const scale = Math.log(r.chunks / prev.chunks);
    const exponents = Object.fromEntries(
      Object.keys(b)
        .filter((k) => (a[k] ?? 0) > 0 && (b[k] ?? 0) > 0)
        .map((k) => [k, Math.round((Math.log((b[k] as number) / (a[k] as number)) / scale) * 100) / 100]),
    );
    return { from: prev.chunks, to: r.chunks, exponents };
  });
}

/** The figures of one size as a result file holds them (`results/scale/<N>.json`); `growth` from the size before it. */
export function scaleMetrics(r: ScaleResult, growth?: { from: number; exponents: Record<string, number> }): object {
  const tenths = r.ingest_tenths_chunks_per_s;
  const first = tenths[0] ?? 0;
  const last = tenths.at(-1) ?? 0;
  return {
    chunks: r.chunks,
    hybrid: r.hybrid_query_ms !== null,
    ingest_chunks_per_s: r.ingest_chunks_per_s,
    ingest_chunks_per_cpu_s: r.ingest_chunks_per_cpu_s,
    ingest_tenths_chunks_per_s: tenths,
    first_tenth_chunks_per_s: first,
    last_tenth_chunks_per_s: last,
    slowest_tenth_chunks_per_s: Math.min(...tenths),
    first_to_last_change: first > 0 ? Math.round((last / first - 1) * 1000) / 1000 : null,
    peak_rss_bytes: r.rss_bytes,
    index_bytes: r.index_bytes,
    vectors_bytes: r.vectors_bytes,
    metadata_bytes: r.metadata_bytes,
    cold_start_ms: r.cold_start_ms,
    hybrid_cold_start_ms: r.hybrid_cold_start_ms,
    search_lexical_ms: r.query_ms,
    search_lexical_cpu_ms: r.query_cpu_ms,
    lexical_stage_ms: r.lexical_stage_ms,
    search_hybrid_ms: r.hybrid_query_ms,
    hybrid_stage_p95_ms: r.hybrid_stage_ms
      ? Object.fromEntries(Object.entries(r.hybrid_stage_ms).map(([stage, p]) => [stage, p.p95]))
      : null,
    dense_recall_at_10: r.dense_recall_at_10,
    peer_fts5: r.peer_fts5,
    ...(growth ? { growth: { from_chunks: growth.from, ...growth.exponents } } : {}),
  };
}
