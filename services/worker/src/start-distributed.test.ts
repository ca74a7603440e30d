import type { ChildProcess } from 'node:child_process';
import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BullMQJobQueue } from '@pinpoint/bullmq';
import type { Job } from '@pinpoint/core';
import { dropSchema } from '@pinpoint/postgres';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const LAUNCHER = new URL('./start-distributed.ts', import.meta.url).pathname;
const ROOT = new URL('../../../', import.meta.url).pathname;
const NORMANS = new URL('../../../../shared/eval/squad2-dev/docs/000_Normans.md', import.meta.url).pathname;
const DATABASE_URL = 'postgres://postgres@127.0.0.1:5432/test';

/** Reads `event: job` messages from the API's SSE stream until `done` says stop. */
async function readJobEvents(url: string, done: (events: Job[]) => boolean, signal: AbortSignal): Promise<Job[]> {
  const res = await fetch(url, { signal });
  const reader = res.body?.getReader();
  const events: Job[] = [];
  let buffered = '';
  while (reader && !done(events)) {
    const { value, done: ended } = await reader.read();
    if (ended) break;
    buffered += new TextDecoder().decode(value);
    const messages = buffered.split('\n\n');
    buffered = messages.pop() ?? '';
    for (const m of messages) {
      const data = m.split('\n').find((l) => l.startsWith('data: '));
      if (m.includes('event: job') && data) events.push(JSON.parse(data.slice(6)) as Job);
    }
  }
  await reader?.cancel();
  return events;
}

describe('pnpm start:distributed', () => {
  const id = randomUUID().replaceAll('-', '').slice(0, 12);
  const port = 20_000 + Math.floor(Math.random() * 20_000);
  const base = `http://127.0.0.1:${port}`;
  let dir = '';
  let launcher: ChildProcess;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'pp-start-'));
    launcher = spawn(process.execPath, ['--import', 'tsx', LAUNCHER], {
      cwd: ROOT,
      stdio: 'ignore',
      env: {
        PATH: process.env.PATH ?? '',
        PINPOINT_PORT: String(port),
        PINPOINT_PG_SCHEMA: `pp_test_${id}`,
        PINPOINT_QUEUE_NAME: `start-${id}`,
        PINPOINT_QUEUE_PREFIX: 'pptest',
        PINPOINT_DATA_DIR: dir,
        PINPOINT_BLOB_DIR: join(dir, 'blobs'),
        PINPOINT_WORKERS: '1',
        PINPOINT_PARSE_ISOLATE: 'false',
        // The distributed mode defaults to PINPOINT_AUTH=on; this run checks the processes, on loopback without users.
        PINPOINT_AUTH: 'off',
      },
    });
    const deadline = Date.now() + 120_000;
    while (
      !(await fetch(`${base}/api/collections`).then(
        (r) => r.ok,
        () => false,
      ))
    ) {
      if (Date.now() > deadline || launcher.exitCode !== null) throw new Error('the API did not come up within 120 s');
      await new Promise((r) => setTimeout(r, 250));
    }
  }, 180_000);

  afterAll(async () => {
    const exited = new Promise((r) => launcher.once('exit', r));
    launcher.kill('SIGTERM');
    await exited;
    const queue = new BullMQJobQueue({ redisUrl: 'redis://127.0.0.1:6379', queueName: `start-${id}`, prefix: 'pptest' });
    await queue.destroy();
    await dropSchema(DATABASE_URL, `pp_test_${id}`);
    await rm(dir, { recursive: true, force: true });
  }, 180_000);

  it('serves the same API: an upload is queued, a worker process ingests it, progress streams over SSE, search finds it', async () => {
    const { collections } = (await (await fetch(`${base}/api/collections`)).json()) as {
      collections: { collection_id: string }[];
    };
    const collectionId = collections[0]?.collection_id ?? '';
    const stop = new AbortController();
    const streamed = readJobEvents(
      `${base}/api/jobs/events`,
      (events) => events.some((j) => j.state === 'succeeded'),
      stop.signal,
    );
    const form = new FormData();
    form.append('file', new Blob([await readFile(NORMANS)]), '000_Normans.md');
    const upload = await fetch(`${base}/api/collections/${collectionId}/uploads`, { method: 'POST', body: form });
    expect(upload.status).toBe(201);
    const events = await streamed;
    stop.abort();
    expect(events.map((j) => j.stage)).toEqual(expect.arrayContaining(['parsing', 'indexing', 'done']));
    const jobId = events.at(-1)?.job_id ?? '';
    expect(await (await fetch(`${base}/api/jobs/${jobId}`)).json()).toMatchObject({
      state: 'succeeded',
      attempts: 1,
      progress: 100,
    });
    const search = await fetch(`${base}/api/search`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ query: 'Duchy of Normandy' }),
    });
    const { hits } = (await search.json()) as { hits: { file: string }[] };
    expect(hits[0]?.file).toBe('000_Normans.md');
  }, 120_000);
});
