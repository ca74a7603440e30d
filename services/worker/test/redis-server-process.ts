import type { ChildProcess } from 'node:child_process';
import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { createConnection } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** A redis-server of our own on a loopback port, with AOF fsync'd on every write, that a test may kill and restart. */
export interface OwnRedis {
  readonly url: string;
  kill(): Promise<void>;
  restart(): Promise<void>;
  dispose(): Promise<void>;
}

function ping(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = createConnection({ host: '127.0.0.1', port }, () => socket.write('PING\r\n'));
    socket.once('data', (d) => {
      socket.destroy();
      resolve(d.toString().startsWith('+PONG'));
    });
    socket.once('error', () => resolve(false));
  });
}

export async function startOwnRedis(port: number): Promise<OwnRedis> {
  const dir = await mkdtemp(join(tmpdir(), 'pp-redis-'));
  let server: ChildProcess | null = null;
  const args = [
    '--port',
    String(port),
    '--bind',
    '127.0.0.1',
    '--dir',
    dir,
    '--appendonly',
    'yes',
    '--appendfsync',
    'always',
    '--save',
    '',
  ];
  const start = async () => {
    server = spawn('redis-server', [...args, '--maxmemory-policy', 'noeviction'], { stdio: 'ignore' });
    for (let i = 0; i < 200 && !(await ping(port)); i += 1) await new Promise((r) => setTimeout(r, 25));
  };
  const kill = async () => {
    const s = server;
    if (!s || s.exitCode !== null) return;
    const exited = new Promise((r) => s.once('exit', r));
    s.kill('SIGKILL');
    await exited;
  };
  await start();
  return {
    url: `redis://127.0.0.1:${port}`,
    kill,
    restart: start,
    dispose: async () => {
      await kill();
      await rm(dir, { recursive: true, force: true });
    },
  };
}
