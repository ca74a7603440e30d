import { writeFileSync } from 'node:fs';
import { DEFAULT_GATE, EVIDENCE_FEATURES, gateFamily } from '@pinpoint/answering';
import type { GateFile } from '@pinpoint/core';
import type { CalibrationInput } from '@pinpoint/eval';
import { calibrateGate, runEval } from '@pinpoint/eval';
import type { CliConfig } from './config.js';
import { createEvalEngine } from './eval.js';

/**
 * `pinpoint calibrate <dataset-dir…> --out gate.json [--mode M] [--min-answered 0.91]`: runs each
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
  const mode = cfg.flags.mode ?? 'lexical';
  let models: { embedder: string | null; reranker: string | null } = { embedder: null, reranker: null };
  for (const dir of dirs) {
    const run = await runEval(cfg.resolvePath(dir), {
      engineFactory: () => createEvalEngine(cfg.engine, cfg.concurrency, cfg.models),
      mode,
    });
    models = {
      embedder: (run.config.embedder as string | null) ?? null,
      reranker: (run.config.reranker as string | null) ?? null,
    };
    inputs.push({ dataset: run.dataset, questions: run.questions });
    progress(`${run.dataset.path}: ${run.questions.length} questions, mode ${mode}`);
  }
  const file = calibrateGate(inputs, {
    familyOf: gateFamily,
    current: cfg.engine.gate?.config.models ?? DEFAULT_GATE.models,
    positive: [...EVIDENCE_FEATURES],
    minAnswered,
    floorFeature: 'cov_window',
    run: { mode, ...models },
  });
  writeFileSync(out, `${JSON.stringify(file, null, 2)}\n`);
  return file;
}

/** The calibration as a table: per dataset, its family and what the fitted gate does on it. */
export function calibrationTable(file: GateFile): string {
  const pct = (x: number) => x.toFixed(3);
  const rows = file.datasets.map(
    (d) =>
      `${d.path.split('/').pop()?.padEnd(14)} ${d.family.padEnd(6)} answered ${pct(d.answerable_recall)}  refused ${pct(d.refusal_recall)}  balanced ${pct(d.balanced_accuracy)}`,
  );
  const thresholds = `thresholds: cjk ${file.models.cjk.threshold}, latin ${file.models.latin.threshold} (mode ${file.mode}, embedder ${file.embedder ?? 'none'}, reranker ${file.reranker ?? 'none'})`;
  return [...rows, thresholds].join('\n');
}
