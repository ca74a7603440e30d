import { readFileSync } from 'node:fs';
import type { GateConfig, GateModel } from '@pinpoint/answering';
import { DEFAULT_GATE } from '@pinpoint/answering';
import type { GateFile } from '@pinpoint/core';
import { createError, gateFileSchema } from '@pinpoint/core';

/** The calibration behind the gate in force: recorded in settings and eval run files. */
export interface GateCalibration {
  file: string;
  created_at: string;
  mode: string;
  embedder: string | null;
  reranker: string | null;
}

function toModel(m: GateFile['models']['cjk'], family: string, path: string): GateModel {
  const known = Object.keys(DEFAULT_GATE.models.latin.weights);
  const unknown = Object.keys(m.weights).filter((k) => !known.includes(k));
  if (unknown.length > 0) {
    throw createError(
      'PP_CONFIG_INVALID',
      `${path}: the ${family} model weighs features this version does not compute (${unknown.join(', ')}); calibrate again.`,
    );
  }
  const weights = Object.fromEntries(known.map((k) => [k, m.weights[k] ?? 0])) as GateModel['weights'];
  return { weights, bias: m.bias, threshold: m.threshold, minCoverage: m.minCoverage };
}

/** Reads a gate file written by `pinpoint calibrate`; PP_CONFIG_INVALID names what is wrong with it. */
export function loadGateFile(path: string): { gate: GateConfig; calibration: GateCalibration } {
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(path, 'utf8'));
  } catch (err) {
    throw createError('PP_CONFIG_INVALID', `PINPOINT_GATE_FILE: cannot read ${path} as JSON.`, err);
  }
  const parsed = gateFileSchema.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw createError(
      'PP_CONFIG_INVALID',
      `PINPOINT_GATE_FILE: ${path} at ${issue?.path.join('.') || '(root)'}: ${issue?.message}`,
    );
  }
  const f = parsed.data;
  return {
    gate: {
      ...DEFAULT_GATE,
      models: { cjk: toModel(f.models.cjk, 'cjk', path), latin: toModel(f.models.latin, 'latin', path) },
    },
    calibration: { file: path, created_at: f.created_at, mode: f.mode, embedder: f.embedder, reranker: f.reranker },
  };
}

/**
 * Why the gate in force may not fit the models it runs with, or null: thresholds are calibrated per
 * retrieval mode, so a gate fitted without an embedder judges fused evidence it has not seen.
 */
export function gateMismatch(
  calibration: GateCalibration | undefined,
  models: { embedder?: { id: string }; reranker?: { id: string } },
): string | null {
  const embedder = models.embedder?.id ?? null;
  const reranker = models.reranker?.id ?? null;
  const cal = calibration ?? { file: 'the built-in gate', embedder: null, reranker: null };
  if (cal.embedder === embedder && cal.reranker === reranker) return null;
  return `The refusal gate (${cal.file}) was calibrated with embedder ${cal.embedder ?? 'none'} and reranker ${cal.reranker ?? 'none'}, but runs with ${embedder ?? 'none'} and ${reranker ?? 'none'}: run \`pinpoint calibrate\` with these models and set PINPOINT_GATE_FILE.`;
}
