import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Job } from '@pinpoint/core';
import { createEmbedder } from '@pinpoint/providers';
import { openLexicalIndex } from '@pinpoint/retrieval';
import { FsBlobStore, SqliteJobQueue, SqliteMetadataStore } from '@pinpoint/storage';
import { type FakeServer, startFakeOllama, until } from '@pinpoint/testing';
import { openEmbeddedVectorStore } from '@pinpoint/vectors';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultEngineConfig } from './config.js';
import { createEngine, type Engine } from './engine.js';

const v1Text = '# Notes\n\nThe aardvark digs burrows at night and eats termites near the river bank.';
const v2Text = '# Notes\n\nThe pangolin rolls into a ball when threatened and eats ants in the forest.';

let dir: string;
let ollama: FakeServer;
let engine: Engine;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'pp-late-cancel-'));
  ollama = await startFakeOllama(64);
  const embedder = await createEmbedder({ kind: 'ollama', url: ollama.url, model: 'bge-m3', dimensions: 64 });
  engine = createEngine(
    { ...defaultEngineConfig, parse: { ...defaultEngineConfig.parse, isolate: false } },
    {
      metadata: new SqliteMetadataStore(join(dir, 'metadata.db')),
      blobs: new FsBlobStore(join(dir, 'blobs')),
      queue: new SqliteJobQueue({ path: join(dir, 'jobs.db'), backoffMs: 10, pollMs: 10 }),
      lexical: openLexicalIndex(join(dir, 'lexical.db')),
      vectors: openEmbeddedVectorStore({ path: join(dir, 'vectors.db'), dimensions: 64 }),
      ...(embedder ? { embedder } : {}),
    },
  );
  engine.startWorker({ concurrency: 1 });
});

afterAll(async () => {
  await engine.close();
  await ollama.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('a cancel that lands after the version became ready', () => {
  it('ends the version cancelled, unsearchable, and makes the previous ready version searchable again', async () => {
    const { ports } = engine;
    const collection = await engine.ensureCollection('late-cancel');
    const encode = (text: string) => new TextEncoder().encode(text);
    const [first] = await engine.upload(collection.collection_id, [{ name: 'notes.md', bytes: encode(v1Text) }]);
    const v1 = first?.version.version_id ?? '';
    expect((await engine.waitForVersions([v1], { timeoutMs: 20_000 }))[0]?.state).toBe('ready');

    // Cancel at the 'done' stage: the version is ready and v1 already left the index; the processor then returns normally.
    let cancelled = false;
    const off = ports.queue.subscribe((job: Job) => {
      if (cancelled || job.state !== 'running' || job.stage !== 'done' || job.version_id === v1) return;
      cancelled = true;
      void ports.queue.cancel(job.job_id);
    });
    const [second] = await engine.upload(collection.collection_id, [{ name: 'notes.md', bytes: encode(v2Text) }]);
    const v2 = second?.version.version_id ?? '';
    expect(second?.document.document_id).toBe(first?.document.document_id);
    const version = await until(
      () => ports.metadata.getVersion(v2),
      (v) => v?.state === 'cancelled',
    );
    off();
    expect(cancelled).toBe(true);
    expect(version?.state).toBe('cancelled');
    expect(version?.error_code).toBe('PP_JOB_CANCELLED');
    expect((await ports.queue.get(second?.job?.job_id ?? ''))?.state).toBe('cancelled');
    expect(await ports.metadata.listChunks(v2)).toEqual([]);

    // Nothing of v2 is searchable, lexically or by vector; v1 is searchable again in both.
    expect(await ports.lexical.search('pangolin', { k: 10 })).toEqual([]);
    const lexical = await until(
      () => ports.lexical.search('aardvark', { k: 10 }),
      (hits) => hits.length > 0,
    );
    const v1Chunks = new Set((await ports.metadata.listChunks(v1)).map((c) => c.chunk_id));
    expect(lexical.length).toBeGreaterThan(0);
    expect(lexical.every((h) => v1Chunks.has(h.chunk_id))).toBe(true);
    const [query] = await (ports.embedder?.embedDocuments(['pangolin ants forest']) ?? Promise.resolve([]));
    const dense = await until(
      () => ports.vectors?.search(query ?? new Float32Array(64), { k: 20 }) ?? Promise.resolve([]),
      (hits) => hits.length > 0,
    );
    expect(dense.length).toBeGreaterThan(0);
    expect(dense.every((h) => v1Chunks.has(h.chunk_id))).toBe(true);
    expect((await engine.getDocument(first?.document.document_id ?? '')).latest_ready_version_id).toBe(v1);
    const found = await engine.search('aardvark termites', { collectionId: collection.collection_id });
    expect(found.hits.map((h) => h.version_id)).toContain(v1);
  });
});
