import { fork } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { childEntry } from './child-bundle.js';

const parsersRoot = fileURLToPath(new URL('..', import.meta.url));
const roots: string[] = [];

function tempPackage(files: Record<string, string>): string {
  const root = mkdtempSync(path.join(tmpdir(), 'pp-child-bundle-'));
  roots.push(root);
  writeFileSync(path.join(root, 'package.json'), JSON.stringify({ type: 'module', dependencies: {} }));
  for (const [name, text] of Object.entries(files)) writeFileSync(path.join(root, name), text);
  return root;
}

function run(script: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = fork(script, [], { stdio: ['ignore', 'pipe', 'inherit', 'ipc'] });
    let out = '';
    child.stdout?.on('data', (chunk: Buffer) => {
      out += chunk.toString('utf8');
    });
    child.on('error', reject);
    child.on('exit', () => resolve(out.trim()));
  });
}

afterEach(() => {
  for (const root of roots.splice(0)) rmSync(root, { recursive: true, force: true });
});

describe('the bundled parser child', () => {
  it('bundles the real child, which then runs without the TypeScript loader', () => {
    const entry = childEntry(path.join(parsersRoot, 'src/parse-child.ts'), parsersRoot, 'unused');
    expect(entry.bundled).toBe(true);
    expect(entry.execArgv).toEqual([]);
    expect(entry.script.endsWith('.js')).toBe(true);
    // the same sources give the same bundle, found through the manifest without a build
    expect(childEntry(path.join(parsersRoot, 'src/parse-child.ts'), parsersRoot, 'unused').script).toBe(entry.script);
  });

  it('rebuilds when a source it was built from changes, and runs the new code', async () => {
    const root = tempPackage({
      'entry.ts': "import { word } from './word.ts';\nconst w: string = word;\nconsole.log(w);\n",
      'word.ts': "export const word = 'first';\n",
    });
    const first = childEntry(path.join(root, 'entry.ts'), root, 'unused');
    expect(first.bundled).toBe(true);
    expect(await run(first.script)).toBe('first');
    writeFileSync(path.join(root, 'word.ts'), "export const word = 'second';\n");
    const later = new Date(Date.now() + 5000);
    utimesSync(path.join(root, 'word.ts'), later, later);
    const second = childEntry(path.join(root, 'entry.ts'), root, 'unused');
    expect(second.script).not.toBe(first.script);
    expect(await run(second.script)).toBe('second');
    const manifest = JSON.parse(readFileSync(path.join(root, '.build/parse-child/manifest.json'), 'utf8'));
    expect(Object.keys(manifest.inputs).sort()).toEqual([path.join(root, 'entry.ts'), path.join(root, 'word.ts')]);
  });

  it('falls back to the TypeScript source through the loader when the child cannot be bundled', () => {
    const root = tempPackage({ 'entry.ts': "import { missing } from './nowhere.ts';\nconsole.log(missing);\n" });
    const entry = childEntry(path.join(root, 'entry.ts'), root, 'file:///loader.mjs');
    expect(entry).toEqual({ script: path.join(root, 'entry.ts'), execArgv: ['--import', 'file:///loader.mjs'], bundled: false });
  });
});
