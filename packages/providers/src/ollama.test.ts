import { embedderConformance, generatorConformance } from '@pinpoint/conformance';
import { type FakeServer, startFakeOllama } from '@pinpoint/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createOllamaEmbedder, createOllamaGenerator } from './ollama.js';

let server: FakeServer;
beforeAll(async () => {
  server = await startFakeOllama(48, (prompt) => {
    if (prompt.includes('Question: conformance')) return 'The capital is Paris [1].';
    return prompt.includes('Question:') ? 'NO_ANSWER: 資料には記載がありません。' : 'a\nb';
  });
});
afterAll(() => server.close());
const fast = { baseDelayMs: 1, maxDelayMs: 5 };

describe('Ollama embedder over /api/embed', () => {
  embedderConformance(() => createOllamaEmbedder({ url: server.url, model: 'bge-m3', dimensions: 48, retry: fast }));

  it('adds the model card prefixes (nomic-embed-text) and retries 503', async () => {
    const e = createOllamaEmbedder({ url: server.url, model: 'nomic-embed-text', dimensions: 48, retry: fast });
    server.requests.length = 0;
    server.failures.push(503);
    await e.embedQuery('where');
    await e.embedDocuments(['doc']);
    expect(server.requests.map((r) => r.body.input)).toEqual([
      ['search_query: where'],
      ['search_query: where'],
      ['search_document: doc'],
    ]);
  });

  it('rejects a dimension mismatch', async () => {
    const e = createOllamaEmbedder({ url: server.url, model: 'bge-m3', dimensions: 1024, retry: fast });
    await expect(e.embedQuery('x')).rejects.toMatchObject({ code: 'PP_PROVIDER_BAD_RESPONSE' });
  });

  it('reports an unreachable server as PP_PROVIDER_UNAVAILABLE', async () => {
    const e = createOllamaEmbedder({
      url: 'http://127.0.0.1:9',
      model: 'bge-m3',
      dimensions: 48,
      retry: { ...fast, attempts: 2 },
    });
    await expect(e.embedQuery('x')).rejects.toMatchObject({ code: 'PP_PROVIDER_UNAVAILABLE' });
  });
});

describe('Ollama generator over /api/chat', () => {
  generatorConformance(
    () => createOllamaGenerator({ url: server.url, model: 'qwen2.5', retry: fast }),
    () => server,
    'The capital is Paris [1].',
  );

  it('streams NDJSON deltas and completes prompts', async () => {
    const g = createOllamaGenerator({ url: server.url, model: 'qwen2.5', retry: fast });
    server.requests.length = 0;
    const parts: string[] = [];
    for await (const p of g.generate({ question: '期限は?', sources: [{ n: 1, file: 'a.md', text: 'x' }], language: 'ja' }))
      parts.push(p);
    expect(parts.join('')).toBe('NO_ANSWER: 資料には記載がありません。');
    expect(parts.length).toBeGreaterThan(1);
    const body = server.requests[0]?.body as {
      stream: boolean;
      options: { temperature: number };
      messages: { content: string }[];
    };
    expect(body.stream).toBe(true);
    expect(body.options.temperature).toBeLessThanOrEqual(0.2);
    expect((body.options as { num_ctx?: number }).num_ctx).toBe(8192);
    expect(body.messages[0]?.content).toContain('Japanese');
    expect(await g.complete('split this')).toBe('a\nb');
  });
});
