import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type Browser, chromium, type Page } from 'playwright-core';
import type { AskResponse, ResolvedCitation } from '../src/api/types.js';

const repoRoot = fileURLToPath(new URL('../../', import.meta.url));
const webDir = join(repoRoot, 'web');
export const sharedDir = fileURLToPath(new URL('../../../shared/', import.meta.url));
export const resultsDir = join(repoRoot, 'test-results', 'e2e');

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * Builds the SPA once when web/dist is missing (the API serves it). Test files run in parallel, so
 * one builds under a directory lock and the others wait for it.
 */
export async function ensureWebBuilt(): Promise<void> {
  const index = join(webDir, 'dist', 'index.html');
  const lock = join(tmpdir(), 'pinpoint-web-build.lock');
  const deadline = Date.now() + 240_000;
  while (!existsSync(index) || existsSync(lock)) {
    if (Date.now() > deadline) throw new Error('timed out waiting for the web build');
    try {
      mkdirSync(lock);
    } catch {
      // a lock left by a killed run is stale after two minutes
      const since = statSync(lock, { throwIfNoEntry: false })?.mtimeMs ?? Date.now();
      if (Date.now() - since > 120_000) rmSync(lock, { recursive: true, force: true });
      await sleep(250);
      continue;
    }
    try {
      if (existsSync(index)) return;
      const vite = join(webDir, 'node_modules', 'vite', 'bin', 'vite.js');
      const r = spawnSync(process.execPath, [vite, 'build', '--logLevel', 'warn'], { cwd: webDir, stdio: 'inherit' });
      if (r.status !== 0) throw new Error(`vite build failed (${r.status})`);
      return;
    } finally {
      rmSync(lock, { recursive: true, force: true });
    }
  }
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const addr = srv.address();
      srv.close(() => (typeof addr === 'object' && addr ? resolve(addr.port) : reject(new Error('no port'))));
    });
  });
}

export interface RunningApi {
  base: string;
  /** The server's temporary data folder (blobs under blobs/<blob_key>). */
  dataDir: string;
  stop(): Promise<void>;
}

/** Starts the real embedded API server (tsx services/api/src/main.ts) on a free port with a temp data dir. */
export async function startApi(extraEnv: Record<string, string> = {}): Promise<RunningApi> {
  const dataDir = mkdtempSync(join(tmpdir(), 'pinpoint-e2e-'));
  const port = await freePort();
  const tsx = join(repoRoot, 'node_modules', 'tsx', 'dist', 'cli.mjs');
  const child: ChildProcess = spawn(process.execPath, [tsx, join(repoRoot, 'services/api/src/main.ts')], {
    cwd: repoRoot,
    env: {
      ...process.env,
      PINPOINT_DATA_DIR: dataDir,
      PINPOINT_PORT: String(port),
      PINPOINT_HOST: '127.0.0.1',
      PINPOINT_WEB_DIST: join(webDir, 'dist'),
      PINPOINT_LOG_LEVEL: 'warn',
      ...extraEnv,
    },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  const base = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`API exited with ${child.exitCode}`);
    try {
      const res = await fetch(`${base}/api/health`);
      if (res.ok) break;
    } catch {
      // not listening yet
    }
    await sleep(200);
  }
  return {
    base,
    dataDir,
    stop: async () => {
      if (child.exitCode === null) {
        const exited = new Promise((r) => child.once('exit', r));
        child.kill('SIGTERM');
        await Promise.race([exited, new Promise((r) => setTimeout(r, 5000))]);
        if (child.exitCode === null) child.kill('SIGKILL');
      }
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** Debian's Chromium, never a downloaded browser; `extraArgs` adds switches (e.g. `--lang=ja`). */
export function launchChromium(extraArgs: string[] = []): Promise<Browser> {
  mkdirSync(resultsDir, { recursive: true });
  return chromium.launch({
    executablePath: '/usr/bin/chromium',
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      ...extraArgs,
    ],
  });
}

/** Uploads files through the HTTP API (multipart), returning the per-file results. */
export async function uploadViaApi(
  base: string,
  files: { name: string; bytes: Uint8Array; type?: string }[],
): Promise<{ file: string; version: { version_id: string } }[]> {
  const { collections } = (await (await fetch(`${base}/api/collections`)).json()) as { collections: { collection_id: string }[] };
  const col = collections[0];
  if (!col) throw new Error('no collection');
  const form = new FormData();
  for (const f of files)
    form.append('files', new Blob([new Uint8Array(f.bytes)], { type: f.type ?? 'application/octet-stream' }), f.name);
  const res = await fetch(`${base}/api/collections/${col.collection_id}/uploads`, { method: 'POST', body: form });
  if (!res.ok) throw new Error(`upload failed: ${res.status} ${await res.text()}`);
  return ((await res.json()) as { results: { file: string; version: { version_id: string } }[] }).results;
}

/** Waits until a version is ready (or fails the test with its error). */
export async function waitForReady(base: string, versionId: string, timeoutMs = 90_000): Promise<void> {
  const state = await waitForSettled(base, versionId, timeoutMs);
  if (state.state !== 'ready') throw new Error(`version ${versionId} ${state.state}: ${state.error_code} ${state.error_message}`);
}

export interface SettledVersion {
  state: string;
  error_code: string | null;
  error_message: string | null;
  format: string | null;
}

/** Waits until a version reaches a final state (ready, failed, cancelled) and returns it. */
export async function waitForSettled(base: string, versionId: string, timeoutMs: number): Promise<SettledVersion> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const res = await fetch(`${base}/api/versions/${versionId}`);
    const body = (await res.json()) as { version: SettledVersion };
    if (['ready', 'failed', 'cancelled'].includes(body.version.state)) return body.version;
    await sleep(250);
  }
  throw new Error(`version ${versionId} did not settle within ${timeoutMs} ms`);
}

/** A running API with files uploaded and ready, and a Chromium to look at it with. */
export interface LoadedApp {
  api: RunningApi;
  browser: Browser;
}

/** Starts the API (SPA built), launches Chromium, uploads `files` and waits until each is ready. */
export async function startWithFiles(
  files: { name: string; bytes: Uint8Array }[],
  options: { env?: Record<string, string>; readyTimeoutMs?: number } = {},
): Promise<LoadedApp> {
  await ensureWebBuilt();
  const api = await startApi(options.env);
  const browser = await launchChromium();
  const results = await uploadViaApi(api.base, files);
  for (const r of results) await waitForReady(api.base, r.version.version_id, options.readyTimeoutMs);
  return { api, browser };
}

/**
 * Asks through the question box and returns the API's answer as the page received it, once the
 * answer or the refusal is on screen. `goto` false asks on the page as it is.
 */
export async function askInPage(page: Page, base: string, question: string, goto = true): Promise<AskResponse> {
  if (goto) await page.goto(`${base}/`);
  await page.fill('#question', question);
  const [res] = await Promise.all([page.waitForResponse((r) => r.url().endsWith('/api/ask')), page.press('#question', 'Enter')]);
  const answer = (await res.json()) as AskResponse;
  await page.waitForSelector(answer.refused ? '[data-testid=refusal]' : '[data-testid=answer]');
  return answer;
}

/** Clicks citation pill `n` (the first pill without it) and returns what the reader resolved, with the HTTP status. */
export async function openCitationPill(page: Page, n?: number): Promise<{ status: number; resolved: ResolvedCitation }> {
  const pills = page.locator('[data-testid=citation-pill]');
  const pill = (n === undefined ? pills : pills.filter({ hasText: new RegExp(`^${n}$`) })).first();
  const [res] = await Promise.all([page.waitForResponse((r) => r.url().endsWith('/api/citations/resolve')), pill.click()]);
  return { status: res.status(), resolved: (await res.json()) as ResolvedCitation };
}
