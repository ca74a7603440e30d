import { fork } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Job } from '@pinpoint/core';
import { defaultEngineConfig } from '@pinpoint/engine';
import { afterEach, describe, expect, it } from 'vitest';
import { openEmbeddedEngine } from './embedded.js';

const file = fileURLToPath(new URL('../../../../shared/eval/jsquad-dev/docs/000_梅雨.md', import.meta.url));

describe('an ingestion interrupted by killing the process', () => {
  let dir = '';
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('runs again after restart and ends ready exactly once, with no duplicate chunks', async () => {
    dir = mkdtempSync(join(tmpdir(), 'pp-crash-'));
    const child = fork(fileURLToPath(new URL('../test/durability-child.ts', import.meta.url)), [dir, file], {
      execArgv: ['--import', 'tsx'],
      stdio: 'ignore',
    });
    await new Promise<void>((resolve, reject) => {
      child.on('message', () => resolve());
      child.on('exit', (code) => reject(new Error(`child exited before indexing (${code})`)));
    });
    child.kill('SIGKILL');
    await new Promise((r) => child.once('exit', r));

    const engine = openEmbeddedEngine(dir, { ...defaultEngineConfig, parse: { ...defaultEngineConfig.parse, isolate: false } });
    try {
      const [interrupted] = await engine.ports.metadata.listVersions();
      expect(interrupted?.state).toBe('processing');
      const settled: Job[] = [];
      engine.ports.queue.subscribe((j) => {
        if (j.state === 'succeeded') settled.push(j);
      });
      engine.startWorker();
      const [version] = await engine.waitForVersions([interrupted!.version_id], { timeoutMs: 60_000 });
      expect(version?.state).toBe('ready');
      const [job] = await engine.ports.queue.list();
      expect(job).toMatchObject({ state: 'succeeded', attempts: 2 });
      expect(settled).toHaveLength(1);

      const chunks = await engine.ports.metadata.listChunks(version!.version_id);
      expect(chunks).toHaveLength(version!.stats.chunks!);
      expect(new Set(chunks.map((c) => c.chunk_id)).size).toBe(chunks.length);
      const hits = await engine.ports.lexical.search('梅雨', { k: 1000 });
      expect(new Set(hits.map((h) => h.chunk_id)).size).toBe(hits.length);
      expect(hits.every((h) => chunks.some((c) => c.chunk_id === h.chunk_id))).toBe(true);
    } finally {
      await engine.close();
    }
  });
});
