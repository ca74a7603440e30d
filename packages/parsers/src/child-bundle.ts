import { createHash } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';

/**
 * How a parser child is started: the script and the flags before it. The child is TypeScript; run
 * through the TypeScript loader, a fresh child spent about 0.9 CPU s compiling and resolving modules
 * before its first request (1.3 s in all, against 0.4 s bundled). So the parent bundles the child once
 * per source change — its own modules and the workspace's, code split so that each format's libraries
 * load on that format's first parse — and starts children on the bundle. npm packages stay external and
 * resolve from this package's node_modules, beside which the bundle is written.
 */
export interface ChildEntry {
  script: string;
  /** Node flags the script needs to run (the TypeScript loader for the source). */
  execArgv: string[];
  bundled: boolean;
}

interface Manifest {
  /** The bundle's folder name under the cache folder. */
  dir: string;
  /** The entry's file in that folder. */
  script: string;
  /** Every source file the bundle was built from, with the size and modification time it had. */
  inputs: Record<string, [size: number, mtimeMs: number]>;
  esbuild: string;
}

const require = createRequire(import.meta.url);
/** Bundles built this long ago are removed when another is written (a running child may still load chunks of its own). */
const STALE_MS = 24 * 3600 * 1000;

function readManifest(file: string): Manifest | undefined {
  try {
    return JSON.parse(readFileSync(file, 'utf8')) as Manifest;
  } catch {
    return undefined;
  }
}

/** Whether every input still has the size and time it had when the bundle was built. */
function current(manifest: Manifest, cache: string, esbuildVersion: string): boolean {
  if (manifest.esbuild !== esbuildVersion) return false;
  try {
    statSync(path.join(cache, manifest.dir, manifest.script));
    for (const [file, [size, mtimeMs]] of Object.entries(manifest.inputs)) {
      const s = statSync(file);
      if (s.size !== size || s.mtimeMs !== mtimeMs) return false;
    }
    return true;
  } catch {
    return false;
  }
}

function prune(cache: string, keep: string): void {
  for (const name of readdirSync(cache)) {
    if (name === keep || name === 'manifest.json') continue;
    const full = path.join(cache, name);
    try {
      if (Date.now() - statSync(full).mtimeMs > STALE_MS) rmSync(full, { recursive: true, force: true });
    } catch {
      // another process removed it first
    }
  }
}

/**
 * Builds the bundle (synchronously: about 0.2 s, once per source change) into a folder named by its
 * content, then points the manifest at it. Processes that build at once write the same folder; the
 * first rename wins and the others use it.
 */
function build(source: string, packageRoot: string, cache: string): Manifest {
  const esbuild = require('esbuild') as typeof import('esbuild');
  const pkg = JSON.parse(readFileSync(path.join(packageRoot, 'package.json'), 'utf8')) as {
    dependencies: Record<string, string>;
  };
  const external = Object.keys(pkg.dependencies).filter((name) => !pkg.dependencies[name]?.startsWith('workspace:'));
  const result = esbuild.buildSync({
    entryPoints: [source],
    absWorkingDir: packageRoot,
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    outdir: path.join(cache, 'out'),
    entryNames: '[name]',
    chunkNames: 'chunk-[hash]',
    external,
    metafile: true,
    write: false,
    logLevel: 'silent',
  });
  const hash = createHash('sha256');
  for (const file of result.outputFiles) hash.update(path.basename(file.path)).update(file.contents);
  const dir = hash.digest('hex').slice(0, 16);
  const script = `${path.basename(source, path.extname(source))}.js`;
  const target = path.join(cache, dir);
  try {
    statSync(path.join(target, script));
  } catch {
    const staging = path.join(cache, `.staging-${process.pid}-${Date.now()}`);
    mkdirSync(staging, { recursive: true });
    for (const file of result.outputFiles) writeFileSync(path.join(staging, path.basename(file.path)), file.contents);
    try {
      renameSync(staging, target);
    } catch {
      rmSync(staging, { recursive: true, force: true });
    }
  }
  const inputs: Manifest['inputs'] = {};
  for (const input of Object.keys(result.metafile.inputs)) {
    const file = path.resolve(packageRoot, input);
    const s = statSync(file);
    inputs[file] = [s.size, s.mtimeMs];
  }
  const manifest: Manifest = { dir, script, inputs, esbuild: esbuild.version };
  const tmp = path.join(cache, `.manifest-${process.pid}-${Date.now()}.json`);
  writeFileSync(tmp, JSON.stringify(manifest));
  renameSync(tmp, path.join(cache, 'manifest.json'));
  prune(cache, dir);
  return manifest;
}

/**
 * The bundled child for `source` (the child's TypeScript entry), rebuilt when a source it was built from
 * changed; the TypeScript source itself (through `tsxLoader`) when no bundle can be built.
 */
export function childEntry(source: string, packageRoot: string, tsxLoader: string): ChildEntry {
  const cache = path.join(packageRoot, '.build', 'parse-child');
  try {
    const esbuildVersion = (require('esbuild/package.json') as { version: string }).version;
    const file = path.join(cache, 'manifest.json');
    let manifest = readManifest(file);
    if (!manifest || !current(manifest, cache, esbuildVersion)) {
      mkdirSync(cache, { recursive: true });
      manifest = build(source, packageRoot, cache);
    }
    return { script: path.join(cache, manifest.dir, manifest.script), execArgv: [], bundled: true };
  } catch {
    return { script: source, execArgv: ['--import', tsxLoader], bundled: false };
  }
}
