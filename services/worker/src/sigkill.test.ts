import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { checkContent, countEvents, jobsInFlight } from '../test/deployment-checks.js';
import { evalDocs } from '../test/eval-docs.js';
import type { WorkerProcess } from '../test/throwaway-deployment.js';
import { createThrowawayDeployment } from '../test/throwaway-deployment.js';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const SLOW_DOC = fileURLToPath(new URL('../../../../shared/eval/jsquad-dev/docs/041_ポルトガル.pdf', import.meta.url));

/** Short locks so a killed worker's job is recovered within a few seconds (long enough for a busy machine's event loop). */
const FAST_RECOVERY = {
  PINPOINT_PARSE_ISOLATE: 'false',
  PINPOINT_LOCK_DURATION_MS: '3000',
  PINPOINT_STALLED_INTERVAL_MS: '1000',
  PINPOINT_MAX_STALLED_COUNT: '100',
  PINPOINT_JOB_BACKOFF_MS: '100',
  PINPOINT_WORKER_CONCURRENCY: '2',
};

async function busyWorker(live: Set<WorkerProcess>, timeoutMs: number): Promise<WorkerProcess | null> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    for (const w of live) if (jobsInFlight(w).length > 0) return w;
    await sleep(5);
  }
  return null;
}

describe('distributed worker: SIGKILL in the middle of jobs', () => {
  it('20 kills: every job ends ready, no duplicate and no orphan chunks', async () => {
    const d = await createThrowawayDeployment(FAST_RECOVERY);
    const docs = evalDocs(['md', 'txt', 'html']);
    const all: WorkerProcess[] = [];
    const live = new Set<WorkerProcess>();
    const boot = () =>
      d.spawnWorker().then((w) => {
        all.push(w);
        live.add(w);
      });
    try {
      const versionIds: string[] = [];
      const upload = async (n: number) => {
        for (const r of await d.uploadFiles(docs.splice(0, n))) versionIds.push(r.version.version_id);
      };
      await upload(6);
      const booting = [boot(), boot()];
      const killed: string[] = [];
      while (killed.length < 20) {
        const victim = await busyWorker(live, 60_000);
        if (!victim) throw new Error('no worker picked up a job within 60 s');
        await sleep(Math.floor(Math.random() * 120));
        const inFlight = jobsInFlight(victim);
        if (inFlight.length === 0) continue;
        victim.child.kill('SIGKILL');
        live.delete(victim);
        killed.push(...inFlight);
        booting.push(boot());
        await upload(3);
      }
      await Promise.all(booting);
      const versions = await d.engine.waitForVersions(versionIds, { timeoutMs: 120_000 });
      expect(versions.map((v) => v.state)).toEqual(versionIds.map(() => 'ready'));
      // A version is ready a moment before its job is recorded succeeded (or, when the kill fell in between, a lock later).
      await expect
        .poll(async () => (await d.ports.queue.list()).filter((j) => j.state !== 'succeeded').length, {
          timeout: 60_000,
          interval: 100,
        })
        .toBe(0);
      const jobs = await d.ports.queue.list();
      expect(jobs).toHaveLength(versionIds.length);
      const finished = countEvents(all, 'job-finished');
      expect(jobs.every((j) => (finished.get(j.job_id) ?? 0) >= 1)).toBe(true);
      const rerunWithoutKill = [...finished].filter(([id, n]) => n > 1 && !killed.includes(id));
      expect(rerunWithoutKill).toEqual([]);
      expect(new Set(killed).size).toBeGreaterThan(1);
      expect(await checkContent(d)).toEqual({ versions: versionIds.length, notReady: 0, duplicateOrGappedChunks: 0, orphans: 0 });
    } finally {
      await d.dispose();
    }
  }, 240_000);

  it('a job that kills its worker more often than allowed ends failed, with a message that says so', async () => {
    const d = await createThrowawayDeployment({
      ...FAST_RECOVERY,
      PINPOINT_MAX_STALLED_COUNT: '0',
      PINPOINT_WORKER_CONCURRENCY: '1',
    });
    try {
      const first = await d.spawnWorker();
      const [upload] = await d.uploadFiles([SLOW_DOC]);
      await expect.poll(() => jobsInFlight(first).length, { timeout: 60_000, interval: 5 }).toBe(1);
      first.child.kill('SIGKILL');
      await d.spawnWorker();
      const [version] = await d.engine.waitForVersions([upload?.version.version_id ?? ''], { timeoutMs: 60_000 });
      expect(version).toMatchObject({ state: 'failed', error_code: 'PP_INTERNAL' });
      const job = await d.ports.queue.get(upload?.job?.job_id ?? '');
      expect(job).toMatchObject({ state: 'failed', error_code: 'PP_INTERNAL' });
      expect(job?.error_message).toMatch(/died 1 times/);
      expect(await checkContent(d)).toMatchObject({ duplicateOrGappedChunks: 0 });
    } finally {
      await d.dispose();
    }
  }, 180_000);
});
