import { rerankerConformance } from '@pinpoint/conformance';
import { type FakeServer, startFakeGemini } from '@pinpoint/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createReranker } from './factories.js';
import { createGeminiGenerator } from './gemini.js';
import { createLlmReranker, parseRerankScores } from './llm-reranker.js';

let server: FakeServer;
beforeAll(async () => {
  server = await startFakeGemini((prompt) => {
    if (prompt.includes('Question: fruit'))
      return prompt.indexOf('apple') < prompt.indexOf('parking') ? '1: 9\n2: 1' : '1: 1\n2: 9';
    return prompt.includes('Rate how well') ? '1: 2\n2: 9\n3: 2' : '';
  });
});
afterAll(() => server.close());

describe('LLM reranker', () => {
  rerankerConformance(
    async () => createLlmReranker(createGeminiGenerator({ apiKey: 'k', baseUrl: server.url })),
    'fruit',
    'apple banana',
    'parking permits',
  );

  it('orders candidates by the generator’s scores, ties keep their order', async () => {
    const generator = createGeminiGenerator({ apiKey: 'k', baseUrl: server.url });
    const r = await createReranker({ kind: 'llm' }, { generator });
    const out = await r?.rerank('q', [
      { chunk_id: 'a', text: 'x' },
      { chunk_id: 'b', text: 'y' },
      { chunk_id: 'c', text: 'z' },
    ]);
    expect(out).toEqual([
      { chunk_id: 'b', score: 9 },
      { chunk_id: 'a', score: 2 },
      { chunk_id: 'c', score: 2 },
    ]);
  });

  it('parses loose replies and ignores out-of-range numbers', () => {
    expect(parseRerankScores('[1]: 7\n2 = 3.5\n9: 10\n', 3)).toEqual([7, 3.5, 0]);
  });

  it('needs a generator', async () => {
    await expect(createReranker({ kind: 'llm' })).rejects.toMatchObject({ code: 'PP_CONFIG_INVALID' });
    expect(await createReranker({ kind: 'none' })).toBeNull();
  });
});
