import type { ChildProcess } from 'node:child_process';
import { spawn } from 'node:child_process';
import { localDistributedEnv } from './config.js';

/**
 * `pnpm start:distributed`: the distributed mode on this machine without Docker — one API process
 * (PINPOINT_MODE=distributed) and PINPOINT_WORKERS worker processes, against the local Redis and
 * PostgreSQL. Ctrl-C drains the workers and stops the API.
 */
const ROOT = new URL('../../../', import.meta.url).pathname;
const { env, workers } = localDistributedEnv();

function start(name: string, entry: string): ChildProcess {
  const child = spawn(process.execPath, ['--import', 'tsx', entry], { cwd: ROOT, env, stdio: ['ignore', 'inherit', 'inherit'] });
  child.once('exit', (code, signal) => {
    process.stderr.write(`${name} exited (${signal ?? code})\n`);
    if (!stopping) stop(1);
  });
  return child;
}

const children = [start('api', 'services/api/src/main.ts')];
for (let i = 0; i < workers; i += 1) children.push(start(`worker ${i + 1}`, 'services/worker/src/main.ts'));

let stopping = false;
function stop(code: number): void {
  stopping = true;
  const alive = children.filter((c) => c.exitCode === null && c.signalCode === null);
  for (const c of alive) c.kill('SIGTERM');
  void Promise.all(alive.map((c) => new Promise((r) => c.once('exit', r)))).then(() => process.exit(code));
}
process.once('SIGINT', () => stop(0));
process.once('SIGTERM', () => stop(0));
