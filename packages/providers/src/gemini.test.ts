import { embedderConformance, generatorConformance } from '@pinpoint/conformance';
import { PinpointError } from '@pinpoint/core';
import { type FakeServer, startFakeGemini } from '@pinpoint/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createGeminiEmbedder, createGeminiGenerator } from './gemini.js';

let server: FakeServer;
const answer = (prompt: string) =>
  prompt.includes('Question: capital') || prompt.includes('Question: conformance') ? 'The capital is Paris [1].' : 'plain';
beforeAll(async () => {
  server = await startFakeGemini(answer);
});
afterAll(() => server.close());

const fast = { baseDelayMs: 1, maxDelayMs: 5 };

describe('Gemini embedder through @google/genai', () => {
  embedderConformance(() => createGeminiEmbedder({ apiKey: 'k', baseUrl: server.url, dimensions: 64, retry: fast }));

  it('sends document and query task types and batches', async () => {
    const e = createGeminiEmbedder({ apiKey: 'k', baseUrl: server.url, dimensions: 32, batchSize: 2, retry: fast });
    server.requests.length = 0;
    await e.embedDocuments(['a', 'b', 'c']);
    await e.embedQuery('q');
    const batches = server.requests.filter((r) => r.path.includes(':batchEmbedContents'));
    expect(batches.map((r) => (r.body.requests as unknown[]).length)).toEqual([2, 1, 1]);
    const types = batches.flatMap((r) => (r.body.requests as { taskType: string }[]).map((x) => x.taskType));
    expect(types).toEqual(['RETRIEVAL_DOCUMENT', 'RETRIEVAL_DOCUMENT', 'RETRIEVAL_DOCUMENT', 'RETRIEVAL_QUERY']);
    expect(batches[0]?.path).toContain('gemini-embedding-001');
    expect(e.id).toBe('gemini:gemini-embedding-001@32');
  });

  it('retries 429 then succeeds', async () => {
    const e = createGeminiEmbedder({ apiKey: 'k', baseUrl: server.url, dimensions: 8, retry: fast });
    server.failures.push(429, 503);
    server.requests.length = 0;
    expect(await e.embedQuery('hello')).toHaveLength(8);
    expect(server.requests).toHaveLength(3);
  });

  it('gives up with PP_PROVIDER_RATE_LIMITED / PP_PROVIDER_UNAVAILABLE', async () => {
    const e = createGeminiEmbedder({ apiKey: 'k', baseUrl: server.url, dimensions: 8, retry: { ...fast, attempts: 2 } });
    server.failures.push(429, 429);
    await expect(e.embedQuery('x')).rejects.toMatchObject({ code: 'PP_PROVIDER_RATE_LIMITED' });
    server.failures.push(503, 503);
    await expect(e.embedQuery('x')).rejects.toMatchObject({ code: 'PP_PROVIDER_UNAVAILABLE' });
    server.failures.push(400);
    const err = await e.embedQuery('x').catch((x: unknown) => x);
    expect(err).toBeInstanceOf(PinpointError);
    expect((err as PinpointError).code).toBe('PP_PROVIDER_BAD_RESPONSE');
    server.failures.length = 0;
  });
});

describe('Gemini generator through @google/genai', () => {
  generatorConformance(
    () => createGeminiGenerator({ apiKey: 'k', baseUrl: server.url, retry: fast }),
    () => server,
    'The capital is Paris [1].',
  );

  const sources = [{ n: 1, file: 'atlas.pdf', page_label: '4', text: 'Paris is the capital of France.' }];

  it('streams the answer built from numbered sources, with low temperature', async () => {
    const g = createGeminiGenerator({ apiKey: 'k', baseUrl: server.url, model: 'gemini-test', temperature: 0.9, retry: fast });
    server.requests.length = 0;
    const parts: string[] = [];
    for await (const piece of g.generate({ question: 'capital of France?', sources, language: 'en' })) parts.push(piece);
    expect(parts.length).toBeGreaterThan(1);
    expect(parts.join('')).toBe('The capital is Paris [1].');
    const req = server.requests[0];
    expect(req?.path).toContain('gemini-test:streamGenerateContent');
    const body = JSON.stringify(req?.body);
    expect(body).toContain('[1] atlas.pdf, page 4');
    expect((req?.body.generationConfig as { temperature: number } | undefined)?.temperature).toBeLessThanOrEqual(0.2);
  });

  it('retries a 429 before the stream opens, and completes prompts', async () => {
    const g = createGeminiGenerator({ apiKey: 'k', baseUrl: server.url, retry: fast });
    server.failures.push(429);
    let text = '';
    for await (const piece of g.generate({ question: 'capital?', sources, language: 'en' })) text += piece;
    expect(text).toContain('Paris');
    expect(await g.complete('hello')).toBe('plain');
  });
});
