import { writeFileSync } from 'node:fs';
import { basename } from 'node:path';
import { DEFAULT_GATE, EVIDENCE_FEATURES, gateFamily } from '@pinpoint/answering';
import type { GateFile } from '@pinpoint/core';
import type { CalibrationInput } from '@pinpoint/eval';
import { calibrateGate, runEval } from '@pinpoint/eval';
import type { CliConfig } from './config.js';
import { createEvalEngine, withDataset } from './eval.js';

/**
 * `pinpoint calibrate <dataset-dir…> --out gate.json [--mode M] [--min-answered 0.91] [--min-answered SET=0.85 …] [--floor SET=0.8 …]`: runs each
 * dataset through a fresh engine in the given retrieval mode, fits the refusal gate on the features
 * of every question, and writes the gate file that PINPOINT_GATE_FILE loads.
 */
export async function calibrate(
  cfg: CliConfig,
  dirs: string[],
  out: string,
  minAnswered: number,
  progress: (line: string) => void = () => {},
): Promise<GateFile> {
  const inputs: CalibrationInput[] = [];
  const floors: Record<string, number> = {};
  const minAnsweredBySet: Record<string, number> = {};
  const mode = cfg.flags.mode ?? 'lexical';
  let models: { embedder: string | null; reranker: string | null } = { embedder: null, reranker: null };
  const sets = [
    ...dirs.map((dir) => ({ dir: cfg.resolvePath(dir), offtopicFrom: undefined as string | undefined })),
    ...cfg.flags.offtopic.map((p) => ({ dir: p.base, offtopicFrom: p.other })),
  ];
  for (const { dir, offtopicFrom } of sets) {
    const run = await withDataset(dir, offtopicFrom, (path) =>
      runEval(path, { engineFactory: () => createEvalEngine(cfg.engine, cfg.concurrency, cfg.models), mode }),
    );
    models = {
      embedder: (run.config.embedder as string | null) ?? null,
      reranker: (run.config.reranker as string | null) ?? null,
    };
    // An off-topic set lives in a temporary folder: it is named by what builds it again.
    const dataset = offtopicFrom ? { ...run.dataset, path: `${dir} --offtopic-from ${offtopicFrom}` } : run.dataset;
    inputs.push({ dataset, questions: run.questions, naive: run.metrics.naive_refusal.balanced_accuracy });
    const name = offtopicFrom ? `${basename(dir)}+${basename(offtopicFrom)}` : basename(dir);
    const floor = cfg.flags.floors[name];
    if (floor !== undefined) floors[dataset.path] = floor;
    const own = cfg.flags.minAnsweredSets[name];
    if (own !== undefined) minAnsweredBySet[dataset.path] = own;
    progress(`${run.dataset.path}: ${run.questions.length} questions, mode ${mode}`);
  }
  const file = calibrateGate(inputs, {
    familyOf: gateFamily,
    current: cfg.engine.gate?.config.models ?? DEFAULT_GATE.models,
    positive: [...EVIDENCE_FEATURES],
    minAnswered,
    minAnsweredBySet,
    floorFeature: 'cov_window',
    // A few coordinate rounds after the logistic fit, towards the operating point the gate is judged at.
    refineRounds: 3,
    floors,
    run: { mode, ...models },
  });
  writeFileSync(out, `${JSON.stringify(file, null, 2)}\n`);
  return file;
}

/**
 * The calibration as tables: per dataset, what the fitted gate does on it; then per fold, what the
 * gate fitted without that set does on it, beside the naive best-score threshold of the same run,
 * the fold's score AUC on it and what its own best threshold would give (short by ranking or threshold).
 */
export function calibrationTable(file: GateFile): string {
  const pct = (x: number) => x.toFixed(3);
  // Folders dropped: "jsquad-dev --offtopic-from jaquad-dev" stays readable.
  const name = (p: string) => p.replace(/[^\s]*\//gu, '').padEnd(38);
  const rows = file.datasets.map(
    (d) =>
      `${name(d.path)} ${d.family.padEnd(6)} answered ${pct(d.answerable_recall)}  refused ${pct(d.refusal_recall)}  balanced ${pct(d.balanced_accuracy)}`,
  );
  const folds = (file.folds ?? []).map(
    (f) =>
      `${name(f.held_out)} ${f.family.padEnd(6)} answered ${pct(f.answerable_recall)}  refused ${pct(f.refusal_recall)}  balanced ${pct(f.balanced_accuracy)}  naive ${f.naive_balanced_accuracy === undefined ? '-' : pct(f.naive_balanced_accuracy)}  auc ${f.score_auc === undefined ? '-' : pct(f.score_auc)}  own threshold ${f.own_threshold_balanced_accuracy === undefined ? '-' : pct(f.own_threshold_balanced_accuracy)}`,
  );
  const thresholds = `thresholds: cjk ${file.models.cjk.threshold}, latin ${file.models.latin.threshold} (mode ${file.mode}, embedder ${file.embedder ?? 'none'}, reranker ${file.reranker ?? 'none'})`;
  return ['fitted on every set:', ...rows, '', 'left out (leave-one-set-out folds):', ...folds, '', thresholds].join('\n');
}
