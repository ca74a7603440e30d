import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { jobsInFlight } from '../test/deployment-checks.js';
import { createThrowawayDeployment } from '../test/throwaway-deployment.js';

const SLOW_DOC = fileURLToPath(new URL('../../../../shared/eval/jsquad-dev/docs/041_ポルトガル.pdf', import.meta.url));
const QUICK = { PINPOINT_PARSE_ISOLATE: 'false', PINPOINT_JOB_BACKOFF_MS: '100' };

describe('distributed worker: SIGTERM drains', () => {
  it('finishes the running job before exiting', async () => {
    const d = await createThrowawayDeployment(QUICK);
    try {
      const worker = await d.spawnWorker();
      const [upload] = await d.uploadFiles([SLOW_DOC]);
      await expect.poll(() => jobsInFlight(worker).length, { timeout: 60_000, interval: 5 }).toBe(1);
      worker.child.kill('SIGTERM');
      expect(await worker.exited).toBe(0);
      const order = worker.events.map((e) => e.event).filter((e) => e === 'job-finished' || e === 'worker-stopped');
      expect(order).toEqual(['job-finished', 'worker-stopped']);
      expect((await d.engine.getVersion(upload?.version.version_id ?? '')).version.state).toBe('ready');
    } finally {
      await d.dispose();
    }
  }, 180_000);

  it('past the drain timeout, puts the job back for another worker, which finishes it', async () => {
    const d = await createThrowawayDeployment({ ...QUICK, PINPOINT_DRAIN_TIMEOUT_MS: '100' });
    try {
      const first = await d.spawnWorker();
      const [upload] = await d.uploadFiles([SLOW_DOC]);
      await expect.poll(() => jobsInFlight(first).length, { timeout: 60_000, interval: 5 }).toBe(1);
      first.child.kill('SIGTERM');
      expect(await first.exited).toBe(0);
      expect(first.events.some((e) => e.event === 'job-finished')).toBe(false);
      expect((await d.ports.queue.get(upload?.job?.job_id ?? ''))?.state).toBe('queued');
      await d.spawnWorker();
      const [version] = await d.engine.waitForVersions([upload?.version.version_id ?? ''], { timeoutMs: 120_000 });
      expect(version?.state).toBe('ready');
      const jobId = upload?.job?.job_id ?? '';
      await expect
        .poll(async () => (await d.ports.queue.get(jobId))?.state, { timeout: 60_000, interval: 100 })
        .toBe('succeeded');
      expect((await d.ports.queue.get(jobId))?.attempts).toBe(2);
    } finally {
      await d.dispose();
    }
  }, 180_000);
});
