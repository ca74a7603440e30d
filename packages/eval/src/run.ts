import { writeFileSync } from 'node:fs';
import type { Anchor, Calculation, Citation, FigureValue } from '@pinpoint/core';
import { answerContains } from './answer-contains.js';
import type { CellMetrics } from './cell-metrics.js';
import { cellGold, computeCellMetrics } from './cell-metrics.js';
import type { EvalQuestion } from './dataset.js';
import { loadDataset } from './dataset.js';
import type { Metrics, ScoredQuestion } from './metrics.js';
import { computeMetrics, percentile } from './metrics.js';
import type { NaiveRefusal } from './naive.js';
import { naiveRefusal } from './naive.js';
import type { NumericMetrics, NumericQuestion } from './numeric.js';
import { numericMetrics } from './numeric.js';
import type { PageMetrics } from './page-metrics.js';
import { computePageMetrics } from './page-metrics.js';
import { isRelevant } from './relevance.js';

/** What the harness needs from an engine running on a fresh, temporary data folder. */
export interface EvalEngine {
  /** Ingests the dataset's documents; resolves when every file has settled. */
  ingest(files: { path: string; name: string }[]): Promise<void>;
  ask(question: string): Promise<EvalAsk>;
  /** Everything that shaped the run (recipe ids, k, gate, mode…). */
  config(): Record<string, unknown>;
  close(): Promise<void>;
}

export interface EvalRetrieved {
  file: string;
  page_index?: number;
  text: string;
  scores: Record<string, number>;
}

export interface EvalAsk {
  refused: boolean;
  answer: string;
  citations: Citation[];
  /** Ranked, best first; the first 10 are scored. */
  retrieved: EvalRetrieved[];
  /** Per stage, e.g. lexical, answer, total_ms. */
  timings_ms: Record<string, number>;
  /** The refusal gate's decision inputs, when the engine reports them (for calibration with fitGate). */
  gate?: { score: number; threshold: number; features: Record<string, number> };
  /** The documents the question named and was asked of (the scope's summary), when it named any. */
  scope?: string;
  /** A figure answer's number, unit and scale (read by score_numeric.py before the answer's text). */
  value?: FigureValue;
  /** A computed figure's expression and operands. */
  calculation?: Calculation;
}

export interface RunQuestion {
  id: string;
  question: string;
  answerable: boolean;
  refused: boolean;
  answer: string;
  citations: { file: string; page_index?: number; quote: string; anchor: Anchor }[];
  retrieved: (EvalRetrieved & { rank: number; relevant: boolean })[];
  latency_ms: number;
  timings_ms: Record<string, number>;
  gate?: { score: number; threshold: number; features: Record<string, number> };
  scope?: string;
  value?: FigureValue;
  calculation?: Calculation;
}

export interface EvalRun {
  dataset: { path: string; sha256: string };
  config: Record<string, unknown>;
  metrics: Metrics & {
    latency_stages_ms: Record<string, { p50: number; p95: number }>;
    naive_refusal: NaiveRefusal;
    /** Share of answered answerable questions whose answer holds an expected answer string. */
    answer_contains: number;
    /** Sets whose gold is a number: the number each answer states against it (numeric.ts). */
    numeric?: NumericMetrics & { by_kind: Record<string, NumericMetrics> };
  } & Partial<CellMetrics> &
    Partial<PageMetrics>;
  questions: RunQuestion[];
}

export interface RunEvalOptions {
  engineFactory: () => Promise<EvalEngine>;
  /** Where to write the run file. */
  out?: string;
  /** Retrieval mode, recorded in the config (lexical by default). */
  mode?: string;
  onProgress?: (done: number, total: number) => void;
}

async function askOne(engine: EvalEngine, q: EvalQuestion): Promise<RunQuestion> {
  const t0 = performance.now();
  const a = await engine.ask(q.question);
  const latency = Math.round((performance.now() - t0) * 100) / 100;
  return {
    id: q.id,
    question: q.question,
    answerable: q.answerable,
    refused: a.refused,
    answer: a.answer,
    citations: a.citations.map((c) => ({
      file: c.file,
      ...(c.page_index !== undefined ? { page_index: c.page_index } : {}),
      quote: c.quote,
      anchor: c.anchor,
    })),
    retrieved: a.retrieved.slice(0, 10).map((r, i) => ({ rank: i + 1, ...r, relevant: isRelevant(r, q.gold, q.answers) })),
    latency_ms: latency,
    timings_ms: a.timings_ms,
    ...(a.gate ? { gate: a.gate } : {}),
    ...(a.scope ? { scope: a.scope } : {}),
    ...(a.value ? { value: a.value } : {}),
    ...(a.calculation ? { calculation: a.calculation } : {}),
  };
}

function stageLatencies(questions: RunQuestion[]): Record<string, { p50: number; p95: number }> {
  const stages = new Set(questions.flatMap((q) => Object.keys(q.timings_ms)));
  const out: Record<string, { p50: number; p95: number }> = {};
  for (const s of stages) {
    const values = questions.map((q) => q.timings_ms[s]).filter((v): v is number => v !== undefined);
    out[s] = { p50: percentile(values, 50), p95: percentile(values, 95) };
  }
  return out;
}

/** Runs a dataset (DESIGN.md §6) through an engine and scores it; writes the run file when `out` is given. */
export async function runEval(datasetDir: string, options: RunEvalOptions): Promise<EvalRun> {
  const dataset = loadDataset(datasetDir);
  const engine = await options.engineFactory();
  try {
    await engine.ingest(dataset.files);
    const questions: RunQuestion[] = [];
    for (const q of dataset.questions) {
      questions.push(await askOne(engine, q));
      options.onProgress?.(questions.length, dataset.questions.length);
    }
    const scored: ScoredQuestion[] = questions.map((q) => ({
      answerable: q.answerable,
      refused: q.refused,
      relevant: q.retrieved.map((r) => r.relevant),
      latency_ms: q.latency_ms,
    }));
    const cells = computeCellMetrics(
      questions.map((q, i) => ({
        answerable: q.answerable,
        refused: q.refused,
        first: q.citations[0],
        gold: cellGold(dataset.questions[i] as EvalQuestion),
      })),
      `${dataset.path}/docs`,
    );
    const pages = computePageMetrics(questions.map((q, i) => ({ ...q, gold: dataset.questions[i]?.gold ?? [] })));
    const byId = new Map(questions.map((q) => [q.id, q]));
    const numeric = numericMetrics(dataset.questions as NumericQuestion[], (id) => byId.get(id));
    const run: EvalRun = {
      dataset: { path: dataset.path, sha256: dataset.sha256 },
      config: { mode: options.mode ?? 'lexical', ...engine.config() },
      metrics: {
        ...computeMetrics(scored),
        latency_stages_ms: stageLatencies(questions),
        naive_refusal: naiveRefusal(questions),
        answer_contains: answerContains(questions.map((q, i) => ({ ...q, answers: dataset.questions[i]?.answers ?? [] }))),
        ...cells,
        ...pages,
        ...(numeric ? { numeric } : {}),
      },
      questions,
    };
    if (options.out) writeFileSync(options.out, `${JSON.stringify(run, null, 1)}\n`);
    return run;
  } finally {
    await engine.close();
  }
}
