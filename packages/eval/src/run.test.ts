import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { answerExtractive } from '@pinpoint/answering';
import { chunkElements } from '@pinpoint/chunker';
import type { Chunk, Element } from '@pinpoint/core';
import { codepointLength, sha256Hex } from '@pinpoint/core';
import { openLexicalIndex, searchLexical } from '@pinpoint/retrieval';
import { afterAll, describe, expect, it } from 'vitest';
import type { EvalEngine } from './run.js';
import { runEval } from './run.js';

const dir = mkdtempSync(join(tmpdir(), 'pp-eval-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const doc =
  'Travel policy.\n\nTaxi fares are refunded up to 50 dollars per trip.\n\nHotels need an itemised receipt from the front desk.';
const questions = [
  {
    id: 'q1',
    question: 'Up to how much are taxi fares refunded?',
    lang: 'en',
    answerable: true,
    answers: ['50 dollars'],
    gold: [{ file: 'policy.txt' }],
  },
  {
    id: 'q2',
    question: 'What do hotels need?',
    lang: 'en',
    answerable: true,
    answers: ['itemised receipt'],
    gold: [{ file: 'policy.txt' }],
  },
  { id: 'q3', question: 'Which football club won the league in 1998?', lang: 'en', answerable: false, answers: [], gold: [] },
];

/** Paragraphs of a text file as text-anchored elements: enough of a parser for this test. */
function paragraphs(text: string): Element[] {
  const out: Element[] = [];
  let offset = 0;
  for (const part of text.split('\n\n')) {
    out.push({
      element_id: `e${out.length}`,
      type: 'paragraph',
      section_path: [],
      text: part,
      anchor: {
        kind: 'text',
        artifact: 'original',
        unit: 'codepoint',
        start: offset,
        end: offset + codepointLength(part),
        text_sha256: sha256Hex(text),
      },
    });
    offset += codepointLength(part) + 2;
  }
  return out;
}

/** A small engine from the real chunker, index and answerer. */
function smallEngine(): EvalEngine {
  const index = openLexicalIndex(':memory:');
  const store = new Map<string, { chunk: Chunk; elements: Element[]; file: string }>();
  return {
    async ingest(files) {
      for (const [i, f] of files.entries()) {
        const elements = paragraphs(readFileSync(f.path, 'utf8'));
        const chunks = chunkElements(elements, { versionId: `v${i}`, documentId: `d${i}`, collectionId: 'c', title: f.name });
        for (const chunk of chunks) store.set(chunk.chunk_id, { chunk, elements, file: f.name });
        await index.upsert(
          chunks.map(({ chunk_id, version_id, document_id, collection_id, retrieval_text }) => ({
            chunk_id,
            version_id,
            document_id,
            collection_id,
            retrieval_text,
          })),
        );
      }
    },
    async ask(question) {
      const result = await searchLexical(index, question, { k: 10 });
      const chunks = result.hits.map((h, i) => ({
        ...(store.get(h.chunk_id) as { chunk: Chunk; elements: Element[]; file: string }),
        rank: i + 1,
        score: h.score,
      }));
      const a = answerExtractive({ question, chunks, queryTerms: result.query_terms });
      return {
        refused: a.refused,
        answer: a.answer,
        citations: a.citations,
        retrieved: chunks.map((c) => ({ file: c.file, text: c.chunk.text, scores: { lexical: c.score } })),
        timings_ms: result.timings_ms,
        gate: { score: a.gate.score, threshold: a.gate.threshold, features: { ...a.gate.features } },
      };
    },
    config: () => ({ engine: 'test' }),
    close: () => index.close(),
  };
}

describe('runEval', () => {
  it('ingests, asks, scores and writes the run file of DESIGN.md §6', async () => {
    const data = join(dir, 'set');
    mkdirSync(join(data, 'docs'), { recursive: true });
    writeFileSync(join(data, 'docs', 'policy.txt'), doc);
    writeFileSync(join(data, 'questions.jsonl'), `${questions.map((q) => JSON.stringify(q)).join('\n')}\n`);
    const out = join(dir, 'run.json');
    const run = await runEval(data, { engineFactory: async () => smallEngine(), out });
    expect(run.metrics['hit@1']).toBe(1);
    expect(run.metrics.refusal_recall).toBe(1);
    expect(run.metrics.answerable_recall).toBe(1);
    const file = JSON.parse(readFileSync(out, 'utf8'));
    expect(file.dataset.sha256).toMatch(/^[0-9a-f]{64}$/);
    expect(file.config.mode).toBe('lexical');
    const q1 = file.questions.find((q: { id: string }) => q.id === 'q1');
    expect(q1.citations[0].quote).toBe('Taxi fares are refunded up to 50 dollars per trip.');
    expect(q1.retrieved[0]).toMatchObject({ rank: 1, file: 'policy.txt', relevant: true });
    expect(file.questions.find((q: { id: string }) => q.id === 'q3').citations).toEqual([]);
  });
});
