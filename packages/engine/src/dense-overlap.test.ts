import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { LexicalIndex, VectorStore } from '@pinpoint/core';
import { createEmbedder } from '@pinpoint/providers';
import { openLexicalIndex } from '@pinpoint/retrieval';
import { type FakeServer, startFakeOllama } from '@pinpoint/testing';
import { openEmbeddedVectorStore } from '@pinpoint/vectors';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Engine } from './engine.js';
import { openTestEngine, textFiles, uploadSettled } from './test-engine.js';

let dir: string;
let ollama: FakeServer;
let engine: Engine;
let close: () => Promise<void>;
const events: string[] = [];
/** Set to make the vector store's next searches fail. */
let failDense: Error | null = null;

/** Each of the port's calls of `method` logged in `events` as `name` when made and `name:done` when settled. */
function logged<T extends object>(port: T, method: string, name: string): T {
  return new Proxy(port, {
    get(target, key, receiver) {
      const value = Reflect.get(target, key, receiver);
      if (key !== method || typeof value !== 'function') return typeof value === 'function' ? value.bind(target) : value;
      return async (...args: unknown[]) => {
        events.push(name);
        if (name === 'dense' && failDense) throw failDense;
        try {
          return await value.apply(target, args);
        } finally {
          events.push(`${name}:done`);
        }
      };
    },
  });
}

beforeAll(async () => {
  // the lexical index and the vector store are opened here, to be logged, in a folder of their own
  dir = mkdtempSync(join(tmpdir(), 'pp-dense-overlap-ports-'));
  ollama = await startFakeOllama(64);
  const embedder = await createEmbedder({ kind: 'ollama', url: ollama.url, model: 'bge-m3', dimensions: 64 });
  const lexical: LexicalIndex = openLexicalIndex(join(dir, 'lexical.db'));
  const vectors: VectorStore = openEmbeddedVectorStore({ path: join(dir, 'vectors.db'), dimensions: 64 });
  ({ engine, close } = openTestEngine('pp-dense-overlap-', {
    isolate: false,
    ports: {
      lexical: logged(lexical, 'search', 'lexical'),
      vectors: logged(vectors, 'search', 'dense'),
      ...(embedder ? { embedder } : {}),
    },
  }));
  const collection = await engine.ensureCollection('overlap');
  await uploadSettled(
    engine,
    collection.collection_id,
    textFiles({
      'aardvark.md': '# Notes\n\nThe aardvark digs burrows at night and eats termites near the river bank.',
      'pangolin.md': '# Notes\n\nThe pangolin rolls into a ball when threatened and eats ants in the forest.',
    }),
    20_000,
  );
});

afterAll(async () => {
  await close();
  await ollama.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('a hybrid question', () => {
  it('sends its dense search before the lexical search starts, and fuses both sides', async () => {
    events.length = 0;
    const r = await engine.search('Where does the aardvark dig its burrows?', { k: 5 });
    // the vector store is asked first: the embedded store's thread searches while the lexical index holds this one
    expect(events.indexOf('dense')).toBeGreaterThanOrEqual(0);
    expect(events.indexOf('dense')).toBeLessThan(events.indexOf('lexical'));
    expect(r.timings.dense).toBeGreaterThan(0);
    expect(r.timings.lexical).toBeGreaterThanOrEqual(0);
    const top = r.hits[0];
    expect(top?.file).toBe('aardvark.md');
    expect(top?.ranks).toMatchObject({ lexical: 1 });
    expect(Object.keys(top?.ranks ?? {})).toContain('dense');
  });

  it('fails with the dense side’s error when it fails during the lexical search, and answers again after', async () => {
    failDense = Object.assign(new Error('vector store down'), { code: 'PP_UNAVAILABLE' });
    const unhandled: unknown[] = [];
    const onUnhandled = (e: unknown) => unhandled.push(e);
    process.on('unhandledRejection', onUnhandled);
    try {
      await expect(engine.search('aardvark burrows', { k: 5 })).rejects.toThrow('vector store down');
      await new Promise((r) => setTimeout(r, 50));
      expect(unhandled).toEqual([]);
    } finally {
      process.off('unhandledRejection', onUnhandled);
      failDense = null;
    }
    expect((await engine.search('aardvark burrows', { k: 5 })).hits[0]?.file).toBe('aardvark.md');
  });
});
