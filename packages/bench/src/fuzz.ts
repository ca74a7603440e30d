/**
 * `pnpm fuzz [--seeds DIR] [--count N] [--seed S] [--per-format K] [--timeout-ms MS] [--json] [--record]`
 * Deterministic mutants of corpus files (the same --seed gives the same files) go through the real
 * ingestion parse path: format detection, then the isolated parse process with its time and memory
 * limits, OCR and LibreOffice on. Reports states, codes, the slowest and most memory-hungry cases,
 * and flags crashes, hangs (a parse timeout, or more than 10 s of the parse process's CPU: wall time
 * on a shared machine measures its load) and messages carrying raw library text; exits 1 when any is flagged.
 * --record writes the summary as results/fuzz/seed-<S>-<N>.json for the benchmarks page.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { extname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import type { Format } from '@pinpoint/core';
import { toPinpointError } from '@pinpoint/core';
import type { ParseUsage } from '@pinpoint/parsers';
import { detectFormat, parseIsolated, rawTextIn } from '@pinpoint/parsers';
import { commandLine, recordResult } from '@pinpoint/results';
import { seededRandom } from '@pinpoint/testing';
import type { Operator } from './mutate.js';
import { mutate, operatorsFor } from './mutate.js';

const { values } = parseArgs({
  options: {
    seeds: { type: 'string', default: fileURLToPath(new URL('../../../../shared/corpus/formats/', import.meta.url)) },
    count: { type: 'string', default: '100' },
    seed: { type: 'string', default: '1' },
    'per-format': { type: 'string', default: '2' },
    'timeout-ms': { type: 'string', default: '30000' },
    concurrency: { type: 'string', default: '2' },
    json: { type: 'boolean', default: false },
    record: { type: 'boolean', default: false },
  },
});

const HANG_SECONDS = 10;

interface Outcome {
  name: string;
  seedFile: string;
  operator: Operator;
  bytes: number;
  format: string;
  state: 'ready' | 'failed';
  code?: string;
  message?: string;
  seconds: number;
  /** Growth of the parse process's resident memory during the parse, MB. */
  peakMb: number;
  /** CPU seconds of the parse process (its own work, not LibreOffice's or tesseract's): load-independent. */
  cpuSeconds: number;
  flags: string[];
}

/** Seed files: the `perFormat` smallest files of each extension under the folder (recursively). */
function seedFiles(dir: string, perFormat: number): string[] {
  const all: string[] = [];
  const walk = (d: string): void => {
    for (const entry of readdirSync(d, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
      if (entry.isDirectory()) walk(join(d, entry.name));
      else if (!entry.name.endsWith('.md') || !/README|PROVENANCE/i.test(entry.name)) all.push(join(d, entry.name));
    }
  };
  walk(dir);
  const byExt = new Map<string, string[]>();
  for (const f of all) {
    const ext = extname(f).slice(1).toLowerCase();
    if (ext) byExt.set(ext, [...(byExt.get(ext) ?? []), f]);
  }
  return [...byExt.values()].flatMap((files) =>
    files.sort((a, b) => statSync(a).size - statSync(b).size || a.localeCompare(b)).slice(0, perFormat),
  );
}

async function settle(
  name: string,
  bytes: Uint8Array,
  timeoutMs: number,
): Promise<Omit<Outcome, 'seedFile' | 'operator' | 'flags'>> {
  const started = performance.now();
  let usage: ParseUsage | undefined;
  let format = extname(name).slice(1);
  try {
    format = detectFormat(name, bytes);
    const out = await parseIsolated(
      bytes,
      {
        fileName: name,
        format: format as Format,
        capabilities: { ocr: { engine: 'tesseract-cli' }, convert: { engine: 'libreoffice' } },
      },
      { timeoutMs, maxOldSpaceMb: 1024, onUsage: (u) => (usage = u) },
    );
    const state = out.elements.length > 0 ? 'ready' : 'failed';
    const seconds = (performance.now() - started) / 1000;
    return { name, bytes: bytes.length, format, state, seconds, ...cost(usage) };
  } catch (err) {
    const e = toPinpointError(err);
    const seconds = (performance.now() - started) / 1000;
    return {
      name,
      bytes: bytes.length,
      format,
      state: 'failed',
      code: e.code,
      message: e.message,
      seconds,
      ...cost(usage),
    };
  }
}

function cost(usage: ParseUsage | undefined): { peakMb: number; cpuSeconds: number } {
  if (!usage) return { peakMb: 0, cpuSeconds: 0 };
  return { peakMb: Math.max(0, usage.peakRss - usage.rssBefore) / 1024 / 1024, cpuSeconds: usage.cpuMs / 1000 };
}

function flagsOf(o: Omit<Outcome, 'flags'>): string[] {
  const flags: string[] = [];
  if (o.code === 'PP_PARSE_CRASHED' || o.code === 'PP_INTERNAL') flags.push('crash');
  if (o.cpuSeconds > HANG_SECONDS || o.code === 'PP_PARSE_TIMEOUT') flags.push('hang');
  const raw = o.message ? rawTextIn(o.message) : undefined;
  if (raw) flags.push(`raw message (${JSON.stringify(raw)})`);
  return flags;
}

async function run(): Promise<Outcome[]> {
  const seed = Number(values.seed) || 1;
  const rand = seededRandom(seed);
  const seeds = seedFiles(values.seeds, Number(values['per-format']) || 2);
  const count = Number(values.count) || 100;
  const outcomes: Outcome[] = [];
  let next = 0;
  const plan = Array.from({ length: count }, (_, i) => {
    const seedFile = seeds[Math.floor(rand() * seeds.length)] as string;
    const ext = extname(seedFile).slice(1).toLowerCase();
    const ops = operatorsFor(ext);
    return {
      i,
      seedFile,
      ext,
      operator: ops[Math.floor(rand() * ops.length)] as Operator,
      mutantSeed: Math.floor(rand() * 2 ** 31),
    };
  });
  const worker = async (): Promise<void> => {
    for (let p = plan[next++]; p; p = plan[next++]) {
      const source = new Uint8Array(readFileSync(p.seedFile));
      const bytes = await mutate(source, p.ext, p.operator, seededRandom(p.mutantSeed));
      const base = p.seedFile.split('/').at(-1) as string;
      const name = `m${String(p.i).padStart(3, '0')}_${p.operator}_${base}`;
      const settled = await settle(name, bytes, Number(values['timeout-ms']) || 30_000);
      const outcome = { ...settled, seedFile: base, operator: p.operator };
      outcomes.push({ ...outcome, flags: flagsOf(outcome) });
      if (values.json) process.stdout.write(`${JSON.stringify(outcomes.at(-1))}\n`);
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Number(values.concurrency) || 1) }, worker));
  return outcomes;
}

function tally(outcomes: Outcome[], key: (o: Outcome) => string): string {
  const counts = new Map<string, number>();
  for (const o of outcomes) counts.set(key(o), (counts.get(key(o)) ?? 0) + 1);
  return [...counts]
    .sort((a, b) => b[1] - a[1])
    .map(([k, n]) => `${k} ${n}`)
    .join(', ');
}

function report(outcomes: Outcome[], wall: number): void {
  const line = (o: Outcome) =>
    `    ${o.name} (${o.format}, ${(o.bytes / 1024).toFixed(0)} KB): ${o.state}${o.code ? ` ${o.code}` : ''}, ${o.seconds.toFixed(1)} s wall, ${o.cpuSeconds.toFixed(1)} s CPU, +${o.peakMb.toFixed(0)} MB`;
  const seeds = new Set(outcomes.map((o) => o.seedFile));
  console.log(`fuzz: ${outcomes.length} mutants of ${seeds.size} seeds (seed ${values.seed}) in ${wall.toFixed(0)} s`);
  console.log(`  formats: ${tally(outcomes, (o) => o.format)}`);
  console.log(`  operators: ${tally(outcomes, (o) => o.operator)}`);
  console.log(`  states: ${tally(outcomes, (o) => o.state)}`);
  console.log(
    `  codes: ${tally(
      outcomes.filter((o) => o.code),
      (o) => o.code as string,
    )}`,
  );
  const walls = outcomes.map((o) => o.seconds).sort((a, b) => a - b);
  console.log(
    `  wall seconds: p50 ${walls[Math.floor(walls.length / 2)]?.toFixed(2)}, max ${walls.at(-1)?.toFixed(2)}; over ${HANG_SECONDS} s wall: ${walls.filter((s) => s > HANG_SECONDS).length}`,
  );
  console.log('  slowest (parse CPU):');
  for (const o of [...outcomes].sort((a, b) => b.cpuSeconds - a.cpuSeconds).slice(0, 5)) console.log(line(o));
  console.log('  slowest (wall, includes LibreOffice/OCR and the machine load):');
  for (const o of [...outcomes].sort((a, b) => b.seconds - a.seconds).slice(0, 5)) console.log(line(o));
  console.log('  most memory (parse process growth over its start):');
  for (const o of [...outcomes].sort((a, b) => b.peakMb - a.peakMb).slice(0, 5)) console.log(line(o));
  const flagged = outcomes.filter((o) => o.flags.length > 0);
  console.log(`  flagged: ${flagged.length} (crash, timeout or over ${HANG_SECONDS} s of parse CPU, raw message)`);
  for (const o of flagged) console.log(`${line(o)} — ${o.flags.join('; ')}${o.message ? ` — "${o.message}"` : ''}`);
}

/** The run's summary as a result file: what was fuzzed, how it ended, the worst case of each cost. */
function record(outcomes: Outcome[], wall: number): string {
  const count = (f: (o: Outcome) => boolean): number => outcomes.filter(f).length;
  const codes = Object.fromEntries(
    [...new Set(outcomes.map((o) => o.code).filter((c): c is string => !!c))].sort().map((c) => [c, count((o) => o.code === c)]),
  );
  const walls = outcomes.map((o) => o.seconds).sort((a, b) => a - b);
  const round = (x: number): number => Math.round(x * 100) / 100;
  return recordResult({
    area: 'fuzz',
    name: `seed-${values.seed}-${outcomes.length}`,
    command: commandLine('fuzz', process.argv.slice(2)),
    metrics: {
      mutants: outcomes.length,
      seeds: new Set(outcomes.map((o) => o.seedFile)).size,
      flagged: count((o) => o.flags.length > 0),
      ready: count((o) => o.state === 'ready'),
      failed: count((o) => o.state === 'failed'),
      wall_p50_s: round(walls[Math.floor(walls.length / 2)] ?? 0),
      wall_max_s: round(walls.at(-1) ?? 0),
      max_parse_cpu_s: round(Math.max(0, ...outcomes.map((o) => o.cpuSeconds))),
      max_parse_growth_mb: Math.round(Math.max(0, ...outcomes.map((o) => o.peakMb))),
      run_s: Math.round(wall),
      codes,
    },
  });
}

const started = performance.now();
const outcomes = await run();
const wall = (performance.now() - started) / 1000;
report(outcomes, wall);
if (values.record) console.log(`recorded ${record(outcomes, wall)}`);
process.exit(outcomes.some((o) => o.flags.length > 0) ? 1 : 0);
