import type { FakeServer } from '@pinpoint/testing';
import { startFakeOllama } from '@pinpoint/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../test/test-app.js';
import { settle, startTestApp, uploadFiles } from '../test/test-app.js';
import { configFor } from './config.js';

const policy =
  'Taxi fares are refunded up to 50 dollars per trip when a receipt is attached.\n\nMeals are covered up to 30 dollars per day.\n';

describe('the API with an embedder and a generator configured (Ollama wire format, local fake)', () => {
  let ollama: FakeServer;
  let t: TestApp;
  beforeAll(async () => {
    ollama = await startFakeOllama(32, (prompt) =>
      prompt.includes('Taxi') ? 'Taxi fares are refunded up to 50 dollars per trip [1].' : 'OK',
    );
    t = await startTestApp({
      PINPOINT_PARSE_ISOLATE: 'false',
      PINPOINT_EMBEDDER: 'ollama',
      PINPOINT_EMBEDDER_MODEL: 'fake-embed',
      PINPOINT_EMBEDDER_DIMENSIONS: '32',
      PINPOINT_GENERATOR: 'ollama',
      PINPOINT_GENERATOR_MODEL: 'fake-chat',
      PINPOINT_OLLAMA_URL: ollama.url,
    });
  });
  afterAll(async () => {
    await t?.close();
    await ollama?.close();
  });

  it('embeds at ingestion (the embedder is part of the recipe), fuses dense ranks, and streams a generated answer', async () => {
    const col = (await t.app.inject({ method: 'POST', url: '/api/collections', payload: { name: 'models' } })).json()
      .collection_id;
    const [up] = await uploadFiles(t.app, col, [{ name: 'policy.txt', bytes: new TextEncoder().encode(policy) }]);
    const [v] = await settle(t.app, [up!.version.version_id]);
    expect(v?.state).toBe('ready');
    expect(v?.recipe.options.embedder).toMatch(/fake-embed/);

    const answer = (
      await t.app.inject({ method: 'POST', url: '/api/ask', payload: { question: 'How much are taxi fares refunded?' } })
    ).json();
    expect(answer.retrieved[0].ranks.dense).toBeDefined();
    expect(answer.generator).toMatch(/fake-chat/);
    expect(answer.refused).toBe(false);
    expect(answer.citations[0].file).toBe('policy.txt');

    const stream = await t.app.inject({
      method: 'POST',
      url: '/api/ask/stream',
      payload: { question: 'How much are taxi fares refunded?' },
    });
    const events = [...stream.body.matchAll(/^event: (\w+)$/gm)].map((m) => m[1]);
    expect(events[0]).toBe('retrieved');
    expect(events).toContain('delta');
    expect(events.at(-1)).toBe('answer');
  });

  it('refuses to start with an incomplete model configuration, naming the setting', () => {
    expect(() => configFor('/tmp/x', { PINPOINT_EMBEDDER: 'ollama' })).toThrow(/PINPOINT_EMBEDDER_MODEL/);
    expect(() => configFor('/tmp/x', { PINPOINT_GENERATOR: 'gemini' })).toThrow(/PINPOINT_GEMINI_API_KEY/);
  });
});
