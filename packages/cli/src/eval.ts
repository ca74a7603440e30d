import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import type { ModelsConfig } from '@pinpoint/compose';
import { createModelPorts } from '@pinpoint/compose';
import type { EngineConfig } from '@pinpoint/engine';
import type { EvalAsk, EvalEngine, EvalRun } from '@pinpoint/eval';
import { writeOfftopicDataset } from '@pinpoint/eval';
import { commandLine, recordResult } from '@pinpoint/results';
import { openEmbeddedEngine } from './embedded.js';
import { ingestFiles } from './ingest.js';

/** An engine on a fresh temporary data folder, shaped for the eval harness (DESIGN.md §6). */
export async function createEvalEngine(config: EngineConfig, concurrency: number, models?: ModelsConfig): Promise<EvalEngine> {
  const dir = mkdtempSync(join(tmpdir(), 'pinpoint-eval-'));
  // The eval measures extractive answers and the gate; a generator only serves the LLM reranker.
  const { generator: _generator, ...ports } = models ? await createModelPorts(models, dir) : {};
  const engine = openEmbeddedEngine(dir, config, ports);
  return {
    async ingest(files) {
      await ingestFiles(
        engine,
        'eval',
        files.map((f) => f.path),
        () => {},
        { concurrency },
      );
    },
    async ask(question): Promise<EvalAsk> {
      const a = await engine.ask(question);
      return {
        refused: a.refused,
        answer: a.answer,
        citations: a.citations,
        retrieved: a.retrieved.map((r) => ({
          file: r.file,
          ...(r.page_index !== undefined ? { page_index: r.page_index } : {}),
          text: r.text,
          scores: Object.fromEntries(Object.entries(r.scores).filter(([, v]) => v !== undefined)) as Record<string, number>,
        })),
        timings_ms: a.timings,
        ...(a.gate ? { gate: a.gate } : {}),
        ...(a.scope ? { scope: a.scope.summary } : {}),
        ...(a.value ? { value: a.value } : {}),
        ...(a.calculation ? { calculation: a.calculation } : {}),
      };
    },
    config: () => ({
      ...engine.settings(),
      embedder: ports.embedder?.id ?? null,
      reranker: ports.reranker?.id ?? null,
    }),
    async close() {
      await engine.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/**
 * Runs `fn` on the dataset folder, or — with `offtopicFrom` — on an off-topic set built in a
 * temporary folder from it (`writeOfftopicDataset`), named `BASE-offtopic-OTHER`, removed after.
 */
export async function withDataset<T>(dir: string, offtopicFrom: string | undefined, fn: (dir: string) => Promise<T>): Promise<T> {
  if (!offtopicFrom) return fn(dir);
  const tmp = mkdtempSync(join(tmpdir(), 'pinpoint-offtopic-'));
  try {
    const path = join(tmp, `${basename(dir)}-offtopic-${basename(offtopicFrom)}`);
    writeOfftopicDataset(dir, offtopicFrom, path);
    return await fn(path);
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
}

/** The run's figures as `results/eval/<set>[-<mode>].json`, for the benchmarks page (questions left out). */
export function recordEvalRun(run: EvalRun, argv: readonly string[], dir?: string, note?: string): string {
  const mode = String(run.config.mode ?? 'lexical');
  const set = basename(run.dataset.path);
  const langs = new Map<string, number>();
  for (const line of readFileSync(join(run.dataset.path, 'questions.jsonl'), 'utf8').split('\n')) {
    const lang = line.trim() ? (JSON.parse(line) as { lang?: string }).lang : undefined;
    if (lang) langs.set(lang, (langs.get(lang) ?? 0) + 1);
  }
  const language = [...langs].sort((a, b) => b[1] - a[1])[0]?.[0];
  return recordResult({
    area: 'eval',
    name: mode === 'lexical' ? set : `${set}-${mode}`,
    command: commandLine('pinpoint', argv),
    metrics: {
      ...run.metrics,
      questions: run.questions.length,
      answerable: run.questions.filter((q) => q.answerable).length,
      ...(language ? { language } : {}),
      mode,
      dataset_sha256: run.dataset.sha256,
    },
    ...(dir ? { dir } : {}),
    ...(note ? { note } : {}),
  });
}
