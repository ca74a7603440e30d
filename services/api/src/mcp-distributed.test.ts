import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BullMQJobQueue } from '@pinpoint/bullmq';
import { freePort } from '@pinpoint/conformance';
import type { AccessStore, Citation, JobRunner } from '@pinpoint/core';
import type { Engine } from '@pinpoint/engine';
import { createGuardedEngine, createIdentity, principalOf } from '@pinpoint/engine';
import { dropSchema } from '@pinpoint/postgres';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { McpTestClient } from '../test/mcp-test-client.js';
import { connectMcp, evalDoc, evalQuestion } from '../test/mcp-test-client.js';
import { openAccessStore } from './access.js';
import { buildApp } from './app.js';
import { createDistributedEngine } from './compose-distributed.js';
import { configFor } from './config.js';

const DATABASE_URL = 'postgres://postgres@127.0.0.1:5432/test';
const MD = '000_梅雨.md';

describe('/mcp in distributed mode (PostgreSQL, BullMQ on Redis)', () => {
  const id = randomUUID().replaceAll('-', '').slice(0, 12);
  const schema = `pp_mcp_${id}`;
  let dir: string;
  let engine: Engine;
  let access: AccessStore;
  let app: FastifyInstance;
  let worker: JobRunner;
  let mcp: McpTestClient;
  let base: string;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'pp-mcp-dist-'));
    const port = await freePort();
    base = `http://127.0.0.1:${port}`;
    const config = configFor(join(dir, 'data'), {
      PINPOINT_MODE: 'distributed',
      PINPOINT_DATABASE_URL: DATABASE_URL,
      PINPOINT_PG_SCHEMA: schema,
      PINPOINT_QUEUE_NAME: `mcp-${id}`,
      PINPOINT_QUEUE_PREFIX: 'pptest',
      PINPOINT_LOG_LEVEL: 'silent',
      PINPOINT_PARSE_ISOLATE: 'false',
      PINPOINT_PORT: String(port),
    });
    engine = await createDistributedEngine(config, () => {});
    // the worker service's processor, consuming the same BullMQ queue in this process
    worker = engine.startWorker({ concurrency: 1 });
    access = await openAccessStore(config);
    app = await buildApp(config, { engine, access, signingSecret: 'test-secret-0123456789abcdef' });
    // distributed mode has auth on: the agent calls with a user's API token
    const identity = createIdentity(access);
    const user = await identity.addUser('agent-owner@x.test', 'correct horse battery');
    const guarded = createGuardedEngine(engine, access);
    const collection = await guarded.createCollection(principalOf(user), 'team');
    const [uploaded] = await guarded.upload(principalOf(user), collection.collection_id, [
      { name: MD, bytes: evalDoc(MD), declaredMime: null },
    ]);
    const [version] = await engine.waitForVersions([uploaded?.version.version_id ?? ''], { timeoutMs: 120_000 });
    expect(version?.state).toBe('ready');
    await app.listen({ host: '127.0.0.1', port });
    const { token } = await identity.createToken(user.user_id, 'agent');
    mcp = await connectMcp(base, { authorization: `Bearer ${token}` });
  }, 180_000);

  afterAll(async () => {
    await mcp?.client.close();
    await app?.close();
    await worker?.stop();
    if (engine?.ports.queue instanceof BullMQJobQueue) await engine.ports.queue.destroy();
    await engine?.close();
    await access?.close();
    await dropSchema(DATABASE_URL, schema);
    rmSync(dir, { recursive: true, force: true });
  });

  it('asks with citations, refuses, links the citation and serves its signed download', async () => {
    const answer = await mcp.call('ask', { question: evalQuestion('a10336p10q0') });
    const a = answer.structuredContent as { refused: boolean; citations: Citation[] };
    expect(a.refused).toBe(false);
    expect(a.citations[0]).toMatchObject({ file: MD, precision: 'exact', anchor: { kind: 'text' } });

    const refusal = await mcp.call('ask', {
      question: 'What is the torque specification for the rear axle bolts of a 1987 tractor?',
    });
    expect(refusal.structuredContent).toMatchObject({ refused: true, citations: [] });

    const link = (await mcp.call('open_citation', { citation: a.citations[0] })).structuredContent as {
      reader_url: string;
      download_url: string;
    };
    expect(link.reader_url.startsWith(`${base}/#/cite?v=`)).toBe(true);
    const download = await fetch(link.download_url);
    expect(download.status).toBe(200);
    expect(new Uint8Array(await download.arrayBuffer())).toEqual(evalDoc(MD));

    const bad = await mcp.call('search', { query: 'x', k: 0 });
    expect(bad.isError).toBe(true);
    expect(bad._meta?.['pinpoint/error']).toMatchObject({ code: 'PP_VALIDATION' });
  });
});
