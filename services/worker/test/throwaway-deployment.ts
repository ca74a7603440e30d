import type { ChildProcess } from 'node:child_process';
import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { BullMQJobQueue } from '@pinpoint/bullmq';
import type { Collection } from '@pinpoint/core';
import type { Engine, EnginePorts, UploadResult } from '@pinpoint/engine';
import { createEngine } from '@pinpoint/engine';
import { dropSchema } from '@pinpoint/postgres';
import type { WorkerConfig } from '../src/config.js';
import { loadWorkerConfig } from '../src/config.js';
import { openDistributedPorts } from '../src/distributed-ports.js';

const REPO_ROOT = new URL('../../../', import.meta.url).pathname;
const MAIN = new URL('../src/main.ts', import.meta.url).pathname;

export interface WorkerProcess {
  readonly child: ChildProcess;
  /** stdout lines parsed as JSON events. */
  readonly events: Record<string, unknown>[];
  readonly exited: Promise<number | null>;
}

/**
 * A distributed deployment of its own (unique PostgreSQL schema, queue name, blob folder) with an
 * API-side engine in this process and worker processes spawned on demand; everything is removed
 * by dispose(). Used by the resilience tests and the throughput bench.
 */
export interface ThrowawayDeployment {
  readonly env: Record<string, string>;
  readonly config: WorkerConfig;
  readonly ports: EnginePorts & { queue: BullMQJobQueue };
  readonly engine: Engine;
  readonly collection: Collection;
  spawnWorker(extraEnv?: Record<string, string>): Promise<WorkerProcess>;
  uploadFiles(paths: string[]): Promise<UploadResult[]>;
  dispose(): Promise<void>;
}

export async function createThrowawayDeployment(settings: Record<string, string> = {}): Promise<ThrowawayDeployment> {
  const id = randomUUID().replaceAll('-', '').slice(0, 12);
  const blobDir = await mkdtemp(join(tmpdir(), 'pp-dist-'));
  const env: Record<string, string> = {
    PINPOINT_DATABASE_URL: 'postgres://postgres@127.0.0.1:5432/test',
    PINPOINT_PG_SCHEMA: `pp_test_${id}`,
    PINPOINT_BLOB_DIR: blobDir,
    PINPOINT_QUEUE_NAME: `dist-${id}`,
    PINPOINT_QUEUE_PREFIX: 'pptest',
    ...settings,
  };
  const config = loadWorkerConfig(env);
  const ports = await openDistributedPorts(config, () => undefined);
  const engine = createEngine(config.engine, ports);
  const collection = await engine.ensureCollection('default');
  const workers: WorkerProcess[] = [];
  return {
    env,
    config,
    ports,
    engine,
    collection,
    spawnWorker: async (extraEnv = {}) => {
      const worker = await spawnWorkerProcess({ ...env, ...extraEnv });
      workers.push(worker);
      return worker;
    },
    uploadFiles: async (paths) => {
      const files = await Promise.all(paths.map(async (p) => ({ name: p.split('/').pop() ?? p, bytes: await readFile(p) })));
      return engine.upload(collection.collection_id, files);
    },
    dispose: async () => {
      for (const w of workers) if (w.child.exitCode === null && w.child.signalCode === null) w.child.kill('SIGKILL');
      await Promise.all(workers.map((w) => w.exited));
      await ports.queue.destroy().catch(() => undefined);
      await engine.close().catch(() => undefined);
      await dropSchema(config.databaseUrl, config.pgSchema);
      await rm(blobDir, { recursive: true, force: true });
    },
  };
}

/** Starts `services/worker/src/main.ts` as a child process; resolves once it consumes the queue. */
function spawnWorkerProcess(env: Record<string, string>): Promise<WorkerProcess> {
  const child = spawn(process.execPath, ['--import', 'tsx', MAIN], {
    cwd: REPO_ROOT,
    env: { PATH: process.env.PATH ?? '', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const events: Record<string, unknown>[] = [];
  let stderr = '';
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return new Promise((resolve, reject) => {
    let buffered = '';
    child.stderr?.on('data', (d: Buffer) => {
      stderr += d.toString();
    });
    child.stdout?.on('data', (d: Buffer) => {
      buffered += d.toString();
      const lines = buffered.split('\n');
      buffered = lines.pop() ?? '';
      for (const line of lines) {
        const event = JSON.parse(line) as Record<string, unknown>;
        events.push(event);
        if (event.event === 'worker-started') resolve({ child, events, exited });
      }
    });
    void exited.then((code) => reject(new Error(`worker exited (${code}) before starting: ${stderr.slice(-2000)}`)));
  });
}
