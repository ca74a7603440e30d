import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { askAll, MIXED_FILES, MORE_FILES, openTestEngine, uploadFiles } from '../test/data-folder-fixture.js';
import { backupDataFolder } from './backup.js';
import { loadCliConfig } from './config.js';
import { restoreDataFolder } from './restore.js';
import { verifyDataFolder } from './verify.js';

const quiet = () => {};

describe('backup and restore of a data folder', () => {
  let dir = '';
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('backs up while files ingest; the restored folder answers the same with the same citations', async () => {
    dir = mkdtempSync(join(tmpdir(), 'pp-backup-'));
    const [data, dest, restored] = ['data', 'backup', 'restored'].map((n) => join(dir, n)) as [string, string, string];
    const engine = openTestEngine(data);
    engine.startWorker();
    try {
      await engine.waitForVersions(await uploadFiles(engine, MIXED_FILES), { timeoutMs: 60_000 });
      const first = await backupDataFolder(data, dest, quiet);
      expect(first.blobs.copied).toBe(first.blobs.total);
      // online: a backup taken while two more files are being ingested
      const more = await uploadFiles(engine, MORE_FILES);
      const during = await backupDataFolder(data, dest, quiet);
      expect(during.blobs.reused).toBeGreaterThanOrEqual(first.blobs.total);
      expect(during.blobs.copied).toBe(during.blobs.total - during.blobs.reused);
      await engine.waitForVersions(more, { timeoutMs: 60_000 });
      const before = await askAll(engine);
      expect(before.some((a) => !(a as { refused: boolean }).refused)).toBe(true);

      const summary = await restoreDataFolder(dest, restored, quiet);
      expect(summary.snapshot).toBe(during.snapshot);
      const again = openTestEngine(restored);
      again.startWorker();
      try {
        const versions = await again.ports.metadata.listVersions();
        const settled = await again.waitForVersions(
          versions.map((v) => v.version_id),
          { timeoutMs: 60_000 },
        );
        expect(settled.map((v) => v.state)).toEqual(versions.map(() => 'ready'));
        expect(await askAll(again)).toEqual(before);
      } finally {
        await again.close();
      }
      const report = await verifyDataFolder(loadCliConfig(['verify', '--data-dir', restored], {}), {
        repair: false,
        progress: quiet,
      });
      expect(report.problems).toEqual([]);
    } finally {
      await engine.close();
    }
  }, 30_000);

  it('refuses a folder that is not empty and a backup whose files do not match the manifest', async () => {
    dir = mkdtempSync(join(tmpdir(), 'pp-backup-'));
    const [data, dest] = [join(dir, 'data'), join(dir, 'backup')];
    const engine = openTestEngine(data);
    engine.startWorker();
    try {
      await engine.waitForVersions(await uploadFiles(engine, MIXED_FILES.slice(0, 1)), { timeoutMs: 60_000 });
    } finally {
      await engine.close();
    }
    const { snapshot } = await backupDataFolder(data, dest, quiet);
    await expect(restoreDataFolder(dest, data, quiet)).rejects.toMatchObject({ code: 'PP_CONFLICT' });
    expect(readdirSync(join(dir, 'backup', 'snapshots'))).toHaveLength(1);
    writeFileSync(join(snapshot, 'jobs.db'), 'not the copy the manifest lists');
    await expect(restoreDataFolder(dest, join(dir, 'elsewhere'), quiet)).rejects.toMatchObject({
      code: 'PP_ARTIFACT_HASH_MISMATCH',
    });
  }, 30_000);
});
