import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Version } from '@pinpoint/core';
import { defaultEngineConfig } from '@pinpoint/engine';
import { afterEach, describe, expect, it } from 'vitest';
import { corpusFile, uploadFiles } from '../test/data-folder-fixture.js';
import { loadCliConfig } from './config.js';
import { openEmbeddedEngine } from './embedded.js';
import { verifyDataFolder } from './verify.js';

// A PDF, an Office document and a spreadsheet whose ingestion needs more than the 3 MB file system holds.
const FILES = [
  'pdf/docling__normal_4pages.pdf',
  'pdf/docling__multi_page.pdf',
  'docx/docling__word_sample.docx',
  'xlsx/docling__xlsx_01.xlsx',
].map(corpusFile);

const mount = (dir: string, size: string, remount = false) =>
  execFileSync('mount', ['-t', 'tmpfs', '-o', `${remount ? 'remount,' : ''}size=${size}`, 'tmpfs', dir]);

async function until(ok: () => Promise<boolean>, timeoutMs: number): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!(await ok())) {
    if (Date.now() > end) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 100));
  }
}

describe('ingestion on a full disk (a 3 MB tmpfs mounted by the test; we run as root here and in CI)', () => {
  let dir = '';
  afterEach(() => {
    execFileSync('umount', [dir]);
    rmSync(dir, { recursive: true, force: true });
  });

  it('fails jobs with PP_DISK_FULL, keeps answering, refuses uploads below the reserve, and finishes on Retry once space is freed', async () => {
    dir = mkdtempSync(join(tmpdir(), 'pp-full-'));
    mount(dir, '1600k');
    const data = join(dir, 'data');
    const config = { ...defaultEngineConfig, parse: { ...defaultEngineConfig.parse, isolate: false } };
    const engine = openEmbeddedEngine(data, config);
    // every file is uploaded before the worker starts: a worker already filling the disk could refuse
    // the last upload itself, and the test is about ingestion running out of space
    try {
      const ids = await uploadFiles(engine, FILES);
      const runner = engine.startWorker();
      const states = async (): Promise<Version[]> =>
        Promise.all(ids.map(async (id) => (await engine.ports.metadata.getVersion(id)) as Version));
      let stalledSince = Number.POSITIVE_INFINITY;
      await until(async () => {
        stalledSince = runner.stalledBy?.() ? Math.min(stalledSince, Date.now()) : Number.POSITIVE_INFINITY;
        return (await states()).every((v) => v.state === 'ready' || v.state === 'failed') || Date.now() - stalledSince > 2000;
      }, 20_000);
      // every upload is ready, failed with PP_DISK_FULL (its message says where and what is left), or waits to run again
      const now = await states();
      expect(now.filter((v) => v.state !== 'ready').length).toBeGreaterThan(0);
      for (const v of now.filter((x) => x.state === 'failed')) {
        expect(v).toMatchObject({ error_code: 'PP_DISK_FULL', error_message: expect.stringMatching(/disk is full .* MB free/) });
      }
      expect(now.every((v) => ['ready', 'failed', 'queued', 'processing'].includes(v.state))).toBe(true);
      // reads and answers go on with what is indexed
      await expect(engine.search('aircraft', { k: 5 })).resolves.toBeDefined();
      await expect(engine.ask('What is the handbook about?')).resolves.toBeDefined();
      // below the reserve new uploads are refused, before anything is stored
      const reserved = openEmbeddedEngine(data, { ...config, minFreeBytes: 512 * 1024 * 1024 });
      await expect(uploadFiles(reserved, FILES.slice(2, 3))).rejects.toMatchObject({
        code: 'PP_DISK_FULL',
        message: expect.stringMatching(/below the reserve/),
      });
      await reserved.close();

      mount(dir, '200m', true);
      // Retry, as the job console's button does, until every file is in (a run stalled on the full disk ends failed first)
      await until(async () => {
        for (const job of await engine.jobs.list({ state: 'failed' })) await engine.jobs.retry(job.job_id);
        return (await states()).every((v) => v.state === 'ready');
      }, 20_000);
    } finally {
      await engine.close();
    }
    const report = await verifyDataFolder(loadCliConfig(['verify', '--data-dir', data], {}), {
      repair: false,
      progress: () => {},
    });
    expect(report.problems).toEqual([]);
  }, 30_000);
});
