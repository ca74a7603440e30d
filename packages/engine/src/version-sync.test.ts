import { fork } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { openLexicalIndex } from '@pinpoint/retrieval';
import { FsBlobStore, SqliteJobQueue, SqliteMetadataStore } from '@pinpoint/storage';
import { until } from '@pinpoint/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { defaultEngineConfig } from './config.js';
import { createEngine, type Engine } from './engine.js';
import type { EngineLog } from './version-sync.js';

let dir = '';
let engine: Engine | null = null;
afterEach(async () => {
  await engine?.close();
  engine = null;
  rmSync(dir, { recursive: true, force: true });
});

function open(dataDir: string, log: EngineLog, lexical = openLexicalIndex(join(dataDir, 'lexical.db'))): Engine {
  return createEngine(
    defaultEngineConfig,
    {
      metadata: new SqliteMetadataStore(join(dataDir, 'metadata.db')),
      blobs: new FsBlobStore(join(dataDir, 'blobs')),
      queue: new SqliteJobQueue({ path: join(dataDir, 'jobs.db'), pollMs: 10 }),
      lexical,
    },
    { log },
  );
}

describe('version sync', () => {
  it('logs a failed sync with its job and version, retries it, and the version ends consistent', async () => {
    dir = mkdtempSync(join(tmpdir(), 'pp-sync-fail-'));
    const events: { event: string; fields: Record<string, unknown> }[] = [];
    const lexical = openLexicalIndex(join(dir, 'lexical.db'));
    const deleteVersion = lexical.deleteVersion.bind(lexical);
    let failures = 1;
    lexical.deleteVersion = async (versionId) => {
      if (failures-- > 0) throw new Error('lexical index unavailable');
      return deleteVersion(versionId);
    };
    engine = open(dir, (event, fields) => events.push({ event, fields }), lexical);
    const collection = await engine.ensureCollection('sync');
    const [up] = await engine.upload(collection.collection_id, [
      { name: 'a.md', bytes: new TextEncoder().encode('# A\n\nText.') },
    ]);
    const versionId = up?.version.version_id ?? '';
    await engine.ports.queue.cancel(up?.job?.job_id ?? '');

    const version = await until(
      () => engine!.ports.metadata.getVersion(versionId),
      (v) => v?.state === 'cancelled',
    );
    expect(version?.state).toBe('cancelled');
    expect(events.map((e) => e.event)).toEqual(['version-sync-failed', 'version-sync-recovered']);
    expect(events[0]?.fields).toMatchObject({
      job_id: up?.job?.job_id,
      version_id: versionId,
      job_state: 'cancelled',
      code: 'PP_INTERNAL',
      message: 'lexical index unavailable',
    });
  });

  it('a sync killed mid-way is finished at the next start: the cancelled job leaves its version cancelled', async () => {
    dir = mkdtempSync(join(tmpdir(), 'pp-sync-kill-'));
    const child = fork(fileURLToPath(new URL('../test/version-sync-child.ts', import.meta.url)), [dir], {
      execArgv: ['--import', 'tsx'],
      stdio: 'ignore',
    });
    await new Promise<void>((resolve, reject) => {
      child.on('message', () => resolve());
      child.on('exit', (code) => reject(new Error(`child exited before the sync (${code})`)));
    });
    child.kill('SIGKILL');
    await new Promise((r) => child.once('exit', r));

    const metadata = new SqliteMetadataStore(join(dir, 'metadata.db'));
    expect((await metadata.listVersions()).map((v) => v.state)).toEqual(['queued']);
    await metadata.close();

    const events: string[] = [];
    engine = open(dir, (event) => events.push(event));
    const [job] = await engine.ports.queue.list();
    expect(job?.state).toBe('cancelled');
    const version = await until(
      () => engine!.ports.metadata.getVersion(job?.version_id ?? ''),
      (v) => v?.state === 'cancelled',
    );
    expect(version).toMatchObject({ state: 'cancelled', error_code: 'PP_JOB_CANCELLED' });
    expect(events).toContain('versions-reconciled');
    expect(await engine.reconcile()).toEqual([]);
    expect(await engine.ports.lexical.search('okapi', { k: 10 })).toEqual([]);
  });
});
