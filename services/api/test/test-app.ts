import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AccessStore, Job, JobRunner, PinDocument, Version } from '@pinpoint/core';
import type { Engine } from '@pinpoint/engine';
import type { FastifyInstance } from 'fastify';
import { openAccessStore } from '../src/access.js';
import { buildApp } from '../src/app.js';
import type { Config } from '../src/config.js';
import { configFor } from '../src/config.js';
import { createEmbeddedEngine } from '../src/embedded.js';

/** A real app on a temporary data folder, with the worker loop running: for tests through app.inject(). */
export interface TestApp {
  app: FastifyInstance;
  engine: Engine;
  access: AccessStore;
  config: Config;
  dir: string;
  close(): Promise<void>;
}

export async function startTestApp(overrides: Record<string, string> = {}): Promise<TestApp> {
  const dir = mkdtempSync(join(tmpdir(), 'pp-api-'));
  const config = configFor(join(dir, 'data'), {
    PINPOINT_LOG_LEVEL: 'silent',
    PINPOINT_WEB_DIST: join(dir, 'no-web'),
    PINPOINT_JOB_BACKOFF_MS: '10',
    PINPOINT_PARSE_TIMEOUT_MS: '60000',
    ...overrides,
  });
  const engine = await createEmbeddedEngine(config);
  const access = await openAccessStore(config);
  const app = await buildApp(config, { engine, access, signingSecret: 'test-secret-0123456789abcdef' });
  const runner: JobRunner | null = config.worker.enabled ? engine.startWorker({ concurrency: 2 }) : null;
  return {
    app,
    engine,
    access,
    config,
    dir,
    async close() {
      await app.close();
      await runner?.stop();
      await engine.close();
      await access.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** A multipart/form-data body with one part per file. */
function multipart(files: { name: string; bytes: Uint8Array; type?: string }[]): {
  payload: Buffer;
  headers: Record<string, string>;
} {
  const boundary = `----pinpoint${Math.random().toString(16).slice(2)}`;
  const parts: Buffer[] = [];
  for (const f of files) {
    parts.push(
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="files"; filename="${f.name}"\r\nContent-Type: ${f.type ?? 'application/octet-stream'}\r\n\r\n`,
      ),
      Buffer.from(f.bytes),
      Buffer.from('\r\n'),
    );
  }
  parts.push(Buffer.from(`--${boundary}--\r\n`));
  return { payload: Buffer.concat(parts), headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}

export interface UploadedFile {
  file: string;
  document: PinDocument;
  version: Version;
  created: boolean;
  job: Job | null;
}

export async function uploadFiles(
  app: FastifyInstance,
  collectionId: string,
  files: { name: string; bytes: Uint8Array }[],
  headers: Record<string, string> = {},
): Promise<UploadedFile[]> {
  const body = multipart(files);
  const res = await app.inject({
    method: 'POST',
    url: `/api/collections/${collectionId}/uploads`,
    payload: body.payload,
    headers: { ...body.headers, ...headers },
  });
  if (res.statusCode !== 201) throw new Error(`upload failed: ${res.statusCode} ${res.body}`);
  return res.json().results;
}

export async function settle(
  app: FastifyInstance,
  versionIds: string[],
  headers: Record<string, string> = {},
): Promise<Version[]> {
  for (let i = 0; i < 1200; i++) {
    const versions = await Promise.all(
      versionIds.map(async (id) => (await app.inject({ url: `/api/versions/${id}`, headers })).json().version as Version),
    );
    if (versions.every((v) => ['ready', 'failed', 'cancelled'].includes(v.state))) return versions;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error('versions did not settle');
}
