/**
 * `pnpm bench --peer`: the best JavaScript search library on Pinpoint's own chunks of an eval set, judged
 * by the eval's relevance rule (`isRelevant`: gold file and page, an expected answer, the gold quote) and
 * metrics (`computeMetrics`: MRR@10, Hit@k on the answerable questions) — retrieval alone, top 10.
 */
import { join } from 'node:path';
import { ingestFiles } from '@pinpoint/cli';
import { computeMetrics, type EvalQuestion, isRelevant, loadDataset, type RetrievedRef } from '@pinpoint/eval';
import { withTempEngine } from './ingest-bench.js';
import { type PeerLibrary, packageVersion, peerLibraries, type Script } from './peer-libraries.js';
import { round } from './recording.js';

export interface PeerFigures {
  script: Script;
  lang: string;
  questions: number;
  chunks: number;
  /** The library with the best MRR@10, and its figures. */
  library: string;
  library_version: string;
  'mrr@10': number;
  'hit@1': number;
  'hit@5': number;
  'hit@10': number;
  /** MRR@10 of every library measured. */
  mrr_by_library: Record<string, number>;
  /** Seconds to build each library's index over the chunks. */
  build_s_by_library: Record<string, number>;
}

/** The set's chunks as Pinpoint's eval ingests them: every ready version's chunks with file name and page. */
async function pinpointChunks(files: string[], set: string): Promise<RetrievedRef[]> {
  return withTempEngine(false, async (engine) => {
    await ingestFiles(engine, set, files, () => {}, { concurrency: 2 });
    const out: RetrievedRef[] = [];
    for (const v of await engine.ports.metadata.listVersions({ state: 'ready' }))
      for (const c of await engine.ports.metadata.listChunks(v.version_id))
        out.push({ file: v.original_name, ...(c.page_index !== undefined ? { page_index: c.page_index } : {}), text: c.text });
    return out;
  });
}

async function measure(library: PeerLibrary, chunks: RetrievedRef[], questions: EvalQuestion[], script: Script, lang: string) {
  const t0 = performance.now();
  const searchTop = await library.build(
    chunks.map((c) => c.text),
    script,
    lang,
  );
  const build = (performance.now() - t0) / 1000;
  const scored = [];
  for (const q of questions) {
    const top = await searchTop(q.question, 10);
    const relevant = top.map((i) => isRelevant(chunks[i] as RetrievedRef, q.gold, q.answers));
    scored.push({ answerable: true, refused: false, relevant, latency_ms: 0 });
  }
  return { metrics: computeMetrics(scored), build };
}

/**
 * Ingests the set's documents (only those the first `limit` answerable questions cite, when `limit` > 0),
 * builds every library's index over the chunks and asks the answerable questions; the best by MRR@10 wins.
 */
export async function benchPeer(shared: string, set: string, o: { limit?: number } = {}): Promise<PeerFigures> {
  const dataset = loadDataset(join(shared, 'eval', set));
  let questions = dataset.questions.filter((q) => q.answerable);
  let files = dataset.files;
  if (o.limit && o.limit > 0) {
    questions = questions.slice(0, o.limit);
    const cited = new Set(questions.flatMap((q) => q.gold.map((g) => g.file)));
    files = files.filter((f) => cited.has(f.name));
  }
  const lang = questions[0]?.lang ?? 'en';
  const script: Script = /^(ja|zh|ko)/.test(lang) ? 'cjk' : 'latin';
  const chunks = await pinpointChunks(
    files.map((f) => f.path),
    set,
  );
  const results = [];
  for (const library of peerLibraries) results.push({ library, ...(await measure(library, chunks, questions, script, lang)) });
  const best = results.reduce((a, b) => (b.metrics['mrr@10'] > a.metrics['mrr@10'] ? b : a));
  console.log(
    `${set.padEnd(11)} ${String(questions.length).padStart(5)} answerable, ${chunks.length} chunks (${script}): ${results
      .map(
        (r) =>
          `${r.library.name} MRR@10 ${r.metrics['mrr@10'].toFixed(3)} (Hit@5 ${r.metrics['hit@5'].toFixed(3)}, build ${r.build.toFixed(1)} s)`,
      )
      .join(' · ')}`,
  );
  return {
    script,
    lang,
    questions: questions.length,
    chunks: chunks.length,
    library: best.library.name,
    library_version: packageVersion(best.library.name),
    'mrr@10': best.metrics['mrr@10'],
    'hit@1': best.metrics['hit@1'],
    'hit@5': best.metrics['hit@5'],
    'hit@10': best.metrics['hit@10'],
    mrr_by_library: Object.fromEntries(results.map((r) => [r.library.name, r.metrics['mrr@10']])),
    build_s_by_library: Object.fromEntries(results.map((r) => [r.library.name, round(r.build)])),
  };
}
