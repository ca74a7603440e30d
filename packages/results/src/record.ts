import { mkdirSync, readdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gitCommit, type MachineInfo, machineInfo } from './machine.js';

/** The repository's own results folder: `results/<area>/<name>.json` beside `packages/`. */
export const repoRoot = fileURLToPath(new URL('../../../', import.meta.url));
export const defaultResultsDir = join(repoRoot, 'results');

type Json = number | string | boolean | null | Json[] | { [key: string]: Json };

/** One measurement: what was run, on which commit and machine, when, and the figures it gave. */
export interface ResultFile {
  schema: 1;
  area: string;
  name: string;
  /** The command that reproduces the figures, as typed at the repository's root. */
  command: string;
  commit: string;
  /** The work tree differed from `commit` (beyond result files) when it was measured. */
  dirty: boolean;
  date: string;
  machine: MachineInfo;
  metrics: { [key: string]: Json };
  note?: string;
}

export interface RecordOptions {
  area: string;
  name: string;
  command: string;
  metrics: object;
  note?: string;
  /** The results folder (default: the repository's `results/`). */
  dir?: string;
}

const SLUG = /^[a-z0-9]+(?:[-.][a-z0-9]+)*$/;

function checkJson(value: unknown, path: string): void {
  if (typeof value === 'number' && !Number.isFinite(value)) throw new Error(`result metric ${path} is not a finite number`);
  if (value === undefined || typeof value === 'function' || typeof value === 'bigint')
    throw new Error(`result metric ${path} is not JSON`);
  if (value && typeof value === 'object')
    for (const [k, v] of Object.entries(value)) if (v !== undefined) checkJson(v, `${path}.${k}`);
}

/** Writes `DIR/<area>/<name>.json` (replacing an earlier one of the same name) and returns its path. */
export function recordResult(options: RecordOptions): string {
  const { area, name, command, metrics, note } = options;
  if (!SLUG.test(area) || !SLUG.test(name)) throw new Error(`result area and name must be kebab-case: ${area}/${name}`);
  checkJson(metrics, 'metrics');
  const dir = options.dir ?? defaultResultsDir;
  const file: ResultFile = {
    schema: 1,
    area,
    name,
    command,
    ...gitCommit(repoRoot),
    date: new Date().toISOString().replace(/\.\d+Z$/, 'Z'),
    machine: machineInfo(),
    metrics: JSON.parse(JSON.stringify(metrics)) as ResultFile['metrics'],
    ...(note ? { note } : {}),
  };
  const path = join(dir, area, `${name}.json`);
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(`${path}.tmp`, `${JSON.stringify(file, null, 2)}\n`);
  renameSync(`${path}.tmp`, path);
  return path;
}

/** Every result file under `dir`, each with its path relative to `dir`, in area then name order. */
export function readResults(dir = defaultResultsDir): (ResultFile & { path: string })[] {
  let areas: string[];
  try {
    areas = readdirSync(dir, { withFileTypes: true })
      .filter((d) => d.isDirectory())
      .map((d) => d.name);
  } catch {
    return [];
  }
  const out: (ResultFile & { path: string })[] = [];
  for (const area of areas.sort())
    for (const f of readdirSync(join(dir, area))
      .filter((n) => n.endsWith('.json'))
      .sort()) {
      const path = join(dir, area, f);
      const data = JSON.parse(readFileSync(path, 'utf8')) as ResultFile;
      if (data.schema !== 1 || data.area !== area || `${data.name}.json` !== f)
        throw new Error(`${relative(dir, path)}: not a result file of area ${area} (schema 1, name matching the file)`);
      out.push({ ...data, path: relative(dir, path) });
    }
  return out;
}

/** The command line of this process as typed at the repository's root: `pnpm <script> <args…>`. */
export function commandLine(script: string, args: readonly string[]): string {
  const quote = (a: string): string => (/^[\w@%+=:,./-]+$/.test(a) ? a : `'${a.replace(/'/g, `'\\''`)}'`);
  return ['pnpm', script, ...args.map(quote)].join(' ');
}
