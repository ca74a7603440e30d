import { type ChildProcess, spawn } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { freePort } from '@pinpoint/conformance';

export const repoRoot = fileURLToPath(new URL('../../../', import.meta.url));
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export interface ServerProcess {
  base: string;
  child: ChildProcess;
}

/**
 * The real API server (`services/api/src/main.ts`) as a process of its own on 127.0.0.1, on a data
 * folder, with extra PINPOINT_* settings; resolves once /api/health answers. `node --import tsx`,
 * so the pid is the server's own (SIGKILL reaches it, not a launcher).
 */
export async function startApiServer(dataDir: string, env: Record<string, string> = {}, port?: number): Promise<ServerProcess> {
  const listen = port ?? (await freePort());
  const child = spawn(process.execPath, ['--import', 'tsx', join(repoRoot, 'services/api/src/main.ts')], {
    cwd: repoRoot,
    env: { ...process.env, PINPOINT_DATA_DIR: dataDir, PINPOINT_PORT: String(listen), PINPOINT_LOG_LEVEL: 'warn', ...env },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const base = `http://127.0.0.1:${listen}`;
  for (let i = 0; i < 1200; i++) {
    if (child.exitCode !== null) throw new Error(`the API exited with ${child.exitCode}`);
    if (
      await fetch(`${base}/api/health`).then(
        (r) => r.ok,
        () => false,
      )
    )
      return { base, child };
    await sleep(50);
  }
  child.kill('SIGKILL');
  throw new Error('the API did not start within 60 s');
}

/** Ends the server: SIGTERM (a clean shutdown) or SIGKILL (a crash); resolves once it is gone. */
export async function stopApiServer(server: ServerProcess, signal: 'SIGTERM' | 'SIGKILL' = 'SIGTERM'): Promise<void> {
  if (server.child.exitCode !== null || server.child.signalCode !== null) return;
  const gone = new Promise((r) => server.child.once('exit', r));
  server.child.kill(signal);
  await gone;
}

/** JSON of a request to the server (auth off on loopback), or an error naming the status. */
export async function api<T>(server: ServerProcess, path: string, init: RequestInit = {}): Promise<T> {
  const res = await fetch(`${server.base}${path}`, {
    ...init,
    headers: {
      ...(init.body && !(init.body instanceof FormData) ? { 'content-type': 'application/json' } : {}),
      ...init.headers,
    },
  });
  if (!res.ok) throw new Error(`${init.method ?? 'GET'} ${path}: ${res.status} ${await res.text()}`);
  return (await res.json()) as T;
}
