import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../test/test-app.js';
import { settle, startTestApp, uploadFiles } from '../test/test-app.js';

const paper = new Uint8Array(
  readFileSync(new URL('../../../../shared/corpus/formats/pdf/pdfjs__tracemonkey.pdf', import.meta.url)),
);

describe('a question the documents never mention (zero keys)', () => {
  let t: TestApp;
  let collectionId: string;

  beforeAll(async () => {
    t = await startTestApp();
    const res = await t.app.inject({ method: 'POST', url: '/api/collections', payload: { name: 'offtopic' } });
    collectionId = res.json().collection_id;
    const [uploaded] = await uploadFiles(t.app, collectionId, [{ name: 'tracemonkey.pdf', bytes: paper }]);
    const [version] = await settle(t.app, [uploaded?.version.version_id ?? '']);
    expect(version?.state).toBe('ready');
  });
  afterAll(async () => t?.close());

  const ask = async (question: string) => {
    const res = await t.app.inject({ method: 'POST', url: '/api/ask', payload: { question, collection_id: collectionId } });
    expect(res.statusCode).toBe(200);
    return res.json();
  };

  it('is refused with no sources, and the reason names what nothing mentions', async () => {
    const answer = await ask('What is the salary of the chief executive officer?');
    expect(answer.refused).toBe(true);
    expect(answer.citations).toEqual([]);
    expect(answer.gate.reason).toMatch(/^Nothing in your documents mentions .*“salary”/);
    // the same reason as a code with params, for a client to word in its own language
    expect(answer.gate).toMatchObject({ reason_code: 'unseen', reason_params: { words: expect.arrayContaining(['salary']) } });
  });

  it('while a question the paper answers gets cited sentences and says what they hold', async () => {
    const answer = await ask('What is a trace tree?');
    expect(answer.refused).toBe(false);
    expect(answer.citations.length).toBeGreaterThan(0);
    expect(answer.answer).not.toMatch(/^\s*\d*\.?\s*Trace Trees\s*\[1\]\s*$/iu);
    expect(answer.gate.reason).toMatch(/^Answered: the cited passage holds \d+% of the question/);
    expect(answer.gate).toMatchObject({ reason_code: 'answered', reason_params: { coverage: expect.any(Number) } });
  });
});
