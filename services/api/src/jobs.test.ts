import { readFileSync } from 'node:fs';
import type { Job } from '@pinpoint/core';
import { afterEach, describe, expect, it } from 'vitest';
import type { TestApp } from '../test/test-app.js';
import { settle, startTestApp, uploadFiles } from '../test/test-app.js';

const md = new Uint8Array(readFileSync(new URL('../../../../shared/eval/jsquad-dev/docs/005_コンゴ共和国.md', import.meta.url)));

async function collection(t: TestApp): Promise<string> {
  return (await t.app.inject({ method: 'POST', url: '/api/collections', payload: { name: 'jobs' } })).json().collection_id;
}

describe('jobs through the API', () => {
  let t: TestApp | undefined;
  afterEach(async () => {
    await t?.close();
    t = undefined;
  });

  it('streams job changes over SSE until the job succeeds', async () => {
    t = await startTestApp({ PINPOINT_PARSE_ISOLATE: 'false' });
    const address = await t.app.listen({ host: '127.0.0.1', port: 0 });
    const col = await collection(t);
    const controller = new AbortController();
    const res = await fetch(`${address}/api/jobs/events?collection_id=${col}`, { signal: controller.signal });
    expect(res.headers.get('content-type')).toMatch(/text\/event-stream/);
    const [uploaded] = await uploadFiles(t.app, col, [{ name: 'congo.md', bytes: md }]);
    const reader = res.body!.getReader();
    const states: string[] = [];
    let buffer = '';
    while (!states.includes('succeeded')) {
      const { value, done } = await reader.read();
      if (done) break;
      buffer += new TextDecoder().decode(value);
      for (const m of buffer.matchAll(/^data: (.+)$/gm)) {
        const job = JSON.parse(m[1]!) as Job;
        if (job.job_id === uploaded?.job?.job_id && states.at(-1) !== `${job.state}`) states.push(job.state);
      }
      buffer = buffer.slice(buffer.lastIndexOf('\n\n') + 2);
    }
    controller.abort();
    expect(states[0]).toBe('queued');
    expect(states).toContain('running');
    expect(states.at(-1)).toBe('succeeded');
  }, 180_000);

  it('cancels a queued job (the version ends cancelled), retries it, and reprocesses a version into a new one', async () => {
    t = await startTestApp({ PINPOINT_WORKER: 'false', PINPOINT_PARSE_ISOLATE: 'false' });
    const col = await collection(t);
    const [up] = await uploadFiles(t.app, col, [{ name: 'congo.md', bytes: md }]);
    const jobId = up!.job!.job_id;
    const cancelled = await t.app.inject({ method: 'POST', url: `/api/jobs/${jobId}/cancel` });
    expect(cancelled.json().state).toBe('cancelled');
    await new Promise((r) => setTimeout(r, 50));
    expect((await t.app.inject({ url: `/api/versions/${up!.version.version_id}` })).json().version.state).toBe('cancelled');
    expect((await t.app.inject({ method: 'POST', url: `/api/jobs/${jobId}/cancel` })).json().error.code).toBe('PP_CONFLICT');

    expect((await t.app.inject({ method: 'POST', url: `/api/jobs/${jobId}/retry` })).json().state).toBe('queued');
    const runner = t.engine.startWorker();
    const [v1] = await settle(t.app, [up!.version.version_id]);
    expect(v1?.state).toBe('ready');

    const re = await t.app.inject({ method: 'POST', url: `/api/versions/${v1!.version_id}/reprocess` });
    expect(re.statusCode).toBe(201);
    const { version: v2 } = re.json();
    expect(v2.number).toBe(2);
    expect((await settle(t.app, [v2.version_id]))[0]?.state).toBe('ready');
    const detail = (await t.app.inject({ url: `/api/versions/${v1!.version_id}` })).json();
    expect(detail.newer_version_id).toBe(v2.version_id);
    const hits = (
      await t.app.inject({ method: 'POST', url: '/api/search', payload: { query: 'コンゴ', collection_id: col } })
    ).json().hits;
    expect(hits.length).toBeGreaterThan(0);
    expect(hits.every((h: { version_id: string }) => h.version_id === v2.version_id)).toBe(true);
    await runner.stop();
  }, 180_000);

  it('cancels a running job: the response already says cancelled, and the version ends cancelled', async () => {
    t = await startTestApp();
    const col = await collection(t);
    const ppt = new Uint8Array(
      readFileSync(new URL('../../../../shared/corpus/formats/ppt/tika__testPPT_various.ppt', import.meta.url)),
    );
    const [up] = await uploadFiles(t.app, col, [{ name: 'slides.ppt', bytes: ppt }]);
    const jobId = up!.job!.job_id;
    for (let i = 0; i < 600; i++) {
      const job = (await t.app.inject({ url: `/api/jobs/${jobId}` })).json();
      if (job.state === 'running' && job.stage === 'parsing') break;
      await new Promise((r) => setTimeout(r, 20));
    }
    const cancelled = await t.app.inject({ method: 'POST', url: `/api/jobs/${jobId}/cancel` });
    expect(cancelled.json()).toMatchObject({ state: 'cancelled', error_code: 'PP_JOB_CANCELLED' });
    const [v] = await settle(t.app, [up!.version.version_id]);
    expect(v).toMatchObject({ state: 'cancelled', error_code: 'PP_JOB_CANCELLED' });
  }, 180_000);
  it('an event stream that fails after it began says so with an error event (code and message)', async () => {
    t = await startTestApp({ PINPOINT_WORKER: 'false' });
    const { metadata } = t.engine.ports;
    const latest = metadata.latestReadyVersionIds.bind(metadata);
    metadata.latestReadyVersionIds = async () => {
      throw new Error('metadata store went away');
    };
    const asked = await t.app.inject({ method: 'POST', url: '/api/ask/stream', payload: { question: 'warranty' } });
    expect(asked.statusCode).toBe(200);
    const events = [...asked.body.matchAll(/^event: (\w+)\ndata: (.+)$/gm)].map((m) => [m[1], JSON.parse(m[2] ?? '')]);
    expect(events.at(-1)).toEqual([
      'error',
      {
        type: 'error',
        error: { code: 'PP_INTERNAL', message: expect.stringContaining('Request id'), request_id: expect.any(String) },
      },
    ]);
    expect(asked.body).not.toContain('metadata store went away');
    metadata.latestReadyVersionIds = latest;
    expect((await t.app.inject({ method: 'POST', url: '/api/ask', payload: { question: 'warranty' } })).statusCode).toBe(200);
  });
});
