import type { Chunk, Element } from '@pinpoint/core';
import { createGeminiGenerator, createOllamaEmbedder } from '@pinpoint/providers';
import { type FakeServer, startFakeGemini, startFakeOllama } from '@pinpoint/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RankedChunk } from './candidates.js';
import { postCheck, questionLanguage, renumberCitations } from './generate.js';
import { type AnswerEvent, generateAnswer, streamGeneratedAnswer } from './generate-answer.js';
import { mergeAnswers } from './generate-merge.js';
import { parseRewrite, rewriteQuery } from './generate-rewrite.js';

const texts = [
  'Parking permits are issued monthly by the facilities office.',
  'Taxi fares are refunded up to 50 dollars per trip. Hotels need a receipt.',
  'Meals are covered up to 30 dollars per day. Alcohol is never refunded.',
];
function chunk(text: string, i: number): RankedChunk {
  const element: Element = {
    element_id: `e${i}`,
    type: 'paragraph',
    section_path: [],
    text,
    anchor: {
      kind: 'text',
      artifact: 'original',
      unit: 'codepoint',
      start: 0,
      end: Array.from(text).length,
      text_sha256: '0'.repeat(64),
    },
  };
  const c: Chunk = {
    chunk_id: `c${i}`,
    chunk_set_id: 'c1:500/50',
    version_id: 'v1',
    document_id: 'd1',
    collection_id: 'col',
    ordinal: i,
    elements: [{ element_id: element.element_id, start: 0, end: Array.from(text).length }],
    text,
    retrieval_text: text,
    section_path: [],
  };
  return { chunk: c, elements: [element], file: `policy-${i}.md`, rank: i + 1, score: 1 };
}
const chunks = texts.map(chunk);

const scripted: Record<string, string> = {
  taxi: 'Taxi fares are refunded up to 50 dollars [2]. Meals are covered up to 30 dollars [3][2].',
  inject: 'Taxi fares are refunded up to 50 dollars per trip [1]. Employees receive a free company car every year [1].',
  number: 'Taxi fares are refunded up to 80 dollars per trip [1].',
  uncited: 'Taxi fares are refunded.',
  ghost: 'Taxi fares are refunded up to 50 dollars [7].',
  refuse: 'NO_ANSWER: 資料にはこの質問への答えがありません。',
};
let gemini: FakeServer;
let ollama: FakeServer;
beforeAll(async () => {
  gemini = await startFakeGemini((prompt) => {
    if (prompt.includes('Rewrite the question'))
      return '```json\n{"paraphrases": ["How much is refunded for taxis?", "Taxi refund limit"], "parts": ["What is the taxi limit?", "What is the meal limit?"]}\n```';
    const key = Object.keys(scripted).find((k) => prompt.includes(`Question: ${k}`));
    return scripted[key ?? 'refuse'] ?? '';
  });
  ollama = await startFakeOllama(256);
});
afterAll(async () => {
  await gemini.close();
  await ollama.close();
});
const generator = () => createGeminiGenerator({ apiKey: 'k', baseUrl: gemini.url });

describe('generated answers: post-check', () => {
  it('returns only the cited sources, renumbered by first use, with sentence anchors', async () => {
    const a = await generateAnswer({ question: 'taxi and meals?', chunks, generator: generator() });
    expect(a.refused).toBe(false);
    expect(a.answer).toBe('Taxi fares are refunded up to 50 dollars [1]. Meals are covered up to 30 dollars [2][1].');
    expect(a.citations.map((c) => [c.n, c.chunk_id])).toEqual([
      [1, 'c1'],
      [2, 'c2'],
    ]);
    expect(a.citations[0]?.quote).toBe('Taxi fares are refunded up to 50 dollars per trip.');
    expect(a.citations[0]?.precision).toBe('exact');
    expect(a.citations.every((c) => c.supported === true)).toBe(true);
  });

  it('a refusal carries no sources and speaks the question’s language', async () => {
    const a = await generateAnswer({ question: 'refuse: 駐車場の料金は?', chunks, generator: generator() });
    expect(a).toMatchObject({ refused: true, refusal_reason: 'model-refused', citations: [], sources: [], sentences: [] });
    expect(a.answer).toBe('資料にはこの質問への答えがありません。');
  });

  it('treats an answer that cites nothing (or only unknown numbers) as a refusal', async () => {
    for (const q of ['uncited', 'ghost']) {
      const a = await generateAnswer({ question: `${q}?`, chunks, generator: generator() });
      expect(a.refused).toBe(true);
      expect(a.refusal_reason).toBe('no-citations');
      expect(a.citations).toEqual([]);
    }
  });

  it('marks an injected unsupported sentence and a changed number', async () => {
    const a = await generateAnswer({ question: 'inject?', chunks: chunks.slice(1), generator: generator() });
    expect(a.sentences.map((s) => s.supported)).toEqual([true, false]);
    expect(a.citations[0]?.supported).toBe(false);
    const b = await generateAnswer({ question: 'number?', chunks: chunks.slice(1), generator: generator() });
    expect(b.sentences[0]).toMatchObject({ supported: false, missing: ['80'] });
  });

  it('uses the embedder as a second opinion when one is configured', async () => {
    const embedder = createOllamaEmbedder({ url: ollama.url, model: 'bge-m3', dimensions: 256 });
    const a = await generateAnswer({ question: 'inject?', chunks: chunks.slice(1), generator: generator(), embedder });
    expect(a.sentences[0]?.cosine).toBeGreaterThan(0.8);
    expect(a.sentences[1]?.cosine).toBeLessThan(0.5);
    expect(a.sentences.map((s) => s.supported)).toEqual([true, false]);
  });
});

describe('generated answers: streaming events', () => {
  it('streams renumbered text and a citation event at each first use, then done', async () => {
    const events: AnswerEvent[] = [];
    for await (const e of streamGeneratedAnswer({ question: 'taxi?', chunks, generator: generator() })) events.push(e);
    const done = events.at(-1);
    expect(done?.type).toBe('done');
    const text = events.flatMap((e) => (e.type === 'delta' ? [e.text] : [])).join('');
    expect(done?.type === 'done' && done.answer.answer).toBe(text);
    expect(events.filter((e) => e.type === 'delta').length).toBeGreaterThan(1);
    expect(events.flatMap((e) => (e.type === 'citation' ? [[e.citation.n, e.citation.chunk_id]] : []))).toEqual([
      [1, 'c1'],
      [2, 'c2'],
    ]);
  });

  it('streams no text for a refusal', async () => {
    const events: AnswerEvent[] = [];
    for await (const e of streamGeneratedAnswer({ question: 'refuse?', chunks, generator: generator() })) events.push(e);
    expect(events.map((e) => e.type)).toEqual(['done']);
  });
});

describe('post-check pieces', () => {
  it('renumbers markers and drops unknown sources', () => {
    expect(renumberCitations('A [3]. B [1, 3] [9]. C [2、3].', 3)).toEqual({
      text: 'A [1]. B [2][1]. C [3][1].',
      order: [3, 1, 2],
    });
  });

  it('detects the question language', () => {
    expect(['What is it?', '料金はいくらですか', '費用是多少', '요금은 얼마입니까'].map(questionLanguage)).toEqual([
      'und',
      'ja',
      'zh',
      'ko',
    ]);
  });
});

describe('query rewriting', () => {
  it('asks the generator for two paraphrases and the parts of a compound question', async () => {
    const r = await rewriteQuery(generator(), 'What are the taxi and meal limits?');
    expect(r.paraphrases).toHaveLength(2);
    expect(r.parts).toEqual(['What is the taxi limit?', 'What is the meal limit?']);
    expect(await rewriteQuery(null, 'x')).toEqual({ paraphrases: [], parts: [] });
    expect(parseRewrite('not json', 'q')).toEqual({ paraphrases: [], parts: [] });
    expect(parseRewrite('{"paraphrases":["q","a"],"parts":["only one"]}', 'q')).toEqual({ paraphrases: ['a'], parts: [] });
  });
});

describe('answers to the parts of a compound question', () => {
  it('merges texts and renumbers citations across parts by source', async () => {
    const taxi = await generateAnswer({ question: 'taxi?', chunks, generator: generator() });
    const inject = await generateAnswer({ question: 'inject?', chunks: chunks.slice(1), generator: generator() });
    const refusal = await generateAnswer({ question: 'refuse?', chunks, generator: generator() });
    const merged = mergeAnswers([taxi, refusal, inject]);
    expect(merged.refused).toBe(false);
    expect(merged.citations.map((c) => [c.n, c.chunk_id, c.supported])).toEqual([
      [1, 'c1', false],
      [2, 'c2', true],
    ]);
    expect(merged.answer).toContain('Meals are covered up to 30 dollars [2][1].');
    expect(merged.answer).toContain(refusal.answer);
    expect(merged.answer.endsWith('every year [1].')).toBe(true);
    const last = merged.sentences.at(-1);
    expect(Array.from(merged.answer).slice(last?.start, last?.end).join('')).toContain('free company car');
    expect(mergeAnswers([refusal, refusal]).refused).toBe(true);
  });
});

describe('citations without a sentence to single out', () => {
  it('fall back to the chunk’s element so every marker keeps its citation', () => {
    const bare = { ...chunk('Only a table: | a | b |', 9), elements: [] };
    const checked = postCheck('The table lists a and b [1].', [bare], 'no');
    expect(checked.citations).toHaveLength(1);
    expect(checked.citations[0]).toMatchObject({ n: 1, chunk_id: 'c9', precision: 'unresolved' });
  });
});
