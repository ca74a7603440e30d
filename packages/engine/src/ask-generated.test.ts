import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createEmbedder, createGenerator } from '@pinpoint/providers';
import { openLexicalIndex } from '@pinpoint/retrieval';
import { FsBlobStore, SqliteJobQueue, SqliteMetadataStore } from '@pinpoint/storage';
import { type FakeServer, startFakeGemini, startFakeOllama } from '@pinpoint/testing';
import { openEmbeddedVectorStore } from '@pinpoint/vectors';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultEngineConfig } from './config.js';
import { createEngine, type Engine } from './engine.js';

const policy = [
  '# Travel policy',
  '',
  'Taxi fares are refunded up to 50 dollars per trip when a receipt is attached. Airport shuttles count as taxis for this rule, and tips are not refunded at all.',
  '',
  '## Meals',
  '',
  'Meals on business trips are covered up to 30 dollars per day. Alcohol is never refunded, and client dinners need approval from a director in advance.',
  '',
  '## Hotels',
  '',
  'Hotels are booked through the travel desk. A single room is standard; suites need written approval. Late checkout fees are paid by the employee.',
].join('\n');

/** Cites the prompt's source that mentions `word`, optionally adding a sentence the source does not support. */
function citeSourceWith(prompt: string, word: string, extra = ''): string {
  const n = [...prompt.matchAll(/^\[(\d+)\] [^\n]*\n([^[]*)/gm)].find((m) => (m[2] ?? '').includes(word))?.[1];
  return n ? `Taxi fares are refunded up to 50 dollars per trip [${n}].${extra.replace('N', n)}` : 'No source.';
}

let dir: string;
let gemini: FakeServer;
let ollama: FakeServer;
let engine: Engine;
let rewriting: Engine;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'pp-ask-gen-'));
  gemini = await startFakeGemini((prompt) => {
    if (prompt.includes('Rewrite the question')) {
      const compound = prompt.includes('and what do meals cover');
      return JSON.stringify({
        paraphrases: ['taxi fare refund limit', 'how much is refunded for a taxi trip'],
        parts: compound ? ['How much are taxi fares refunded?', 'What do meals cover?'] : [],
      });
    }
    if (prompt.includes('Question: What do meals cover?')) {
      const n = [...prompt.matchAll(/^\[(\d+)\] [^\n]*\n([^[]*)/gm)].find((m) => (m[2] ?? '').includes('Meals'))?.[1];
      return `Meals are covered up to 30 dollars per day [${n}].`;
    }
    if (prompt.includes('Question: Do hotels refund')) return 'NO_ANSWER: The documents do not answer this question.';
    if (prompt.includes('Question: How much are taxi fares refunded, and are hotel suites free'))
      return citeSourceWith(prompt, 'Taxi', ' Hotel suites are free for all employees every weekend [N].');
    return citeSourceWith(prompt, 'Taxi');
  });
  ollama = await startFakeOllama(128);
  const embedder = await createEmbedder({ kind: 'ollama', url: ollama.url, model: 'bge-m3', dimensions: 128 });
  const generator = createGenerator({ kind: 'gemini', apiKey: 'test', baseUrl: gemini.url });
  engine = createEngine(
    { ...defaultEngineConfig, parse: { ...defaultEngineConfig.parse, isolate: false }, chunk: { targetSize: 200, overlap: 0 } },
    {
      metadata: new SqliteMetadataStore(join(dir, 'metadata.db')),
      blobs: new FsBlobStore(join(dir, 'blobs')),
      queue: new SqliteJobQueue({ path: join(dir, 'jobs.db'), backoffMs: 10, pollMs: 10 }),
      lexical: openLexicalIndex(join(dir, 'lexical.db')),
      vectors: openEmbeddedVectorStore({ path: join(dir, 'vectors.db'), dimensions: 128 }),
      ...(embedder ? { embedder } : {}),
      ...(generator ? { generator } : {}),
    },
  );
  engine.startWorker();
  // Same ports, rewriting on (never closed itself: the first engine closes the ports).
  rewriting = createEngine({ ...engine.config, retrieval: { ...engine.config.retrieval, rewrite: true } }, engine.ports);
  const collection = await engine.ensureCollection('default');
  const [uploaded] = await engine.upload(collection.collection_id, [
    { name: 'travel-policy.md', bytes: new TextEncoder().encode(policy) },
  ]);
  await engine.waitForVersions([uploaded?.version.version_id ?? ''], { timeoutMs: 30_000 });
});

afterAll(async () => {
  await engine.close();
  await gemini.close();
  await ollama.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('ask with a generator, an embedder and a vector store', () => {
  it('fuses lexical and dense candidates and keeps each stage’s ranks', async () => {
    const res = await engine.search('taxi fares refunded');
    expect(res.hits.length).toBeGreaterThan(1);
    expect(res.hits[0]?.ranks).toMatchObject({ lexical: expect.any(Number), dense: expect.any(Number), fused: 1 });
    expect(res.timings.dense).toBeGreaterThanOrEqual(0);
  });

  it('returns only the sources the answer cites, renumbered, each verified', async () => {
    const res = await engine.ask('How much are taxi fares refunded?');
    const prompt = JSON.stringify(gemini.requests.at(-1)?.body);
    expect(prompt).toContain('[2] travel-policy.md');
    expect(res.refused).toBe(false);
    expect(res.generator).toBe('gemini:gemini-2.5-flash');
    expect(res.answer).toBe('Taxi fares are refunded up to 50 dollars per trip [1].');
    expect(res.citations).toHaveLength(1);
    expect(res.citations[0]).toMatchObject({ n: 1, file: 'travel-policy.md', supported: true, precision: 'exact' });
    expect(res.citations[0]?.quote).toContain('Taxi fares are refunded up to 50 dollars per trip');
    expect(res.retrieved.length).toBeGreaterThan(1);
  });

  it('marks an injected unsupported sentence', async () => {
    const res = await engine.ask('How much are taxi fares refunded, and are hotel suites free?');
    expect(res.sentences?.map((s) => s.supported)).toEqual([true, false]);
    expect(res.citations[0]?.supported).toBe(false);
  });

  it('streams retrieved, renumbered text, citation events and the final answer', async () => {
    const events = [];
    for await (const e of engine.askStream('How much are taxi fares refunded?')) events.push(e);
    expect(events[0]?.type).toBe('retrieved');
    const text = events.flatMap((e) => (e.type === 'delta' ? [e.text] : [])).join('');
    expect(text).toBe('Taxi fares are refunded up to 50 dollars per trip [1].');
    expect(events.filter((e) => e.type === 'citation').map((e) => e.type === 'citation' && e.citation.n)).toEqual([1]);
    const last = events.at(-1);
    expect(last?.type === 'answer' && last.answer.citations.map((c) => c.n)).toEqual([1]);
  });

  it('a model refusal carries no sources', async () => {
    const res = await engine.ask('Do hotels refund late checkout fees?');
    expect(res).toMatchObject({ refused: true, refusal_reason: 'model-refused', citations: [] });
  });

  it('the gate refuses before generation when the evidence is weak', async () => {
    const before = gemini.requests.length;
    const res = await engine.ask('What is the capital of Mongolia?');
    expect(res).toMatchObject({ refused: true, citations: [] });
    expect(gemini.requests.length).toBe(before);
  });

  it('rewrites: paraphrases join the fusion; a compound question is answered part by part and merged', async () => {
    const single = await rewriting.ask('How much are taxi fares refunded?');
    expect(single.timings.rewrite).toBeGreaterThanOrEqual(0);
    expect(single.citations.map((c) => c.n)).toEqual([1]);
    const compound = await rewriting.ask('How much are taxi fares refunded and what do meals cover?');
    expect(compound.refused).toBe(false);
    expect(compound.answer).toBe(
      'Taxi fares are refunded up to 50 dollars per trip [1]. Meals are covered up to 30 dollars per day [2].',
    );
    expect(compound.citations.map((c) => [c.n, c.supported])).toEqual([
      [1, true],
      [2, true],
    ]);
    expect(compound.citations[0]?.chunk_id).not.toBe(compound.citations[1]?.chunk_id);
  });
});
