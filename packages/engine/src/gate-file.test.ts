import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DEFAULT_GATE } from '@pinpoint/answering';
import { GATE_FILE_SCHEMA } from '@pinpoint/core';
import { afterAll, describe, expect, it } from 'vitest';
import { gateMismatch, loadGateFile } from './gate-file.js';

const dir = mkdtempSync(join(tmpdir(), 'pp-gate-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const file = (patch: Record<string, unknown> = {}) => ({
  schema: GATE_FILE_SCHEMA,
  created_at: '2026-12-01T00:00:00.000Z',
  mode: 'hybrid',
  embedder: 'onnx:e5',
  reranker: null,
  min_answered: 0.91,
  datasets: [],
  models: {
    cjk: { weights: { cov_window: 3 }, bias: -1, threshold: 0.4, minCoverage: 0.25 },
    latin: { weights: { type_ok: 1, verbatim: -2 }, bias: 0.5, threshold: 0.6, minCoverage: 0.25 },
  },
  ...patch,
});
const write = (name: string, body: unknown) => {
  const path = join(dir, name);
  writeFileSync(path, typeof body === 'string' ? body : JSON.stringify(body));
  return path;
};

describe('gate files (PINPOINT_GATE_FILE)', () => {
  it('loads the models, filling features the file does not weigh with 0, and keeps the run it came from', () => {
    const { gate, calibration } = loadGateFile(write('ok.json', file()));
    expect(gate.models.latin.threshold).toBe(0.6);
    expect(gate.models.latin.weights.verbatim).toBe(-2);
    expect(gate.models.latin.weights.cov_window).toBe(0);
    expect(Object.keys(gate.models.cjk.weights).sort()).toEqual(Object.keys(DEFAULT_GATE.models.cjk.weights).sort());
    expect(gate.maxChunks).toBe(DEFAULT_GATE.maxChunks);
    expect(calibration).toMatchObject({ mode: 'hybrid', embedder: 'onnx:e5', reranker: null });
  });

  it('names what is wrong: unreadable JSON, a field out of range, a feature this version does not compute', () => {
    expect(() => loadGateFile(write('bad.json', '{'))).toThrow(/PINPOINT_GATE_FILE: cannot read/);
    const high = file({ models: { ...file().models, cjk: { weights: {}, bias: 0, threshold: 2, minCoverage: 0 } } });
    expect(() => loadGateFile(write('range.json', high))).toThrow(/models\.cjk\.threshold/);
    const unknown = file({
      models: { ...file().models, latin: { weights: { moon_phase: 1 }, bias: 0, threshold: 0.5, minCoverage: 0 } },
    });
    expect(() => loadGateFile(write('unknown.json', unknown))).toThrow(/moon_phase/);
    expect(() => loadGateFile(join(dir, 'missing.json'))).toThrow(expect.objectContaining({ code: 'PP_CONFIG_INVALID' }));
  });

  it('says when the gate was calibrated with other models than those it runs with', () => {
    const { calibration } = loadGateFile(write('ok2.json', file()));
    expect(gateMismatch(calibration, { embedder: { id: 'onnx:e5' } })).toBeNull();
    expect(gateMismatch(calibration, {})).toMatch(/calibrated with embedder onnx:e5.*runs with none/);
    expect(gateMismatch(undefined, {})).toBeNull();
    expect(gateMismatch(undefined, { embedder: { id: 'gemini:text-embedding-004' } })).toMatch(/pinpoint calibrate/);
  });
});
