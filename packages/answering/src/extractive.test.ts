import type { Chunk, Element } from '@pinpoint/core';
import { sliceCodepoints } from '@pinpoint/core';
import { describe, expect, it } from 'vitest';
import type { RankedChunk } from './candidates.js';
import { answerExtractive } from './extractive.js';

const Z = '0'.repeat(64);
const decoded =
  'Intro line.\n\nTaxi fares are refunded up to 50 dollars per trip. Hotels need a receipt. 𠮷 is a rare character.';
const paraStart = 13;
const para = Array.from(decoded).slice(paraStart).join('');
const textElement: Element = {
  element_id: 'e000001',
  type: 'paragraph',
  section_path: ['Travel'],
  text: para,
  anchor: {
    kind: 'text',
    artifact: 'original',
    unit: 'codepoint',
    start: paraStart,
    end: paraStart + Array.from(para).length,
    text_sha256: Z,
  },
};
const pageElement: Element = {
  element_id: 'e000002',
  type: 'paragraph',
  section_path: [],
  text: 'Meals are covered up to 30 dollars. Alcohol is never refunded.',
  anchor: {
    kind: 'page',
    artifact: 'original',
    page_index: 2,
    page_width: 600,
    page_height: 800,
    unit: 'pt',
    rotation: 0,
    boxes: [[0, 0, 600, 40]],
  },
  spans: [
    { start: 0, end: 35, box: [10, 10, 300, 20] },
    { start: 36, end: 62, box: [10, 22, 250, 32] },
  ],
};
const chunkOf = (e: Element, id: string): Chunk => ({
  chunk_id: id,
  chunk_set_id: 'c1:700/70',
  version_id: 'v1',
  document_id: 'd1',
  collection_id: 'c1',
  ordinal: 0,
  elements: [{ element_id: e.element_id, start: 0, end: Array.from(e.text).length }],
  text: e.text,
  retrieval_text: e.text,
  section_path: e.section_path,
  ...(e.anchor.kind === 'page' ? { page_index: e.anchor.page_index } : {}),
});
const ranked = (els: Element[]): RankedChunk[] =>
  els.map((e, i) => ({ chunk: chunkOf(e, `c-${e.element_id}-${i}`), elements: [e], file: 'policy', rank: i + 1, score: 10 - i }));

describe('answerExtractive', () => {
  it('cites the best sentence with a text anchor that slices back to the quote', () => {
    const a = answerExtractive({ question: 'How much are taxi fares refunded?', chunks: ranked([textElement, pageElement]) });
    expect(a.refused).toBe(false);
    const c = a.citations[0];
    expect(c?.quote).toBe('Taxi fares are refunded up to 50 dollars per trip.');
    expect(a.answer).toContain('[1]');
    if (c?.anchor.kind !== 'text') throw new Error('expected a text anchor');
    expect(sliceCodepoints(decoded, c.anchor.start, c.anchor.end)).toBe(c.quote);
    expect(c.precision).toBe('exact');
  });

  it('narrows a page anchor to the boxes of the spans under the sentence', () => {
    const a = answerExtractive({ question: 'Is alcohol refunded?', chunks: ranked([pageElement, textElement]) });
    const c = a.citations[0];
    expect(c?.quote).toBe('Alcohol is never refunded.');
    expect(c?.anchor.kind === 'page' && c.anchor.boxes).toEqual([[10, 22, 250, 32]]);
    expect(c?.page_index).toBe(2);
  });

  it('refuses an off-topic question with no sources', () => {
    const a = answerExtractive({
      question: 'Who won the football world cup in 1998?',
      chunks: ranked([textElement, pageElement]),
    });
    expect(a.refused).toBe(true);
    expect(a.citations).toEqual([]);
    expect(a.gate.features.cov_window).toBeLessThan(0.25);
  });
});
